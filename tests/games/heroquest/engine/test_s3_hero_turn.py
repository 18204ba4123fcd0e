"""docs/rules.md section 3: a hero's turn (movement, doors, one main action, potions, end turn)."""

from dataclasses import replace

import pytest

from apps.games.heroquest.engine import (
    Attack,
    DrinkPotion,
    EndTurn,
    Give,
    IllegalAction,
    Move,
    OpenDoor,
    RollMovement,
    SearchTraps,
    event_for_seat,
    legal_actions,
)

from .builders import act, build_quest, place, set_turn, start, zargon_turn

ROOMS = """
aaaa.bbbb
aaaa.bbbb
aaaa.bbbb
"""
# two rooms a (x 0-3) and b (x 5-8) joined by a short passage P through the rock at (4, 1)
LINKED = """
aaaaPbbbb
aaaaPbbbb
"""


def solo(quest, **positions):
    """Only the Barbarian on the board (others escaped), at the given squares."""
    s = start(quest)
    place(s, dwarf=None, elf=None, wizard=None, **positions)
    return set_turn(s, "barbarian")


def test_movement_roll_is_two_red_dice():
    s = solo(build_quest(ROOMS))
    t = act(s, 2, RollMovement("barbarian"), dice=[3, 5])
    assert t.state.turn.movement_left == 8
    assert t.events[0]["dice"] == [{"kind": "red", "values": [3, 5], "who": "barbarian"}]


def test_plate_mail_rolls_one_movement_die():
    s = start(build_quest(ROOMS), heroes={"barbarian": {"armour": ["plate_mail"]}})
    assert act(s, 2, RollMovement("barbarian"), dice=[4]).state.turn.movement_left == 4


def test_swift_wind_rolls_four_movement_dice_once():
    s = solo(build_quest(ROOMS))
    s.heroes["barbarian"].effects.append("swift_wind")
    t = act(s, 2, RollMovement("barbarian"), dice=[1, 2, 3, 4])
    assert t.state.turn.movement_left == 10
    assert "swift_wind" not in t.state.heroes["barbarian"].effects


def test_hero_must_roll_before_moving_and_only_once():
    s = solo(build_quest(ROOMS), barbarian=(0, 0))
    with pytest.raises(IllegalAction, match="Roll for movement"):
        act(s, 2, Move("barbarian", (1, 0)))
    s = act(s, 2, RollMovement("barbarian"), dice=[1, 1]).state
    with pytest.raises(IllegalAction, match="already been rolled"):
        act(s, 2, RollMovement("barbarian"))


def test_hero_moves_one_orthogonal_square_per_point():
    s = set_turn(solo(build_quest(ROOMS), barbarian=(0, 0)), "barbarian", movement=2)
    s = act(s, 2, Move("barbarian", (1, 0))).state
    assert s.heroes["barbarian"].position == (1, 0) and s.turn.movement_left == 1
    s = act(s, 2, Move("barbarian", (1, 1))).state
    with pytest.raises(IllegalAction, match="movement"):
        act(s, 2, Move("barbarian", (2, 1)))


def test_hero_cannot_move_diagonally():
    s = set_turn(solo(build_quest(ROOMS), barbarian=(0, 0)), "barbarian", movement=5)
    with pytest.raises(IllegalAction, match="never diagonally"):
        act(s, 2, Move("barbarian", (1, 1)))


def test_hero_cannot_enter_a_square_holding_another_hero_or_monster():
    q = build_quest(ROOMS, monsters=[("orc", (2, 0))])
    s = set_turn(start(q), "barbarian", movement=5)
    place(s, barbarian=(1, 0), dwarf=(1, 1), elf=(3, 2), wizard=(0, 2))
    with pytest.raises(IllegalAction, match="Another figure"):
        act(s, 2, Move("barbarian", (1, 1)))
    with pytest.raises(IllegalAction, match="Another figure"):
        act(s, 2, Move("barbarian", (2, 0)))


def test_walls_block_movement():
    s = set_turn(
        solo(build_quest(LINKED, doors=[((3, 0), (4, 0))]), barbarian=(3, 1)),
        "barbarian",
        movement=5,
    )
    with pytest.raises(IllegalAction, match="wall"):
        act(s, 2, Move("barbarian", (4, 1)))


def test_closed_door_blocks_until_opened_and_opening_is_free():
    q = build_quest(LINKED, doors=[((3, 0), (4, 0))])
    s = set_turn(solo(q, barbarian=(3, 0)), "barbarian", movement=3)
    with pytest.raises(IllegalAction, match="closed door"):
        act(s, 2, Move("barbarian", (4, 0)))
    door = legal_actions(s, 2)
    assert OpenDoor("barbarian", "d1") in door
    s = act(s, 2, OpenDoor("barbarian", "d1")).state
    assert s.turn.movement_left == 3 and not s.turn.has_acted
    s = act(s, 2, Move("barbarian", (4, 0))).state
    assert s.heroes["barbarian"].position == (4, 0)


