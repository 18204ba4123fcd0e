"""docs/rules.md section 4: areas, line of sight and revealing."""

from dataclasses import replace

import pytest

from apps.games.heroquest.engine import (
    EndPhase,
    EndTurn,
    IllegalAction,
    MonsterMove,
    Move,
    OpenDoor,
    SearchSecretDoors,
    SearchTreasure,
    apply,
    legal_actions,
    load_quest,
    reveal,
    seat_view,
)
from apps.games.heroquest.engine.board import Board
from apps.games.heroquest.engine.geometry import geometry
from apps.games.heroquest.engine.playout import random_playout
from apps.games.heroquest.engine.reveal import sight_inputs

from .builders import ZARGON, act, build_quest, place, set_turn, start, zargon_turn

OPEN_ROOM = """
aaaaa
aaaaa
aaaaa
"""


def sees(state, a, b):
    return Board(state).sees(a, b)


def test_clear_line_across_a_room():
    s = start(build_quest(OPEN_ROOM))
    place(s, barbarian=(0, 0), dwarf=None, elf=None, wizard=None)
    assert sees(s, (0, 0), (4, 2))


def test_wall_between_rooms_blocks_sight():
    s = start(build_quest("aaaa.bbbb"))
    assert not sees(s, (0, 0), (8, 0))


def test_another_figure_blocks_sight_but_the_ends_do_not():
    q = build_quest(OPEN_ROOM, monsters=[("orc", (2, 1))])
    s = place(start(q), barbarian=(0, 1), dwarf=(4, 1), elf=None, wizard=None)
    assert not sees(s, (0, 1), (4, 1))
    assert sees(s, (0, 1), (2, 1))  # the target's own square never blocks


def test_blocked_square_blocks_sight():
    s = place(
        start(build_quest(OPEN_ROOM, blocked=[(2, 1)])),
        dwarf=None,
        elf=None,
        wizard=None,
        barbarian=(0, 0),
    )
    assert not sees(s, (0, 1), (4, 1))


def test_touching_the_corner_of_a_blocked_square_does_not_block():
    s = place(
        start(build_quest(OPEN_ROOM, blocked=[(1, 0)])),
        barbarian=(4, 2),
        dwarf=None,
        elf=None,
        wizard=None,
    )
    assert sees(s, (0, 0), (1, 1))
    assert sees(s, (0, 0), (2, 2))


def test_line_grazing_the_end_of_a_wall_is_not_blocked():
    # room b is the single square (1, 0): its walls end at the corner the line touches
    s = start(
        build_quest(
            "ab\naa",
            hero_starts={"barbarian": (0, 0), "dwarf": (0, 0), "elf": (1, 1), "wizard": (1, 1)},
        )
    )
    assert sees(s, (0, 0), (1, 1))


def test_line_through_a_corner_where_walls_cut_both_ways_is_blocked():
    s = start(
        build_quest(
            "ab\nca",
            hero_starts={"barbarian": (0, 0), "dwarf": (0, 0), "elf": (1, 1), "wizard": (1, 1)},
        )
    )
    assert not sees(s, (0, 0), (1, 1))


def test_closed_door_blocks_sight_and_open_door_lets_it_through():
    q = build_quest("aaaa.bbbb\naaaaPbbbb", doors=[((3, 1), (4, 1)), ((4, 1), (5, 1))])
    s = start(q)
    s.heroes["barbarian"].position = (3, 1)
    assert not sees(s, (3, 1), (6, 1))
    for d in s.doors.values():
        d.open = True
    assert sees(s, (3, 1), (6, 1))


def test_exact_integer_geometry_on_shallow_lines():
    geo = geometry(build_quest("aaaaaaaaaa\naaaaaaaaaa\naaaaaaaaaa"))
    none: frozenset[int] = frozenset()
    # the line (0.5,0.5)->(9.5,2.5) crosses the middle row only between x=2.75 and x=7.25
    blocker = frozenset({geo.index((5, 1))})
    assert not geo.line_of_sight((0, 0), (9, 2), none, blocker)
    assert geo.line_of_sight((0, 0), (9, 2), none, frozenset({geo.index((1, 1))}))


