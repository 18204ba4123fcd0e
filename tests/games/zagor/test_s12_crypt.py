"""docs/zagor/rules.md section 12: the Crypt, the Flame Dragon, Zagor."""

from .builders import a, act, clear_tiles, game, legal_types, put, turn_to


def at(space, heroes=1):
    s = clear_tiles(turn_to(game(heroes=heroes), "barbarian"))
    return put(s, "barbarian", space)


def test_entering_the_crypt_discards_every_spell_card():
    s = at("rope_bridge")
    s.heroes["barbarian"].spells = ["Life"]
    r = act(s, a("move", to="c1"))
    assert r.state.heroes["barbarian"].spells == [] and "Life" in r.state.discards


def test_no_spell_is_drawn_in_the_crypt():
    s = at("c1")
    s.heroes["barbarian"].spells = []
    s = act(s, a("end_turn"), {"voice": [1]}).state
    assert s.heroes["barbarian"].spells == []


def test_the_flame_dragon_is_a_level_two_announcement_plus_two_and_one():
    r = act(at("c2"), a("move", to="cave"), {"monster": [1, 0]})
    f = r.state.fight
    assert (f.kind, f.strength, f.stamina) == ("dragon", 8, 5)


def test_a_retreat_from_the_dragon_returns_the_hero_and_a_return_is_announced_afresh():
    s = act(at("c2"), a("move", to="cave"), {"monster": [1, 0]}).state
    s = act(s, a("retreat")).state
    assert s.heroes["barbarian"].space == "c2" and s.fight is None


def test_the_dragons_victor_takes_two_from_the_supply_and_the_pile():
    s = act(at("c2"), a("move", to="cave"), {"monster": [1, 0]}).state
    s.fight.stamina = 1
    s.chest_pile = [11]
    supply = list(s.chest_supply)
    r = act(s, a("strike"), {"d10": [1, 10]})
    assert sorted(r.state.heroes["barbarian"].chests) == sorted([*supply[-2:], 11])
    assert r.state.chest_pile == []


def test_the_dragon_rises_again_for_the_next_hero():
    s = act(at("c2"), a("move", to="cave"), {"monster": [1, 0]}).state
    s.fight.stamina = 1
    s = act(s, a("strike"), {"d10": [1, 10]}).state
    s = act(s, a("end_turn"), {"voice": [1]}).state
    s = put(s, "barbarian", "c2")
    assert act(s, a("move", to="cave"), {"monster": [1, 0]}).state.fight is not None


def test_zagor_has_twelve_less_one_per_chest_held():
    s = at("c4")
    s.heroes["barbarian"].chests = [1, 2, 3, 4, 5]
    d = act(s, a("move", to="hall")).state.duel
    assert (d.zagor_strength, d.zagor_stamina) == (7, 7)


def test_heroes_cannot_retreat_from_zagor():
    s = act(at("c4"), a("move", to="hall")).state
    assert "retreat" not in legal_types(s) and "end_turn" not in legal_types(s)


def test_zagor_attacks_when_higher_than_strength_and_is_hit_on_at_least_his_strength():
    s = at("c4")
    s.heroes["barbarian"].chests = [1, 2, 3, 4, 5, 6]
    s = act(s, a("move", to="hall")).state
    r = act(s, a("strike"), {"zagor": [1], "d10": [7, 6]})
    assert r.state.heroes["barbarian"].stamina == 7 and r.state.duel.zagor_stamina == 5


def test_zagor_casts_his_own_spells():
    s = act(at("c4"), a("move", to="hall")).state
    r = act(s, a("strike"), {"zagor": [0, 1], "d10": [1]})  # Firestorm
    assert r.state.heroes["barbarian"].stamina == 6
    assert any("Firestorm!" in e["text"] for e in r.events if e["type"] == "voice")


def test_beating_zagor_wins_the_game():
    s = at("c4")
    s.heroes["barbarian"].chests = [1, 2, 3, 4, 5, 6]
    s = act(s, a("move", to="hall")).state
    s.duel.zagor_stamina = 1
    r = act(s, a("strike"), {"zagor": [1], "d10": [1, 6]})
    assert r.state.outcome == "hero:barbarian" and r.events[-1]["type"] == "over"


def test_losing_to_zagor_sends_the_hero_home_without_his_chests():
    s = at("c4", heroes=2)
    s.heroes["barbarian"].chests = [1, 2]
    s = act(s, a("move", to="hall")).state
    s.heroes["barbarian"].stamina = 1
    r = act(s, a("strike"), {"zagor": [1], "d10": [10], "voice": [1]})
    b = r.state.heroes["barbarian"]
    assert b.space == "s1" and b.chests == [] and r.state.chest_pile == [1, 2]
    assert b.miss_turns == 0 and r.state.duel is None and r.state.turn.hero == "dwarf"