def test_hero_must_be_next_to_a_door_to_open_it():
    q = build_quest(LINKED, doors=[((3, 0), (4, 0))])
    s = solo(q, barbarian=(1, 0))
    with pytest.raises(IllegalAction, match="next to the door"):
        act(s, 2, OpenDoor("barbarian", "d1"))


def test_blocked_squares_and_furniture_block_movement():
    q = build_quest(ROOMS, blocked=[(1, 0)], furniture=[("table", [(0, 1)])])
    s = set_turn(solo(q, barbarian=(0, 0)), "barbarian", movement=5)
    for to in ((1, 0), (0, 1)):
        with pytest.raises(IllegalAction, match="blocked"):
            act(s, 2, Move("barbarian", to))


def test_hero_may_act_before_moving_and_then_move():
    s = set_turn(solo(build_quest(ROOMS), barbarian=(0, 0)), "barbarian")
    s = act(s, 2, SearchTraps("barbarian")).state
    s = act(s, 2, RollMovement("barbarian"), dice=[2, 2]).state
    s = act(s, 2, Move("barbarian", (1, 0))).state
    assert s.turn.movement_left == 3


def test_hero_cannot_move_after_attacking_when_already_moved():
    q = build_quest(ROOMS, monsters=[("orc", (2, 0))])
    s = set_turn(start(q), "barbarian", movement=6)
    place(s, barbarian=(0, 0), dwarf=(0, 2), elf=(1, 2), wizard=(2, 2))
    s = act(s, 2, Move("barbarian", (1, 0))).state
    s = act(s, 2, Attack("barbarian", "m1"), dice=["white_shield"] * 5).state
    assert s.turn.movement_left == 0
    with pytest.raises(IllegalAction, match="movement"):
        act(s, 2, Move("barbarian", (1, 1)))


def test_hero_takes_only_one_main_action_per_turn():
    s = solo(build_quest(ROOMS), barbarian=(0, 0))
    s = act(s, 2, SearchTraps("barbarian")).state
    with pytest.raises(IllegalAction, match="already taken an action"):
        act(s, 2, SearchTraps("barbarian"))


def test_drinking_a_potion_is_free_and_heals_one_die():
    s = solo(build_quest(ROOMS), barbarian=(0, 0))
    b = s.heroes["barbarian"]
    b.potions, b.body = 1, 2
    s = act(s, 2, DrinkPotion("barbarian"), dice=[4]).state
    assert s.heroes["barbarian"].body == 6 and s.heroes["barbarian"].potions == 0
    assert not s.turn.has_acted
    with pytest.raises(IllegalAction, match="no healing potion"):
        act(s, 2, DrinkPotion("barbarian"))


def test_potion_never_heals_above_starting_body():
    s = solo(build_quest(ROOMS), barbarian=(0, 0))
    s.heroes["barbarian"].potions, s.heroes["barbarian"].body = 1, 7
    assert act(s, 2, DrinkPotion("barbarian"), dice=[6]).state.heroes["barbarian"].body == 8


def test_ending_the_turn_loses_unused_movement_and_passes_on():
    s = start(build_quest(ROOMS))
    s = act(s, 2, RollMovement("barbarian"), dice=[6, 6]).state
    s = act(s, 2, EndTurn("barbarian")).state
    assert s.turn.hero == "dwarf" and s.turn.movement_left == 0 and not s.turn.movement_rolled


def test_legal_actions_all_apply_cleanly_and_list_only_legal_moves():
    s = set_turn(solo(build_quest(ROOMS), barbarian=(0, 0)), "barbarian", movement=3)
    moves = {a.to for a in legal_actions(s, 2) if isinstance(a, Move)}
    assert moves == {(1, 0), (0, 1)}
    for a in legal_actions(s, 2):
        act(s, 2, a, dice=None)


def test_potion_drunk_at_any_time_also_outside_the_heros_turn():
    s = set_turn(start(build_quest(ROOMS), seats=3), "barbarian")
    place(s, barbarian=(0, 0), dwarf=(1, 0), elf=(2, 0), wizard=(3, 0))
    s.heroes["elf"].potions, s.heroes["elf"].body = 1, 3
    s.heroes["dwarf"].potions, s.heroes["dwarf"].body = 1, 3
    # seat 3 (Elf, Wizard) while the Barbarian moves; seat 2's Dwarf while it waits its turn
    assert legal_actions(s, 3) == [DrinkPotion("elf")]
    assert DrinkPotion("dwarf") in legal_actions(s, 2)
    s = act(s, 3, DrinkPotion("elf"), dice=[2]).state
    assert s.heroes["elf"].body == 5 and s.turn.hero == "barbarian"
    s = zargon_turn(s)
    assert act(s, 2, DrinkPotion("dwarf"), dice=[1]).state.heroes["dwarf"].body == 4
    with pytest.raises(IllegalAction, match="no healing potion"):
        act(s, 3, DrinkPotion("elf"))


