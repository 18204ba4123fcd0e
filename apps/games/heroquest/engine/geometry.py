"""Per-quest map geometry, computed once per `Quest` object: walls, door edges, neighbours and
line of sight (docs/rules.md 4).

Squares are `(x, y)`; internally an edge between two orthogonal neighbours has an int id so the
line-of-sight walk only does set lookups on ints.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator

from .quest import Quest, Square

DIRECTIONS: dict[str, tuple[int, int]] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
ORTHOGONAL = tuple(DIRECTIONS.values())
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def step(sq: Square, d: tuple[int, int]) -> Square:
    return (sq[0] + d[0], sq[1] + d[1])


def is_orthogonal_neighbour(a: Square, b: Square) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def is_diagonal_neighbour(a: Square, b: Square) -> bool:
    return abs(a[0] - b[0]) == 1 and abs(a[1] - b[1]) == 1


# A square as a seat view shows it (Geometry.area_square_rows).
SquareRow = tuple[Square, int, int, str, list[tuple[str, str]] | None]


class Geometry:
    """Everything about the map that never changes during a quest."""

    def __init__(self, quest: Quest) -> None:
        self.quest = quest
        self.width = quest.width
        self.height = quest.height
        self.area_of: dict[Square, str] = dict(quest.square_area)
        self.playable = frozenset(self.area_of)
        self.blocked = frozenset(quest.blocked)
        self.door_edge: dict[int, str] = {}
        self.edge_of_door: dict[str, int] = {}
        self.doors = {d.id: d for d in quest.doors}
        for door in quest.doors:
            e = self.edge(door.a, door.b)
            self.door_edge[e] = door.id
            self.edge_of_door[door.id] = e
        self.walls = self._compute_walls()
        self.blockable = frozenset(self.walls | set(self.door_edge))
        # squares that always block sight: off the playable map or blocked
        self.static_sight_block = frozenset(
            self.index(sq) for sq in self.all_squares() if sq not in self.playable
        ) | frozenset(self.index(sq) for sq in self.blocked)
        self.furniture_at: dict[Square, str] = {
            sq: f.id for f in quest.furniture for sq in f.squares
        }
        self.furniture = {f.id: f for f in quest.furniture}
        self.area_squares: dict[str, list[Square]] = {a: [] for a in quest.areas}
        for sq, area in sorted(self.area_of.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            self.area_squares[area].append(sq)
        self.area_doors: dict[str, list[str]] = {a: [] for a in quest.areas}
        for door in quest.doors:
            for sq in (door.a, door.b):
                side = self.area_of.get(sq)
                if side is not None and door.id not in self.area_doors[side]:
                    self.area_doors[side].append(door.id)
        self.furniture_area: dict[str, str] = {
            f.id: self.area_of[f.squares[0]] for f in quest.furniture if f.squares
        }
        self.area_furniture: dict[str, list[str]] = {a: [] for a in quest.areas}
        for fid, area in self.furniture_area.items():
            self.area_furniture[area].append(fid)
        self.traps = {t.id: t for t in quest.traps}
        self.trap_at: dict[Square, str] = {t.square: t.id for t in quest.traps if t.square}
        self.area_traps: dict[str, list[str]] = {a: [] for a in quest.areas}
        for t in quest.traps:
            trap_area = self.trap_area(t.id)
            if trap_area is not None:
                self.area_traps[trap_area].append(t.id)
        self.area_monsters: dict[str, list[str]] = {a: [] for a in quest.areas}
        for m in quest.monsters:
            self.area_monsters[self.area_of[m.square]].append(m.id)
        self.wall_sides: dict[Square, str] = {sq: self._wall_sides(sq) for sq in self.playable}
        self.secret_sides: dict[Square, list[tuple[str, str]]] = {}  # square -> (side, door)
        for door in quest.doors:
            if door.secret:
                self.secret_sides.setdefault(door.a, []).append(
                    (self.side_of(door.a, door.b), door.id)
                )
                self.secret_sides.setdefault(door.b, []).append(
                    (self.side_of(door.b, door.a), door.id)
                )
        # What a seat view shows of each square, by area, in `area_squares`' order: the square,
        # x, y, its walls, and its secret doors' sides (side, door), if any.
        self.area_square_rows: dict[str, list[SquareRow]] = {
            area: [
                (sq, sq[0], sq[1], self.wall_sides[sq], self.secret_sides.get(sq)) for sq in squares
            ]
            for area, squares in self.area_squares.items()
        }
        self._pvs: dict[Square, tuple[Square, ...]] = {}
        self._pv_areas: dict[Square, dict[Square, tuple[str, ...]]] = {}
        self._pv_squares: dict[Square, dict[Square, tuple[Square, ...]]] = {}
        self._sight_groups: dict[
            Square, tuple[tuple[tuple[str, ...], tuple[Square, ...]], ...]
        ] = {}
        self.room_areas = frozenset(a.id for a in quest.areas.values() if a.kind == "room")

    # --- squares and edges -------------------------------------------------------------------
    def all_squares(self) -> Iterator[Square]:
        for y in range(self.height):
            for x in range(self.width):
                yield (x, y)

    def index(self, sq: Square) -> int:
        return sq[1] * self.width + sq[0]

    def in_grid(self, sq: Square) -> bool:
        return 0 <= sq[0] < self.width and 0 <= sq[1] < self.height

    def edge(self, a: Square, b: Square) -> int:
        """Id of the edge between two orthogonal neighbours (order does not matter)."""
        if a[0] == b[0]:  # one above the other: the edge below the upper square
            top = a if a[1] < b[1] else b
            return (top[1] * self.width + top[0]) * 2 + 1
        left = a if a[0] < b[0] else b
        return (left[1] * self.width + left[0]) * 2

    def _compute_walls(self) -> set[int]:
        walls: set[int] = set()
        kinds = {a.id: a.kind for a in self.quest.areas.values()}
        for sq in self.all_squares():
            for d in ((1, 0), (0, 1)):
                nb = step(sq, d)
                if not self.in_grid(nb):
                    continue
                e = self.edge(sq, nb)
                if e in self.door_edge:
                    continue
                a1, a2 = self.area_of.get(sq), self.area_of.get(nb)
                both_passages = kinds.get(a1 or "") == kinds.get(a2 or "") == "passage"
                if a1 is None or a2 is None or (a1 != a2 and not both_passages):
                    walls.add(e)
        return walls

    def _wall_sides(self, sq: Square) -> str:
        sides = ""
        for name, d in DIRECTIONS.items():
            nb = step(sq, d)
            if not self.in_grid(nb) or self.edge(sq, nb) in self.walls:
                sides += name
        return sides

    def side_of(self, sq: Square, nb: Square) -> str:
        d = (nb[0] - sq[0], nb[1] - sq[1])
        return next(name for name, v in DIRECTIONS.items() if v == d)

    def trap_area(self, trap_id: str) -> str | None:
        t = self.traps[trap_id]
        if t.square is not None:
            return self.area_of.get(t.square)
        if t.furniture is not None and t.furniture in self.furniture_area:
            return self.furniture_area[t.furniture]
        return None

    def neighbours(self, sq: Square) -> Iterator[Square]:
        for d in ORTHOGONAL:
            nb = step(sq, d)
            if nb in self.playable:
                yield nb

    def edge_closed(self, a: Square, b: Square, open_doors: Collection[int]) -> bool:
        """Is the edge between neighbours a wall or a door that is not open?"""
        e = self.edge(a, b)
        return e in self.blockable and e not in open_doors

    # --- line of sight -----------------------------------------------------------------------
    def line_of_sight(
        self, a: Square, b: Square, open_doors: Collection[int], blockers: Collection[int]
    ) -> bool:
        """Exact sight test between square centres (docs/rules.md 4).

        `open_doors` are edge ids of open doors; `blockers` are indexes of squares that block
        sight when the line passes through their interior (figures, fallen blocks). The line is
        walked crossing by crossing with integer arithmetic: crossing i of a vertical grid line
        happens at t = (2i+1)/(2|dx|), crossing j of a horizontal one at (2j+1)/(2|dy|).
        When both happen at once the line goes exactly through a grid corner: that only blocks
        when walls there cut both ways round the corner (merely touching a wall end or a
        square's corner does not block).
        """
        ax, ay = a
        bx, by = b
        nx, ny = abs(bx - ax), abs(by - ay)
        sx = 1 if bx > ax else -1
        sy = 1 if by > ay else -1
        w = self.width
        blockable = self.blockable
        static = self.static_sight_block
        x, y, i, j = ax, ay, 0, 0
        big = 1 << 62
        while i < nx or j < ny:
            tv = (2 * i + 1) * ny if i < nx else big
            th = (2 * j + 1) * nx if j < ny else big
            if tv < th:
                e = (y * w + min(x, x + sx)) * 2
                if e in blockable and e not in open_doors:
                    return False
                x += sx
                i += 1
            elif th < tv:
                e = (min(y, y + sy) * w + x) * 2 + 1
                if e in blockable and e not in open_doors:
                    return False
                y += sy
                j += 1
            else:
                if self._corner_blocks(x, y, sx, sy, open_doors, blockers):
                    return False
                x += sx
                y += sy
                i += 1
                j += 1
            if (x != bx or y != by) and ((idx := y * w + x) in static or idx in blockers):
                return False
        return True

    def _corner_blocks(
        self,
        x: int,
        y: int,
        sx: int,
        sy: int,
        open_doors: Collection[int],
        blockers: Collection[int],
    ) -> bool:
        """Going diagonally from (x, y) to (x+sx, y+sy) through their shared corner.

        A pinch point blocks (docs/rules.md 4): the line is stopped when something blocking touches
        the corner on both sides of it (a wall or closed door there, or a blocking square: rock,
        a blocked square, a figure). One blocking corner alone is only touched, never crossed.
        """

        def closed(p: Square, q: Square) -> bool:
            e = self.edge(p, q)
            return e in self.blockable and e not in open_doors

        def solid(p: Square) -> bool:
            idx = self.index(p)
            return idx in self.static_sight_block or idx in blockers

        here, there = (x, y), (x + sx, y + sy)
        via_x, via_y = (x + sx, y), (x, y + sy)
        round_x = closed(here, via_x) or closed(via_x, there) or solid(via_x)
        round_y = closed(here, via_y) or closed(via_y, there) or solid(via_y)
        return round_x and round_y

    def potentially_visible(self, sq: Square) -> tuple[Square, ...]:
        """Squares `sq` could ever see (all doors open, no figures) whose sight line shows
        another area: squares of other areas, and squares of its own area seen past the corner
        of another one; cached.

        Used to keep the reveal check small: only these squares need a real sight test.
        """
        cached = self._pvs.get(sq)
        if cached is None:
            own = self.area_of.get(sq)
            all_doors = frozenset(self.door_edge)
            cached = tuple(
                t
                for t in sorted(self.playable, key=lambda s: (s[1], s[0]))
                if t != sq
                and (
                    self.area_of[t] != own
                    or any(self.area_of.get(p, own) != own for p in self.line_squares(sq, t))
                )
                and self.line_of_sight(sq, t, all_doors, ())
            )
            self._pvs[sq] = cached
        return cached

    def seen_areas(self, sq: Square, target: Square) -> tuple[str, ...]:
        """The areas a sight line from `sq` to `target` shows: the target's, and those of the
        squares the line passes through on its way (a line that grazes the corner of another
        area sees into it). Cached; `target` comes from `potentially_visible(sq)`."""
        per_sq = self._pv_areas.setdefault(sq, {})
        cached = per_sq.get(target)
        if cached is None:
            areas = [self.area_of[p] for p in self.line_squares(sq, target) if p in self.area_of]
            areas.append(self.area_of[target])
            cached = tuple(dict.fromkeys(areas))
            per_sq[target] = cached
        return cached

    def sight_groups(self, sq: Square) -> tuple[tuple[tuple[str, ...], tuple[Square, ...]], ...]:
        """`potentially_visible(sq)` grouped by `seen_areas`: (areas, targets) pairs, in the
        order each set of areas first comes. Cached. A few dozen targets share a handful of area
        sets, so the reveal check asks once per set whether those areas are all shown already."""
        cached = self._sight_groups.get(sq)
        if cached is None:
            groups: dict[tuple[str, ...], list[Square]] = {}
            for target in self.potentially_visible(sq):
                groups.setdefault(self.seen_areas(sq, target), []).append(target)
            cached = tuple((areas, tuple(targets)) for areas, targets in groups.items())
            self._sight_groups[sq] = cached
        return cached

    def seen_squares(self, sq: Square, target: Square) -> tuple[Square, ...]:
        """The playable squares a sight line from `sq` to `target` shows: those it passes
        through and the target. Cached; `target` comes from `potentially_visible(sq)`."""
        per_sq = self._pv_squares.setdefault(sq, {})
        cached = per_sq.get(target)
        if cached is None:
            line = [p for p in self.line_squares(sq, target) if p in self.area_of]
            cached = per_sq[target] = (*line, target)
        return cached

    def line_squares(self, a: Square, b: Square) -> list[Square]:
        """The squares whose interior the line between the centres of `a` and `b` passes
        through, in order, excluding both ends (the same walk as `line_of_sight`)."""
        ax, ay = a
        bx, by = b
        nx, ny = abs(bx - ax), abs(by - ay)
        sx = 1 if bx > ax else -1
        sy = 1 if by > ay else -1
        x, y, i, j = ax, ay, 0, 0
        big = 1 << 62
        out: list[Square] = []
        while i < nx or j < ny:
            tv = (2 * i + 1) * ny if i < nx else big
            th = (2 * j + 1) * nx if j < ny else big
            if tv < th:
                x += sx
                i += 1
            elif th < tv:
                y += sy
                j += 1
            else:
                x += sx
                y += sy
                i += 1
                j += 1
            if x != bx or y != by:
                out.append((x, y))
        return out


def geometry(quest: Quest) -> Geometry:
    """The cached geometry of a quest object (built on first use)."""
    geo = quest.__dict__.get("_geometry")
    if geo is None:
        geo = Geometry(quest)
        quest.__dict__["_geometry"] = geo  # Quest is frozen; the cache is not part of its value
    return geo
