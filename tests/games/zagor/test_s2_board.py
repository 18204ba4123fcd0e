"""docs/zagor/rules.md section 2: the board as data."""

from collections import Counter, deque

from apps.games.zagor.board import board, layout


def kinds(level):
    return Counter(s.kind for s in board().level_spaces(level))


def distances(start):
    dist, queue = {start: 0}, deque([start])
    while queue:
        here = queue.popleft()
        for n in board().links[here]:
            if n not in dist:
                dist[n] = dist[here] + 1
                queue.append(n)
    return dist


def test_level_one_has_26_corridors_9_rooms_4_starts_the_store_and_the_stone_steps():
    assert kinds(1) == {"corridor": 26, "room": 9, "start": 4, "store": 1, "bridge": 1}


def test_level_two_has_16_corridors_6_rooms_the_portal_and_the_rope_bridge():
    assert kinds(2) == {"corridor": 16, "room": 6, "portal": 1, "bridge": 1}


def test_level_three_has_4_corridors_the_dragons_cave_and_skull_hall():
    assert kinds(3) == {"corridor": 4, "cave": 1, "hall": 1}


def test_links_are_symmetric_and_never_diagonal():
    b = board()
    for a, ns in b.links.items():
        for n in ns:
            assert a in b.links[n]
            sa, sn = b.spaces[a], b.spaces[n]
            if sa.level == sn.level:
                assert abs(sa.x - sn.x) + abs(sa.y - sn.y) == 1


def test_the_whole_board_is_connected_through_the_bridges():
    assert set(distances("s1")) == set(board().spaces)


def test_every_start_space_is_equally_far_from_the_stone_steps_and_the_rooms():
    steps = distances("steps")
    assert {steps[s] for s in ("s1", "s2", "s3", "s4")} == {9}
    rooms = [s.id for s in board().level_spaces(1, "room")]
    profiles = {
        tuple(sorted(distances(start)[r] for r in rooms)) for start in ("s1", "s2", "s3", "s4")
    }
    assert len(profiles) == 1


def test_rooms_open_on_corridors_only_and_the_dragons_cave_has_two_doors():
    b = board()
    for room in b.level_spaces(1, "room") + b.level_spaces(2, "room"):
        assert b.doors(room.id) and all(b.spaces[d].kind == "corridor" for d in b.doors(room.id))
        assert set(b.links[room.id]) == set(b.doors(room.id))
    assert b.links["cave"] == ("c2", "c3")


def test_skull_hall_is_reached_only_through_the_dragons_cave():
    b = board()
    assert b.links["hall"] == ("c4",)
    assert b.links["c3"] == ("c4", "cave")


def test_rooms_and_halls_carry_their_names():
    names = {s.name for s in board().spaces.values() if s.kind == "room"}
    assert len(names) == 15 and "Guard Room" in names and "Throne of Fear" in names


def test_the_layout_lists_three_levels_with_positions_and_links():
    data = layout()
    assert [lv["level"] for lv in data["levels"]] == [1, 2, 3]
    assert sum(len(lv["spaces"]) for lv in data["levels"]) == len(board().spaces)
    assert ["steps", "b2"] in data["links"] or ["b2", "steps"] in data["links"]