def test_potion_gold_and_artifacts_given_on_the_givers_own_turn_only():
    s = set_turn(start(build_quest(ROOMS), seats=5), "barbarian")
    place(s, barbarian=(0, 0), dwarf=(1, 0), elf=(2, 0), wizard=(3, 0))
    b = s.heroes["barbarian"]
    b.potions, b.gold, b.artifacts = 2, 40, ["Ember Crown"]
    listed = [a for a in legal_actions(s, 2) if isinstance(a, Give) and a.recipient == "elf"]
    assert listed == [
        Give("barbarian", "elf", "potion", 1),
        Give("barbarian", "elf", "gold", 40),
        Give("barbarian", "elf", "Ember Crown", 1),
    ]
    t = act(s, 2, Give("barbarian", "elf", "gold", 15))
    s = act(t.state, 2, Give("barbarian", "elf", "Ember Crown", 1)).state
    s = act(s, 2, Give("barbarian", "elf", "potion", 1)).state
    e = s.heroes["elf"]
    assert (e.gold, e.artifacts, e.potions) == (15, ["Ember Crown"], 1)
    assert (s.heroes["barbarian"].gold, s.turn.has_acted) == (25, False)  # free
    # private: the giver's and the taker's seats see what changed hands, the others only that
    # something did
    seen_by_elf, seen_by_dwarf = event_for_seat(t.events[0], 4), event_for_seat(t.events[0], 3)
    assert seen_by_elf is not None and "15 gold" in seen_by_elf["text"]
    assert seen_by_dwarf is not None and "something" in seen_by_dwarf["text"]
    with pytest.raises(IllegalAction, match="does not have that many"):
        act(s, 2, Give("barbarian", "dwarf", "gold", 26))
    with pytest.raises(IllegalAction, match="not the Elf's turn"):
        act(s, 4, Give("elf", "barbarian", "potion", 1))


def test_an_opened_door_never_closes():
    q = build_quest(LINKED, doors=[((3, 0), (4, 0))])
    s = set_turn(solo(q, barbarian=(3, 0)), "barbarian", movement=4)
    s = act(s, 2, OpenDoor("barbarian", "d1")).state
    s = act(s, 2, Move("barbarian", (4, 0))).state
    s = act(s, 2, Move("barbarian", (4, 1))).state
    s = act(s, 2, EndTurn("barbarian")).state
    assert s.doors["door1"].open
    assert {type(a).__name__ for a in legal_actions(set_turn(s, "barbarian"), 2)} >= {"EndTurn"}
    assert not [a for a in legal_actions(set_turn(s, "barbarian"), 2) if isinstance(a, OpenDoor)]


# --- heroes passing heroes (room option) --------------------------------------------------------
def test_heroes_passing_heroes_a_hero_moves_through_another_hero_never_stopping_on_him():
    q = build_quest("aaaaaa\naaaaaa")
    s = start(q, heroes_pass_heroes=True)
    place(s, barbarian=(0, 0), dwarf=(1, 0), elf=(2, 0), wizard=None)
    s = set_turn(s, "barbarian", movement=5)
    assert Move("barbarian", (3, 0)) in legal_actions(s, 2)  # past the Dwarf and the Elf
    with pytest.raises(IllegalAction, match="not stop on"):
        act(s, 2, Move("barbarian", (1, 0)))
    t = act(s, 2, Move("barbarian", (3, 0)))
    assert t.state.heroes["barbarian"].position == (3, 0) and t.state.turn.movement_left == 2
    # without the option a hero in the way blocks
    s = set_turn(
        place(start(q), barbarian=(0, 0), dwarf=(1, 0), elf=(2, 0), wizard=None),
        "barbarian",
        movement=5,
    )
    assert Move("barbarian", (3, 0)) not in legal_actions(s, 2)
    with pytest.raises(IllegalAction, match="one square at a time"):
        act(s, 2, Move("barbarian", (3, 0)))


def test_a_locked_door_opens_only_to_a_hero_carrying_its_key():
    q = build_quest(LINKED, doors=[((3, 0), (4, 0))])
    q = replace(q, doors=(replace(q.doors[0], locked_by="Ember Key"),))
    s = solo(q, barbarian=(3, 0))
    with pytest.raises(IllegalAction, match="locked: it opens only to the Ember Key"):
        act(s, 2, OpenDoor("barbarian", "d1"))
    assert OpenDoor("barbarian", "d1") not in legal_actions(s, 2)
    s.heroes["barbarian"].artifacts = ["Ember Key"]
    assert act(s, 2, OpenDoor("barbarian", "d1")).state.doors["door1"].open