# --- revealing ---------------------------------------------------------------------------------
TWO_ROOMS = """
aaaa.bbbb
aaaaPbbbb
aaaa.bbbb
"""


def test_only_the_entrance_is_revealed_at_the_start():
    q = build_quest(TWO_ROOMS, doors=[((3, 1), (4, 1))], monsters=[("orc", (7, 1))])
    s = start(q)
    assert set(s.areas) == {"a"}
    view = seat_view(s, 2)
    assert {sq["area"] for sq in view["map"]["squares"]} == {s.areas["a"]}
    assert view["monsters"] == []


def test_opening_a_door_reveals_the_area_beyond_with_its_monsters():
    q = build_quest(
        TWO_ROOMS, doors=[((3, 1), (4, 1)), ((4, 1), (5, 1))], monsters=[("orc", (7, 1))]
    )
    s = set_turn(start(q), "barbarian")
    place(s, barbarian=(3, 1))
    s = act(s, 2, OpenDoor("barbarian", "d1")).state
    assert "P" in s.areas and "b" not in s.areas
    place(s, barbarian=(4, 1))
    t = act(s, 2, OpenDoor("barbarian", "d2"))
    assert "b" in t.state.areas
    assert [m["id"] for m in seat_view(t.state, 2)["monsters"]] == ["m1"]
    assert "Inside: the orc." in " ".join(e["text"] for e in t.events)


def test_an_area_in_line_of_sight_is_revealed():
    # passage P runs east from the door; passage Q continues it (a different area)
    q = build_quest("aaaa....\naaaaPPQQ", doors=[((3, 1), (4, 1))])
    s = set_turn(start(q), "barbarian")
    place(s, barbarian=(3, 1))
    s = act(s, 2, OpenDoor("barbarian", "d1")).state
    assert {"P", "Q"} <= set(s.areas)


def test_revealing_never_shows_traps_or_secret_doors():
    q = build_quest("aaaabbbb", traps=[("pit", (1, 0))], secret_doors=[((3, 0), (4, 0))])
    view = seat_view(start(q), 2)
    assert view["map"]["traps"] == [] and view["map"]["doors"] == []
    east = next(sq for sq in view["map"]["squares"] if (sq["x"], sq["y"]) == (3, 0))
    assert "E" in east["walls"]  # a hidden secret door looks like wall


def test_revealed_stays_revealed_when_the_heroes_leave():
    q = build_quest("aaaa....\naaaaPPQQ", doors=[((3, 1), (4, 1))])
    s = set_turn(start(q), "barbarian", movement=4)
    place(s, barbarian=(3, 1))
    s = act(s, 2, OpenDoor("barbarian", "d1")).state
    s = act(s, 2, Move("barbarian", (2, 1))).state
    assert {"a", "P", "Q"} <= set(s.areas)


def test_a_revealed_monster_stays_visible_wherever_it_moves():
    q = build_quest(
        "aaaaPPPPPPQQQQ",
        monsters=[("goblin", (5, 0))],
        hero_starts={h: (0, 0) for h in ("barbarian", "dwarf", "elf", "wizard")},
        doors=[((3, 0), (4, 0))],
    )
    s = start(q)
    s.doors["door1"].open = True
    s = zargon_turn(s)
    s.areas["P"] = "a2"
    s.monsters["mon1"].pub = "m1"
    s = act(s, ZARGON, MonsterMove("m1", (6, 0))).state
    place(s, barbarian=(0, 0))
    assert [m["position"] for m in seat_view(s, 2)["monsters"]] == [[6, 0]]


def test_zargon_only_activates_revealed_monsters():
    q = build_quest(TWO_ROOMS, monsters=[("orc", (1, 1)), ("orc", (7, 1))])
    s = zargon_turn(start(q))
    monsters = {getattr(a, "monster", None) for a in legal_actions(s, ZARGON)}
    assert monsters == {"m1", None}
    assert EndPhase() in legal_actions(s, ZARGON)


