"""docs/rules.md section 11: ending a quest."""

import pytest

from apps.games.heroquest.engine import (
    Attack,
    Escape,
    IllegalAction,
    MonsterAttack,
    SearchTraps,
    legal_actions,
)

from .builders import ZARGON, act, build_quest, place, set_turn, start, zargon_turn

ROOM = """
aaaaa
aaaaa
"""


def quest():
    return build_quest(ROOM, monsters=[("goblin", (4, 1))], villain=0, stairway=[(0, 0)])


def test_zargon_wins_at_once_when_no_living_hero_remains():
    s = zargon_turn(place(start(quest()), barbarian=(3, 1), dwarf=None, elf=None, wizard=None))
    s.heroes["dwarf"].status = s.heroes["elf"].status = s.heroes["wizard"].status = "fallen"
    s.heroes["barbarian"].body = 1
    t = act(s, ZARGON, MonsterAttack("m1", "barbarian"), dice=["skull", "skull"] + ["skull"] * 2)
    assert t.state.outcome == "zargon" and t.state.phase == "over"
    assert legal_actions(t.state, ZARGON) == [] and legal_actions(t.state, 2) == []


def test_retreat_a_hero_on_the_stairway_may_escape_before_the_villain_falls():
    s = set_turn(place(start(quest()), barbarian=(0, 0)), "barbarian")
    assert Escape("barbarian") in legal_actions(s, 2)
    t = act(s, 2, Escape("barbarian"))
    assert t.state.heroes["barbarian"].status == "escaped" and t.state.outcome is None
    assert t.events[0]["retreat"] is True and "retreats" in t.events[0]["text"]


def test_retreat_ends_the_quest_with_no_reward_once_every_survivor_has_left():
    s = set_turn(start(quest()), "wizard")
    place(s, barbarian=None, dwarf=None, wizard=(0, 0))
    s.heroes["elf"].status, s.heroes["elf"].position = "fallen", None
    s.heroes["wizard"].gold = 35  # found gold is kept: it stays on the hero for the campaign
    t = act(s, 2, Escape("wizard"))
    assert t.state.outcome == "retreat" and t.state.phase == "over"
    assert t.state.heroes["wizard"].gold == 35
    assert "retreated" in t.events[-1]["text"] and t.events[-1]["outcome"] == "retreat"


def test_retreat_followed_by_the_villains_fall_is_still_a_win():
    s = set_turn(start(quest()), "wizard")
    place(s, barbarian=None, dwarf=None, elf=None, wizard=(0, 0))  # the others left early
    s.villain_defeated = True
    assert act(s, 2, Escape("wizard")).state.outcome == "heroes"


def test_escape_needs_the_stairway_and_removes_the_hero():
    s = set_turn(start(quest()), "barbarian")
    place(s, barbarian=(1, 0), dwarf=(0, 0))
    s.villain_defeated = True
    with pytest.raises(IllegalAction, match="stairway"):
        act(s, 2, Escape("barbarian"))
    s = set_turn(s, "dwarf")
    t = act(s, 2, Escape("dwarf"))
    assert t.state.heroes["dwarf"].status == "escaped"
    assert t.state.heroes["dwarf"].position is None
    assert t.state.turn.hero == "elf"


def test_defeating_the_villain_does_not_end_the_quest():
    s = set_turn(place(start(quest()), barbarian=(3, 1)), "barbarian")
    t = act(s, 2, Attack("barbarian", "m1"), dice=["skull"] * 3 + ["white_shield"])
    assert t.state.villain_defeated and t.state.outcome is None
    assert any(e["type"] == "villain_defeated" for e in t.events)


def test_heroes_win_when_the_villain_is_dead_and_every_survivor_escaped():
    s = set_turn(start(quest()), "wizard")
    place(s, barbarian=None, dwarf=None, wizard=(0, 0))
    s.heroes["elf"].status, s.heroes["elf"].position = "fallen", None  # fallen need not escape
    s.villain_defeated = True
    t = act(s, 2, Escape("wizard"))
    assert t.state.outcome == "heroes"


def test_escape_is_the_main_action():
    s = set_turn(place(start(quest()), barbarian=(0, 0)), "barbarian")
    s.villain_defeated = True
    s = act(s, 2, SearchTraps("barbarian")).state
    assert Escape("barbarian") not in legal_actions(s, 2)
    with pytest.raises(IllegalAction, match="already taken an action"):
        act(s, 2, Escape("barbarian"))
