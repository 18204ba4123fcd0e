"""docs/rules.md section 7: traps."""

from dataclasses import replace

import pytest

from apps.games.heroquest.engine import (
    Disarm,
    EndTurn,
    IllegalAction,
    Jump,
    LeaveBlock,
    Move,
    SearchTraps,
    SearchTreasure,
    legal_actions,
)

from .builders import act, build_quest, place, set_turn, start

CORRIDOR = """
AAAAAAA
AAAAAAA
"""


def walker(traps, hero="barbarian", movement=6, at=(0, 0), **options):
    s = start(build_quest(CORRIDOR, traps=traps, entrance="A"), **options)
    others = {h: None for h in ("barbarian", "dwarf", "elf", "wizard") if h != hero}
    place(s, **{hero: at, **others})
    return set_turn(s, hero, movement=movement)


def test_entering_a_pit_costs_one_body_ends_movement_and_leaves_the_hero_in_it():
    s = walker([("pit", (1, 0))])
    t = act(s, 2, Move("barbarian", (1, 0)))
    b = t.state.heroes["barbarian"]
    assert (b.position, b.body, t.state.turn.movement_left) == ((1, 0), 7, 0)
    assert t.state.traps["trap1"].state == "sprung" and t.state.traps["trap1"].pub == "t1"
    assert t.state.turn.hero == "barbarian"  # only the movement ends


def test_falling_block_rolls_three_dice_and_blocks_the_square_for_good():
    s = walker([("falling_block", (1, 0))])
    t = act(s, 2, Move("barbarian", (1, 0)), dice=["skull", "skull", "white_shield"])
    assert t.state.heroes["barbarian"].body == 6
    assert t.state.fallen_blocks == [(1, 0)] and t.state.turn.movement_left == 0


def test_falling_block_hero_chooses_to_step_ahead_or_back():
    s = walker([("falling_block", (1, 0))])
    s = act(s, 2, Move("barbarian", (1, 0)), dice=["white_shield"] * 3).state
    # the choice is pending: nothing else may be done first (a potion excepted)
    assert set(legal_actions(s, 2)) == {
        LeaveBlock("barbarian", (0, 0)),  # back where the hero came from
        LeaveBlock("barbarian", (2, 0)),  # ahead, beyond the block
    }
    with pytest.raises(IllegalAction, match="step ahead or back"):
        act(s, 2, SearchTraps("barbarian"))
    ended = act(s, 2, EndTurn("barbarian")).state  # a turn ended (or timed out) steps back
    assert ended.heroes["barbarian"].position == (0, 0) and ended.round == 2
    ahead = act(s, 2, LeaveBlock("barbarian", (2, 0))).state
    assert ahead.heroes["barbarian"].position == (2, 0) and ahead.turn.block_from is None
    assert SearchTraps("barbarian") in legal_actions(ahead, 2)  # the action is still free
    back = act(s, 2, LeaveBlock("barbarian", (0, 0))).state
    assert back.heroes["barbarian"].position == (0, 0)
    with pytest.raises(IllegalAction, match="ahead past the block or back"):
        act(s, 2, LeaveBlock("barbarian", (1, 1)))


def test_falling_block_ahead_is_offered_only_when_the_square_beyond_is_free():
    s = walker([("falling_block", (1, 0))])
    place(s, dwarf=(2, 0))
    s.heroes["dwarf"].status = "playing"
    s = act(s, 2, Move("barbarian", (1, 0)), dice=["white_shield"] * 3).state
    assert legal_actions(s, 2) == [LeaveBlock("barbarian", (0, 0))]


def test_spear_trap_hits_on_a_skull_and_is_then_gone():
    s = walker([("spear", (1, 0))])
    t = act(s, 2, Move("barbarian", (1, 0)), dice=["skull"])
    assert t.state.heroes["barbarian"].body == 7 and t.state.turn.movement_left == 0
    s = set_turn(t.state, "barbarian", movement=3)
    place(s, barbarian=(0, 0))
    assert act(s, 2, Move("barbarian", (1, 0))).state.heroes["barbarian"].body == 7


def test_dwarf_disarms_unless_rolling_a_black_shield():
    s = walker([("spear", (1, 0))], hero="dwarf")
    s.traps["trap1"].detected, s.traps["trap1"].pub = True, "t1"
    ok = act(s, 2, Disarm("dwarf", "t1"), dice=["skull"]).state
    assert ok.traps["trap1"].state == "disarmed"
    bad = act(s, 2, Disarm("dwarf", "t1"), dice=["black_shield", "skull"])
    assert bad.state.traps["trap1"].state == "sprung"
    assert bad.state.heroes["dwarf"].position == (0, 0)  # stays on their square
    assert bad.state.heroes["dwarf"].body == 6