# A passage P along the bottom row and the left of the top row; a short passage Q (6-7, 0) and a
# room r on the top row. From (10, 1) the line to (2, 0) grazes Q's square (6, 0), although no
# square of Q can be seen centre to centre from there.
GRAZE = """
PPPPPPQQrrrr
PPPPPPPPPPPP
"""


def graze_quest(**kw):
    starts = {h: (10, 1) for h in ("barbarian", "dwarf", "elf", "wizard")}
    return build_quest(GRAZE, entrance="P", hero_starts=starts, **kw)


def test_a_sight_line_through_the_corner_of_another_area_reveals_it():
    q = graze_quest()
    assert (6, 0) in geometry(q).line_squares((10, 1), (2, 0))
    s = start(q)
    assert "Q" in s.areas and sees(s, (10, 1), (2, 0))


def test_unrevealed_monsters_never_block_sight():
    # not on the board yet: the line is clear, so the area is revealed, monster included
    s = start(graze_quest(monsters=[("orc", (6, 0))]))
    assert "Q" in s.areas and s.monsters["mon1"].pub == "m1"
    hidden = start(graze_quest())
    del hidden.areas["Q"]
    hidden.monsters["x"] = replace(s.monsters["mon1"], pub=None)
    assert sees(hidden, (10, 1), (2, 0))


def test_every_square_a_heros_sight_line_crosses_is_revealed():
    """What decides a hero's sight (walls, blocked squares, figures) is always on revealed
    squares, so the heroes can work out who they see from what they are shown."""

    def on_step(before, seat, action, transition):
        s = transition.state
        b = Board(s)
        for h in s.heroes.values():
            if not h.playing or h.position is None:
                continue
            for t in b.geo.potentially_visible(h.position):
                if b.sees(h.position, t):
                    crossed = [p for p in b.geo.line_squares(h.position, t) if p in b.geo.playable]
                    assert all(b.revealed_square(p) for p in [*crossed, t])

    for seed in range(2):
        random_playout(load_quest("ashen_vault"), 2 + seed, seed, max_actions=250, on_step=on_step)
    for q in (graze_quest(), graze_quest(monsters=[("orc", (6, 0))])):
        random_playout(q, 2, 3, max_actions=60, on_step=on_step)


def test_passage_squares_of_different_passages_are_open_to_each_other():
    # passages P and Q touch along (1, 0)-(2, 0): no wall, no door, the hero walks straight on
    q = build_quest("PPQQ", entrance="P")
    s = place(start(q), barbarian=(1, 0), dwarf=None, elf=None, wizard=None)
    s = set_turn(s, "barbarian", movement=2)
    assert "Q" in s.areas  # seen along the passage
    s = act(s, 2, Move("barbarian", (2, 0))).state
    assert s.heroes["barbarian"].position == (2, 0)


def test_revealing_an_area_shows_its_furniture_and_blocked_squares_but_not_its_traps():
    q = build_quest(
        TWO_ROOMS,
        doors=[((3, 1), (4, 1)), ((4, 1), (5, 1))],
        furniture=[("table", [(7, 0), (8, 0)])],
        blocked=[(6, 2)],
        traps=[("pit", (7, 2)), ("chest", "fur1")],
    )
    s = set_turn(start(q), "barbarian")
    before = seat_view(s, 2)["map"]
    assert before["furniture"] == [] and not [sq for sq in before["squares"] if sq["x"] >= 5]
    place(s, barbarian=(3, 1))
    s = act(s, 2, OpenDoor("barbarian", "d1")).state
    place(s, barbarian=(4, 1))
    s = act(s, 2, OpenDoor("barbarian", "d2")).state
    after = seat_view(s, 2)["map"]
    assert [sorted(map(tuple, f["squares"])) for f in after["furniture"]] == [[(7, 0), (8, 0)]]
    assert before["blocked"] == [] and after["blocked"] == [[6, 2]]
    assert after["traps"] == []


