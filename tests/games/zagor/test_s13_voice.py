"""docs/zagor/rules.md section 13: the voice of Zagor, the score, commands."""

import pytest

from apps.games.zagor.data import RANDOM_EVENTS
from apps.games.zagor.voice import command_target

from .builders import a, act, clear_tiles, fight, game, lay, put, turn_to


def table(heroes=2):
    return clear_tiles(turn_to(game(heroes=heroes), "barbarian"))


def test_the_score_is_fights_won_less_rooms_avoided():
    s = table()
    s.heroes["dwarf"].fights_won, s.heroes["dwarf"].rooms_avoided = 1, 3
    assert s.heroes["dwarf"].score == -2


def test_the_lowest_negative_score_is_punished():
    s = table(3)
    s.heroes["warrior"].rooms_avoided = 2
    s.heroes["dwarf"].rooms_avoided = 1
    hero, punish = command_target(s)
    assert (hero.hero, punish) == ("warrior", True)


def test_when_no_score_is_negative_the_highest_is_rewarded_ties_to_the_soonest():
    s = table(3)
    s.heroes["barbarian"].fights_won = 2
    s.heroes["warrior"].fights_won = 2
    hero, punish = command_target(s)
    assert (hero.hero, punish) == ("warrior", False)


def test_a_hero_with_an_order_waiting_is_passed_over():
    s = table(2)
    s.heroes["dwarf"].orders = ["Run!"]
    hero, _ = command_target(s)
    assert hero.hero == "barbarian"


def test_the_voice_commands_after_a_quiet_while_and_carries_it_out_next_turn():
    s = table(2)
    s.quiet_turns = 2  # this quiet turn makes 3 = heroes + 1
    s.heroes["dwarf"].rooms_avoided = 1
    r = act(s, a("end_turn"), {"voice": [0]})  # Fight my servant!
    assert r.state.turn.hero == "dwarf" and r.state.fight is not None
    said = [e["text"] for e in r.events if e["type"] == "voice"]
    assert any("Fight my servant!" in t for t in said)


def test_a_command_at_random_one_time_in_eight():
    s = table(2)
    s.heroes["dwarf"].fights_won = 1
    r = act(s, a("end_turn"), {"voice": [0, 0]})  # the chance hits; Take my gold
    assert r.state.heroes["dwarf"].gold == 24


def test_never_a_command_during_a_fight():
    s = fight(table(2))
    s.quiet_turns = 10
    r = act(s, a("strike"), {"d10": [1, 1]})
    assert not any("at your next turn" in e["text"] for e in r.events)


@pytest.mark.parametrize("index", range(len(RANDOM_EVENTS)))
def test_every_random_event_does_what_the_table_says(index):
    s = table(2)
    lay(s, "a5", "Random")
    put(s, "barbarian", "s1")
    r = act(s, a("move", to="a5"), {"voice": [1, index], "teleport": [0]})
    d, b = r.state.heroes["dwarf"], r.state.heroes["barbarian"]
    event = RANDOM_EVENTS[index]
    expected = {
        "Earthquake": lambda: d.stamina == 7 and b.stamina == 7,
        "Gold rain": lambda: d.gold == 25,
        "Curse": lambda: d.stamina == 6,
        "Blessing": lambda: d.stamina == 8,
        "Thief": lambda: d.gold == 17,
        "Whirlwind": lambda: d.space == "a1",
        "Spell storm": lambda: len(d.spells) == 1,
        "Wandering monster": lambda: d.orders == ["summoned"],
        "Paralysis": lambda: d.no_move_next,
        "Treasure": lambda: len(d.chests) == 1,
    }[event]
    assert expected(), event
    assert any(e["type"] == "voice" and e.get("event") == event for e in r.events)


def test_repeat_keeps_the_last_announcement():
    s = put(table(2), "barbarian", "a2")
    s.rooms["r11"].monster = "Goblin"
    r = act(s, a("move", to="r11"), {"monster": [1, 0]})
    last = [e["text"] for e in r.events if e["type"] == "voice"][-1]
    assert last == f"Zagor: {r.state.last_voice}" and "Goblin" in last
