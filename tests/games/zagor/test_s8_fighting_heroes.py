"""docs/zagor/rules.md section 8: duels between heroes, surrender, spoils, a kill."""

import pytest

from apps.games.port import Refusal

from .builders import a, act, clear_tiles, fight, game, legal, legal_types, put, turn_to


def pair():
    s = clear_tiles(turn_to(game(heroes=2), "barbarian"))
    put(s, "barbarian", "a10")
    put(s, "dwarf", "a11")
    return s


def test_a_hero_may_attack_a_hero_on_a_linked_space():
    assert {"type": "attack_hero", "hero": "barbarian", "target": "dwarf"} in legal(pair())


def test_no_duel_with_a_hero_further_away():
    s = put(pair(), "dwarf", "a13")
    assert "attack_hero" not in legal_types(s)


def test_no_duel_during_a_monster_fight():
    s = fight(pair())
    assert "attack_hero" not in legal_types(s)


def test_a_blow_hits_when_higher_than_strength_and_the_defence_roll_must_beat_the_attackers():
    s = pair()
    # attacker 7 > 6 hits; dwarf defends 5 (not > 6); dwarf strikes back 3 (miss)
    r = act(s, a("attack_hero", target="dwarf"), {"d10": [7, 5, 3]})
    assert r.state.heroes["dwarf"].stamina == 7 and r.state.heroes["barbarian"].stamina == 8
    # a 6 does not beat Strength 6
    r = act(s, a("attack_hero", target="dwarf"), {"d10": [6, 3]})
    assert r.state.heroes["dwarf"].stamina == 8


def test_a_defence_roll_higher_than_the_attackers_strength_cancels_the_hit():
    r = act(pair(), a("attack_hero", target="dwarf"), {"d10": [9, 7, 1]})
    assert r.state.heroes["dwarf"].stamina == 8


def test_blows_alternate_each_exchange():
    r = act(pair(), a("attack_hero", target="dwarf"), {"d10": [1, 9, 2]})
    assert r.state.heroes["barbarian"].stamina == 7 and r.state.duel is not None
    assert {"strike", "surrender"} <= legal_types(r.state)


def test_the_defender_surrenders_by_his_standing_setting_and_the_winner_chooses():
    s = pair()
    s.heroes["dwarf"].surrender_at = 7
    s.heroes["dwarf"].items = ["Axe"]
    r = act(s, a("attack_hero", target="dwarf"), {"d10": [9, 1, 1]})
    assert r.state.duel is None and r.state.spoils is not None
    options = {(x["take"], x["item"]) for x in legal(r.state)}
    assert options == {("gold", None), ("item", "Axe")}
    r2 = act(r.state, a("spoils", take="item", item="Axe"))
    assert "Axe" in r2.state.heroes["barbarian"].items
    assert r2.state.heroes["dwarf"].items == []


def test_an_attacker_who_surrenders_pays_the_defender_by_the_published_default():
    s = pair()
    s.heroes["barbarian"].chests = [5]
    r = act(s, a("attack_hero", target="dwarf"), {"d10": [1, 1]})
    r = act(r.state, a("surrender"))
    assert r.state.heroes["dwarf"].chests == [5] and r.state.spoils is None


def test_a_kill_takes_all_gold_and_chests_and_sends_the_loser_home_a_turn_later():
    s = pair()
    s.heroes["dwarf"].stamina = 1
    s.heroes["dwarf"].chests = [2, 4]
    r = act(s, a("attack_hero", target="dwarf"), {"d10": [10, 1]})
    b, d = r.state.heroes["barbarian"], r.state.heroes["dwarf"]
    assert b.gold == 40 and sorted(b.chests) == [2, 4] and d.gold == 0 and d.chests == []
    assert d.space == "s2" and d.miss_turns == 1 and d.stamina == 8
    assert r.state.spoils.kind == "kill"
    r = act(r.state, a("spoils", take="space"))
    assert r.state.heroes["barbarian"].space == "a11"


def test_a_fallen_attacker_ends_his_turn():
    s = pair()
    s.heroes["barbarian"].stamina = 1
    r = act(s, a("attack_hero", target="dwarf"), {"d10": [1, 10, 1], "voice": [1]})
    assert r.state.heroes["barbarian"].space == "s1" and r.state.turn.hero == "dwarf"
    assert r.state.heroes["dwarf"].gold == 40


def test_one_duel_per_turn():
    s = pair()
    r = act(s, a("attack_hero", target="dwarf"), {"d10": [1, 1]})
    r = act(r.state, a("surrender"))
    assert "attack_hero" not in legal_types(r.state)


def test_an_invisible_hero_cannot_be_attacked():
    s = pair()
    s.heroes["dwarf"].invisible = True
    assert "attack_hero" not in legal_types(s)
    with pytest.raises(Refusal):
        act(s, a("attack_hero", target="dwarf"))