def test_an_area_is_revealed_when_a_hero_stands_in_it():
    # set-up puts the Dwarf in room b (no door, no sight line): the next action reveals it
    q = build_quest(TWO_ROOMS, monsters=[("orc", (8, 2))])
    s = set_turn(start(q), "barbarian")
    assert "b" not in s.areas
    place(s, dwarf=(7, 1))
    s = act(s, 2, EndTurn("barbarian")).state
    assert "b" in s.areas and [m["id"] for m in seat_view(s, 2)["monsters"]] == ["m1"]


def test_sight_line_through_a_pinch_point_is_blocked():
    # two blocked squares meet corner to corner at the point the line passes through
    s = place(
        start(build_quest(OPEN_ROOM, blocked=[(1, 0), (0, 1)])),
        barbarian=(4, 2),
        dwarf=None,
        elf=None,
        wizard=None,
    )
    assert not sees(s, (0, 0), (1, 1)) and not sees(s, (0, 0), (2, 2))
    # figures pinch too: two monsters corner to corner hide the square behind their corner
    q = build_quest(OPEN_ROOM, monsters=[("orc", (2, 1)), ("orc", (1, 2))])
    s = place(start(q), barbarian=(1, 1), dwarf=None, elf=None, wizard=None)
    assert not sees(s, (1, 1), (2, 2))
    # the end of a wall (room b is the single square (1, 0)) and a blocked square meeting at
    # the point block as well; the wall's end alone is only grazed
    starts = {"barbarian": (0, 0), "dwarf": (0, 0), "elf": (1, 1), "wizard": (1, 1)}
    s = start(build_quest("ab\naa", hero_starts=starts, blocked=[(0, 1)]))
    assert not sees(s, (0, 0), (1, 1))
    assert sees(start(build_quest("ab\naa", hero_starts=starts)), (0, 0), (1, 1))


# A passage P runs east from the entrance room; at its end passage Q turns south round a bend,
# and R continues Q.
BEND = """
aaPPPPPP
aa.....Q
.......Q
.......R
"""


def test_passage_seen_from_afar_is_revealed_only_as_far_as_sight_reaches():
    q = build_quest(BEND, doors=[((1, 0), (2, 0))], monsters=[("goblin", (7, 1)), ("orc", (7, 3))])
    s = set_turn(start(q), "barbarian")
    place(s, barbarian=(1, 0), dwarf=None, elf=None, wizard=None)
    s = act(s, 2, OpenDoor("barbarian", "d1")).state
    assert "P" in s.areas and "P" not in s.glimpsed  # a door into it: revealed whole
    assert "Q" not in s.areas  # round the bend
    place(s, barbarian=(6, 0))
    s = act(s, 2, EndTurn("barbarian")).state
    assert s.glimpsed["Q"] == [(7, 1)]  # only the square of Q in sight
    view = seat_view(s, 2)
    shown = {(sq["x"], sq["y"]) for sq in view["map"]["squares"]}
    assert (7, 1) in shown and (7, 2) not in shown and (7, 3) not in shown
    assert [m["id"] for m in view["monsters"]] == ["m1"]  # the goblin in sight, not the orc
    zargon = seat_view(s, ZARGON)
    flags = {(sq["x"], sq["y"]): sq["revealed"] for sq in zargon["map"]["squares"]}
    assert flags[(7, 1)] and not flags[(7, 2)]
    # standing in the passage reveals it whole; the square of R beyond comes into sight
    s.monsters["mon1"].alive, s.monsters["mon1"].position = False, None
    s = set_turn(s, "barbarian")
    place(s, barbarian=(7, 1))
    s = act(s, 2, EndTurn("barbarian")).state
    assert "Q" in s.areas and "Q" not in s.glimpsed
    assert s.glimpsed["R"] == [(7, 3)] and s.monsters["mon2"].pub == "m2"


