"""docs/zagor/rules.md section 5: moving."""

import pytest

from apps.games.port import Refusal, RefusalKind

from .builders import a, act, clear_tiles, game, lay, legal, put, turn_to


def dests(s, hero="barbarian"):
    return {x["to"] for x in legal(s, hero) if x["type"] == "move"}


def solo():
    return clear_tiles(turn_to(game(), "barbarian"))


def test_a_hero_moves_up_to_two_spaces():
    assert dests(solo()) == {"a1", "a2", "a5", "a7"}


def test_elven_boots_move_three_spaces():
    s = solo()
    s.heroes["barbarian"].items = ["Elven Boots"]
    assert dests(s) == {"a1", "a2", "a5", "a7", "r11", "a10"}


def test_elven_boots_do_not_work_in_the_crypt():
    s = put(solo(), "barbarian", "c1")
    s.heroes["barbarian"].items = ["Elven Boots"]
    assert dests(s) == {"rope_bridge", "c2", "portal", "cave"}


def test_hero_cannot_retrace_a_space_in_one_move():
    s = put(solo(), "barbarian", "a1")  # one step back to s1 then out again would be a retrace
    assert "a1" not in dests(s)


def test_a_hero_may_pass_over_a_hero_but_not_land_on_one():
    s = clear_tiles(turn_to(game(heroes=2), "barbarian"))
    put(s, "dwarf", "a1")
    assert "a1" not in dests(s) and "a2" in dests(s)


def test_a_room_entry_costs_one_space_and_ends_the_move():
    s = put(solo(), "barbarian", "a1")
    assert "r11" in dests(s)  # a1 -> a2 -> the Guard Room
    s.heroes["barbarian"].items = ["Elven Boots"]
    assert "r11" in dests(s) and "r12" not in dests(s)  # a room is never passed through


def test_nobody_enters_a_room_another_hero_stands_in():
    s = clear_tiles(turn_to(game(heroes=2), "barbarian"))
    put(s, "barbarian", "a2")
    put(s, "dwarf", "r11")
    assert "r11" not in dests(s)


def test_a_level_change_is_one_step():
    s = put(solo(), "barbarian", "a19")
    assert {"steps", "b2"} <= dests(s)


def test_a_hero_moves_once_a_turn():
    s = solo()
    s = act(s, a("move", to="a5")).state
    assert dests(s) == set()


def test_no_move_after_a_fight():
    s = put(solo(), "barbarian", "a2")
    s.turn.fought = True
    assert dests(s) == set()
    with pytest.raises(Refusal) as err:
        act(s, a("move", to="a1"))
    assert err.value.kind == RefusalKind.ILLEGAL and "after a fight" in err.value.reason


def test_ending_a_move_on_a_tile_reveals_it_and_passing_over_does_not():
    s = solo()
    lay(s, "a1", "Giant Rats")
    lay(s, "a5", "Leather Pouch")
    s = act(s, a("move", to="a5")).state
    assert s.tiles["a1"].revealed is False and "a5" not in s.tiles
    assert s.heroes["barbarian"].gold == 23


def test_face_up_secret_passages_link_as_one_step():
    s = put(solo(), "barbarian", "a1")
    lay(s, "a1", "Secret Passage", revealed=True)
    lay(s, "a26", "Secret Passage", revealed=True)
    assert "a26" in dests(s)


def test_one_secret_passage_alone_leads_nowhere():
    s = put(solo(), "barbarian", "a1")
    lay(s, "a1", "Secret Passage", revealed=True)
    lay(s, "a26", "Secret Passage")
    assert "a26" not in dests(s)


def test_passing_a_guarded_rooms_door_counts_a_room_avoided():
    s = put(solo(), "barbarian", "a10")
    s = act(s, a("move", to="a12")).state  # a12 is the door of two guarded rooms
    assert s.heroes["barbarian"].rooms_avoided == 2


def test_a_path_passing_fewest_doors_is_taken():
    s = put(solo(), "barbarian", "b2")  # b2 -> b1 -> b4 passes a door, b2 -> b5 -> b4 none
    s = act(s, a("move", to="b4")).state
    assert s.heroes["barbarian"].rooms_avoided == 0


def test_the_stone_steps_lead_nowhere_in_the_orb_tale():
    s = put(clear_tiles(turn_to(game("enchanted_orb"), "barbarian")), "barbarian", "a19")
    assert "b2" not in dests(s)
