"""Issue 21's rules decisions (docs/rules.md 10 and 8): under the UK edition no weapon attacks
from a distance (the crossbow does not shoot, a weapon is thrown only at an adjacent monster);
and Pass Through Rock never takes a hero through a locked door."""

from dataclasses import replace

import pytest

from apps.games.heroquest.engine import (
    Attack,
    IllegalAction,
    Move,
    Throw,
    legal_actions,
    load_quest,
)

from .builders import act, build_quest, place, set_turn, start
from .test_s5_combat import duel, thrower


def test_uk_a_crossbow_does_not_shoot_a_monster_that_is_not_adjacent():
    s = duel("orc", monster_at=(5, 1), heroes={"barbarian": {"items": ["crossbow"]}}, edition="uk")
    assert Attack("barbarian", "m1") not in legal_actions(s, 2)
    with pytest.raises(IllegalAction, match="out of reach"):
        act(s, 2, Attack("barbarian", "m1"))


def test_us_the_crossbow_still_shoots_at_range():
    s = duel("orc", monster_at=(5, 1), heroes={"barbarian": {"items": ["crossbow"]}})
    assert Attack("barbarian", "m1") in legal_actions(s, 2)


def test_uk_a_weapon_is_thrown_only_at_an_adjacent_monster():
    far = thrower(edition="uk")  # the orc stands five squares away, in sight
    assert not [a for a in legal_actions(far, 2) if isinstance(a, Throw)]
    with pytest.raises(IllegalAction, match="only at a monster in an adjacent square"):
        act(far, 2, Throw("wizard", "dagger", "m1"))
    near = thrower(edition="uk", monster_at=(1, 1))
    assert Throw("wizard", "dagger", "m1") in legal_actions(near, 2)


# --- Pass Through Rock and a locked room (docs/rules.md 8) ---------------------------------------
TWO_ROOMS = """
aaabbb
aaabbb
"""


def rock_walker(locked: bool):
    q = build_quest(TWO_ROOMS, doors=[((2, 0), (3, 0))])
    if locked:
        q = replace(q, doors=tuple(replace(d, locked_by="Ember Key") for d in q.doors))
    s = start(q)
    place(s, barbarian=(2, 1), dwarf=None, elf=None, wizard=None)
    s.heroes["barbarian"].effects.append("pass_through_rock")
    return set_turn(s, "barbarian", movement=6)


def test_pass_through_rock_does_not_pass_the_walls_or_the_door_of_a_locked_room():
    s = rock_walker(locked=True)
    assert Move("barbarian", (3, 1)) in legal_actions(s, 2)  # listed: nothing hidden shows
    t = act(s, 2, Move("barbarian", (3, 1)))
    assert t.state.heroes["barbarian"].position == (2, 1)
    assert t.events[-1]["reason"] == "sealed"
    assert "opens only to its key" in t.events[-1]["text"]
    place(t.state, barbarian=(2, 0))
    t = act(t.state, 2, Move("barbarian", (3, 0)))  # through the locked door itself
    assert t.state.heroes["barbarian"].position == (2, 0)


def test_pass_through_rock_passes_the_walls_of_a_room_that_is_not_locked():
    t = act(rock_walker(locked=False), 2, Move("barbarian", (3, 1)))
    assert t.state.heroes["barbarian"].position == (3, 1)


def test_the_sealed_forge_opens_only_to_the_ember_key():
    forge = load_quest("sealed_forge")
    [door] = [d for d in forge.doors if d.locked_by]
    assert door.locked_by == "Ember Key"
    assert any(forge.areas[forge.square_area[sq]].kind == "room" for sq in (door.a, door.b))