def test_a_pit_is_searched_as_its_own_room():
    # a sprung pit in a passage: treasure may be searched for there, once per hero
    q = build_quest(
        "aaaaPPPP\naaaaPPPP\n....bbbb",
        traps=[("pit", (5, 1))],
        secret_doors=[((5, 1), (5, 2)), ((7, 1), (7, 2))],
    )
    s = start(q)
    place(s, barbarian=(5, 1), dwarf=(6, 0), elf=None, wizard=None)
    s.areas["P"] = "a2"
    s.traps["trap1"].state, s.traps["trap1"].pub, s.traps["trap1"].detected = "sprung", "t1", True
    s = set_turn(s, "dwarf")
    with pytest.raises(IllegalAction, match="inside a room"):
        act(s, 2, SearchTreasure("dwarf"))  # beside the pit, the passage is no room
    s = set_turn(s, "barbarian")
    s.deck = ["gold_25", *s.deck]
    found = act(s, 2, SearchTreasure("barbarian")).state
    assert found.heroes["barbarian"].gold == 25
    again = set_turn(found, "barbarian")
    with pytest.raises(IllegalAction, match="already searched this pit"):
        act(again, 2, SearchTreasure("barbarian"))
    # secret doors: the pit's own edges only, as a room of its own
    t = act(s, 2, SearchSecretDoors("barbarian"))
    assert [d for d, ds in t.state.doors.items() if ds.found] == ["secret1"]


def test_sight_groups_hold_every_potentially_visible_square_once_under_its_areas():
    """The reveal check asks once per group whether a group's areas are all shown: each group
    must hold exactly the targets whose sight lines cross those areas, and nothing else."""
    quest = load_quest("ashen_vault")
    geo = geometry(quest)
    for sq in sorted(geo.playable)[::7]:
        groups = geo.sight_groups(sq)
        targets = [t for _, ts in groups for t in ts]
        assert sorted(targets) == sorted(geo.potentially_visible(sq))
        assert len({areas for areas, _ in groups}) == len(groups)
        for areas, ts in groups:
            assert all(geo.seen_areas(sq, t) == areas for t in ts)


# --- the reveals brought up to date only when someone's sight changed --------------------------


def check_reveals_skipped_change_nothing(quest, seats, seed, max_actions):
    """Every action played from a state that remembers what its reveals were last worked out for
    ends exactly as the same action played from a copy that has forgotten it (and so works every
    hero's sight out again)."""

    def on_step(before, seat, action, transition):
        forgetful = before.clone()
        forgetful.reveals_done_for = None
        again = apply(forgetful, seat, action)
        assert again.state.to_json() == transition.state.to_json()
        assert again.events == transition.events

    random_playout(quest, seats, seed, max_actions=max_actions, on_step=on_step)


@pytest.mark.parametrize("seed", range(4))
def test_reveals_skipped_when_no_sight_changed_are_the_reveals_worked_out_again(seed):
    check_reveals_skipped_change_nothing(load_quest("ashen_vault"), 2 + seed % 4, seed, 300)


def test_a_hero_moved_in_place_has_its_sight_worked_out_again_on_the_next_action():
    q = build_quest(TWO_ROOMS, monsters=[("orc", (8, 2))])
    s = set_turn(start(q), "barbarian")
    s = act(s, 2, SearchTreasure("barbarian")).state  # up to date: the reveals remembered
    assert s.reveals_done_for == sight_inputs(s)
    place(s, dwarf=(7, 1))  # set-up: into room b, unseen until worked out again
    s = act(s, 2, EndTurn("barbarian")).state
    assert "b" in s.areas and s.reveals_done_for == sight_inputs(s)


def test_an_action_that_changes_no_ones_sight_works_out_no_reveals(monkeypatch):
    s = set_turn(start(build_quest(TWO_ROOMS)), "barbarian")
    worked_out: list[None] = []
    real = reveal._reveal_what_the_heroes_see
    monkeypatch.setattr(
        reveal, "_reveal_what_the_heroes_see", lambda ctx: worked_out.append(real(ctx))
    )
    act(s, 2, SearchTreasure("barbarian"))
    assert worked_out == []
    s.reveals_done_for = None  # as a state read back from its text
    act(s, 2, SearchTreasure("barbarian"))
    assert len(worked_out) == 1