def test_other_heroes_need_a_tool_kit_and_fail_on_a_skull():
    s = walker([("spear", (1, 0))])
    s.traps["trap1"].detected, s.traps["trap1"].pub = True, "t1"
    with pytest.raises(IllegalAction, match="tool kit"):
        act(s, 2, Disarm("barbarian", "t1"))
    s.heroes["barbarian"].tool_kit = True
    assert (
        act(s, 2, Disarm("barbarian", "t1"), dice=["black_shield"]).state.traps["trap1"].state
        == "disarmed"
    )
    assert (
        act(s, 2, Disarm("barbarian", "t1"), dice=["skull", "white_shield"])
        .state.traps["trap1"]
        .state
        == "sprung"
    )


def test_undetected_traps_cannot_be_disarmed_or_jumped():
    s = walker([("pit", (1, 0))], hero="dwarf")
    assert not [a for a in legal_actions(s, 2) if isinstance(a, Disarm | Jump)]


def test_jumping_a_detected_trap_spends_two_movement_on_anything_but_a_skull():
    s = walker([("pit", (1, 0))])
    s.traps["trap1"].detected, s.traps["trap1"].pub = True, "t1"
    jumps = {a.to for a in legal_actions(s, 2) if isinstance(a, Jump)}
    assert jumps == {(2, 0), (1, 1)}  # straight on or to the side of the trap square
    t = act(s, 2, Jump("barbarian", "t1", (2, 0)), dice=["white_shield"])
    assert t.state.heroes["barbarian"].position == (2, 0) and t.state.turn.movement_left == 4
    assert t.state.traps["trap1"].state == "armed"


def test_a_skull_springs_the_trap_on_the_jumper_who_ends_on_it():
    s = walker([("pit", (1, 0))])
    s.traps["trap1"].detected, s.traps["trap1"].pub = True, "t1"
    t = act(s, 2, Jump("barbarian", "t1", (2, 0)), dice=["skull"])
    b = t.state.heroes["barbarian"]
    assert (b.position, b.body, t.state.turn.movement_left) == ((1, 0), 7, 0)


def test_jumping_needs_two_movement_left():
    s = walker([("pit", (1, 0))], movement=1)
    s.traps["trap1"].detected, s.traps["trap1"].pub = True, "t1"
    with pytest.raises(IllegalAction, match="2 movement"):
        act(s, 2, Jump("barbarian", "t1", (2, 0)))


def test_an_open_pit_can_be_jumped_but_a_fallen_block_cannot():
    s = walker([("pit", (1, 0)), ("falling_block", (0, 1))])
    for trap, pub in (("trap1", "t1"), ("trap2", "t2")):
        s.traps[trap].state, s.traps[trap].detected, s.traps[trap].pub = "sprung", True, pub
    s.fallen_blocks.append((0, 1))
    trapped = {a.trap for a in legal_actions(s, 2) if isinstance(a, Jump)}
    assert trapped == {"t1"}


def test_an_open_pit_stays_open_and_a_hero_entering_it_loses_one_body():
    s = walker([("pit", (1, 0))])
    s = act(s, 2, Move("barbarian", (1, 0))).state
    assert s.traps["trap1"].state == "sprung"
    s = set_turn(s, "barbarian", movement=3)
    place(s, barbarian=(0, 0))
    t = act(s, 2, Move("barbarian", (1, 0)))
    assert t.state.heroes["barbarian"].body == 6 and t.state.turn.movement_left == 0
    assert t.state.traps["trap1"].state == "sprung"


def test_disarming_needs_the_trap_on_an_adjacent_square():
    s = walker([("spear", (3, 0))], hero="dwarf")
    s.traps["trap1"].detected, s.traps["trap1"].pub = True, "t1"
    assert Disarm("dwarf", "t1") not in legal_actions(s, 2)
    with pytest.raises(IllegalAction, match="next to the hero"):
        act(s, 2, Disarm("dwarf", "t1"))
    place(s, dwarf=(2, 0))
    assert Disarm("dwarf", "t1") in legal_actions(s, 2)


ROOM = """
aaaa
aaaa
"""


def chest_room(damage=1):
    q = build_quest(ROOM, furniture=[("chest", [(3, 0)])], traps=[("chest", "fur1")])
    if damage != 1:
        q = replace(q, traps=(replace(q.traps[0], damage=damage),))
    s = start(q)
    place(s, dwarf=(0, 1), barbarian=None, elf=None, wizard=None)
    return set_turn(s, "dwarf")


def test_a_chest_trap_is_disarmed_from_a_square_next_to_its_furniture():
    s = chest_room()
    s.traps["trap1"].detected, s.traps["trap1"].pub = True, "t1"
    with pytest.raises(IllegalAction, match="next to the hero"):
        act(s, 2, Disarm("dwarf", "t1"))
    place(s, dwarf=(2, 0))
    t = act(s, 2, Disarm("dwarf", "t1"), dice=["skull"])
    assert t.state.traps["trap1"].state == "disarmed"


def test_a_chest_trap_deals_the_quests_damage_is_then_gone_and_ends_the_turn():
    s = chest_room(damage=3)
    t = act(s, 2, SearchTreasure("dwarf"))
    assert t.state.heroes["dwarf"].body == 4
    assert t.state.traps["trap1"].state == "sprung"
    assert t.state.round == 2  # the Dwarf plays alone: the turn ended, a new round began
