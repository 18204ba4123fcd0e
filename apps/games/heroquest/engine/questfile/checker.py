"""The checker: every problem of a quest file, with its line and field, then the engine's Quest."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar, cast

import yaml
from pydantic import TypeAdapter, ValidationError

from apps.games.heroquest.engine.data import ARTIFACTS, DREAD_SPELLS, MonsterStats
from apps.games.heroquest.engine.quest import (
    Area,
    Door,
    Furniture,
    MonsterDef,
    Quest,
    SpecialTreasure,
    Square,
    TrapDef,
    TrapKind,
)
from apps.games.heroquest.engine.questfile.locate import Loc, Locator, field_name, shown, sq
from apps.games.heroquest.engine.questfile.schema import (
    EXAMPLES,
    FURNITURE_KINDS,
    HERO_NAMES,
    ID_RE,
    MAX_HEIGHT,
    MAX_WIDTH,
    MONSTER_KINDS,
    NONNEG,
    ROCK_CHARS,
    SLUG_RE,
    SQUARE,
    STR,
    TEXT,
    TOP_KEYS,
    TRAP_KINDS,
    AreaSpec,
    DoorSpec,
    FurnitureSpec,
    HeroesSpec,
    MonsterSpec,
    QuestFileError,
    SagaSpec,
    Spec,
    TrapSpec,
    TreasureSpec,
)

T = TypeVar("T")
M = TypeVar("M", bound=Spec)


@dataclass(frozen=True)
class _Problem:
    line: int | None
    field: str
    message: str


@dataclass(frozen=True)
class _Item(Generic[T]):
    """A validated list entry and where it came from."""

    index: int
    loc: Loc
    spec: T


class Checker:
    def __init__(self, filename: str, root: yaml.Node | None, data: Any) -> None:
        self.filename = filename
        self.locator = Locator(root)
        self.data = data
        self.problems: list[_Problem] = []
        # Filled in as the checks go; None/empty when the part itself is broken.
        self.grid: dict[Square, str | None] = {}  # square -> area char, None for rock
        self.map_ok = False
        self.width = 0
        self.height = 0
        self.row_lines: list[int | None] = []
        self.areas: dict[str, AreaSpec] = {}  # the valid area entries
        self.declared_areas: set[str] | None = None  # every key under areas (None: no mapping)
        self.area_squares: dict[str, set[Square]] = {}
        self.entrance: str | None = None
        self.stairway: set[Square] = set()
        self.blocked: set[Square] = set()
        self.furniture: list[_Item[FurnitureSpec]] = []
        self.furniture_at: dict[Square, str] = {}
        self.doors: list[_Item[DoorSpec]] = []
        self.door_edges: set[frozenset[Square]] = set()
        self.doors_complete = False
        self.traps: list[_Item[TrapSpec]] = []
        self.trap_at: dict[Square, str] = {}
        self.monsters: list[_Item[MonsterSpec]] = []
        self.heroes: HeroesSpec | None = None
        self.treasures: list[_Item[TreasureSpec]] = []
        self.ids: dict[str, Loc] = {}
        self.scalars: dict[str, Any] = {}

    # -- reporting ---------------------------------------------------------------------------

    def error(self, loc: Loc, message: str, line: int | None = None) -> None:
        if line is None:
            line = self.locator.line(loc)
        self.problems.append(_Problem(line, field_name(loc), message))

    def formatted(self) -> list[str]:
        indexed = sorted(
            enumerate(self.problems),
            key=lambda p: (p[1].line if p[1].line is not None else 0, p[0]),
        )
        out: list[str] = []
        for _, p in indexed:
            where = self.filename if p.line is None else f"{self.filename} line {p.line}"
            if p.field:
                where += f", {p.field}"
            out.append(f"{where}: {p.message}")
        return out

    def validate(self, adapter: TypeAdapter[T], value: Any, loc: Loc) -> T | None:
        try:
            return adapter.validate_python(value)
        except ValidationError as exc:
            self._pydantic_errors(loc, exc, ())
            return None

    def validate_model(self, model: type[M], value: Any, loc: Loc) -> M | None:
        try:
            return model.model_validate(value)
        except ValidationError as exc:
            self._pydantic_errors(loc, exc, list(model.model_fields))
            return None

    def _pydantic_errors(self, loc: Loc, exc: ValidationError, allowed: Sequence[str]) -> None:
        for err in exc.errors(include_url=False):
            self._pydantic_error(loc, err, allowed)

    def _pydantic_error(self, base: Loc, err: Any, allowed: Sequence[str]) -> None:
        loc: Loc = base + tuple(err["loc"])
        kind = err["type"]
        if kind == "extra_forbidden":
            hint = f" (allowed: {', '.join(allowed)})" if allowed else ""
            self.error(loc, f"unknown key {shown(loc[-1])}{hint}")
            return
        if kind == "missing":
            self.error(loc, "is required but missing", line=self.locator.line(loc[:-1]))
            return
        if kind == "model_type":
            example = EXAMPLES.get(str(err.get("ctx", {}).get("class_name")), "")
            hint = f" like {example}" if example else ""
            self.error(loc, f"should be a mapping{hint}, got {shown(err['input'])}")
            return
        msg = str(err["msg"])
        if msg.startswith("Value error, "):
            self.error(loc, msg.removeprefix("Value error, "))
            return
        if msg.startswith("Input should be"):
            msg = "should be" + msg.removeprefix("Input should be")
        elif msg.startswith("String should have at least 1 character"):
            msg = "should not be empty"
        else:
            msg = msg[:1].lower() + msg[1:]
        if isinstance(err.get("input"), str | int | float | bool) or err.get("input") is None:
            msg += f", got {shown(err.get('input'))}"
        self.error(loc, msg)

    # -- the whole file ----------------------------------------------------------------------

    def run(self) -> None:
        if not isinstance(self.data, dict):
            self.error(
                (),
                "a quest file must be a mapping of keys (name:, map:, areas:, ...), "
                f"got {shown(self.data)}",
            )
            return
        for key in self.data:
            if key not in TOP_KEYS:
                self.error(
                    (str(key),), f"unknown key {shown(key)} (allowed: {', '.join(TOP_KEYS)})"
                )
        for key, required in TOP_KEYS.items():
            if required and key not in self.data:
                self.error((), f"required key {key!r} is missing")
        self._check_scalars()
        self._check_map()
        self._check_areas()
        self._check_map_against_areas()
        self._check_stairway()
        self._check_blocked()
        self._check_furniture()
        self._check_doors()
        self._check_traps()
        self._check_monsters()
        self._check_heroes()
        self._check_treasures()
        self._check_reachability()

    def _list(self, key: str) -> list[tuple[int, Loc, Any]]:
        """The entries of a top-level list (empty if absent or null)."""
        value = self.data.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            self.error((key,), f"should be a list (one '- ...' line per entry), got {shown(value)}")
            return []
        return [(i, (key, i), entry) for i, entry in enumerate(value)]

    def _items(self, key: str, model: type[M]) -> list[_Item[M]]:
        items: list[_Item[M]] = []
        for index, loc, entry in self._list(key):
            spec = self.validate_model(model, entry, loc)
            if spec is not None:
                items.append(_Item(index, loc, spec))
        return items

    def _check_scalars(self) -> None:
        for key in ("name", "parchment", "notes"):
            if key in self.data:
                self.scalars[key] = self.validate(TEXT, self.data[key], (key,))
        slug = self.validate(STR, self.data["slug"], ("slug",)) if "slug" in self.data else None
        if slug is not None and not SLUG_RE.match(slug):
            self.error(
                ("slug",),
                f"{slug!r} should be lower-case letters, digits and _ (like ashen_vault)",
            )
        self.scalars["slug"] = slug
        self.scalars["reward_gold"] = (
            self.validate(NONNEG, self.data["reward_gold"], ("reward_gold",))
            if "reward_gold" in self.data
            else 0
        )
        wandering = None
        if "wandering_monster" in self.data:
            wandering = self.validate(STR, self.data["wandering_monster"], ("wandering_monster",))
            if wandering is not None and wandering not in MONSTER_KINDS:
                self.error(("wandering_monster",), self._unknown_monster(wandering))
        self.scalars["wandering_monster"] = wandering
        if "villain" in self.data:
            self.scalars["villain"] = self.validate(STR, self.data["villain"], ("villain",))
        self.scalars["saga"] = (
            self.validate_model(SagaSpec, self.data["saga"], ("saga",))
            if "saga" in self.data
            else None
        )

    def _artifact(self, loc: Loc, name: str | None, *, key: bool = False) -> None:
        """Report an artifact the engine does not know (or, for a lock, one that is no key)."""
        if name is None:
            return
        artifact = ARTIFACTS.get(name)
        if artifact is None:
            self.error(loc, f"unknown artifact {name!r} (known: {', '.join(ARTIFACTS)})")
        elif key and not artifact.key:
            keys = ", ".join(a.name for a in ARTIFACTS.values() if a.key)
            self.error(loc, f"{name!r} is no key and opens no door (keys: {keys})")

    @staticmethod
    def _unknown_monster(kind: str) -> str:
        return f"unknown monster kind {kind!r} (known: {', '.join(MONSTER_KINDS)})"

    # -- map and areas -----------------------------------------------------------------------

    def _check_map(self) -> None:
        if "map" not in self.data:
            return
        loc: Loc = ("map",)
        text = self.validate(STR, self.data["map"], loc)
        if text is None:
            return
        node = self.locator.node(loc)
        if not isinstance(node, yaml.ScalarNode) or node.style != "|":
            self.error(loc, "write the map as a literal block: 'map: |' and then one line per row")
            return
        first_line = node.start_mark.line + 2  # the line after 'map: |'
        lines = text.split("\n")
        while lines and not lines[-1].strip():
            lines.pop()
        if not lines:
            self.error(loc, "the map is empty")
            return
        rows: list[str] = []
        ok = True
        for i, raw in enumerate(lines):
            line = first_line + i
            row = re.split(r"\s", raw, maxsplit=1)[0]  # anything after a space is a comment
            if not row:
                self.error(loc, f"map row y={i} is empty or starts with a space", line=line)
                ok = False
            rows.append(row)
            self.row_lines.append(line)
            for x, ch in enumerate(row):
                if ch in ROCK_CHARS:
                    self.grid[(x, i)] = None
                elif ch.isascii() and ch.isalnum():
                    self.grid[(x, i)] = ch
                    self.area_squares.setdefault(ch, set()).add((x, i))
                else:
                    self.error(
                        loc,
                        f"square ({x}, {i}) is {ch!r}; use a letter or digit for an area "
                        "and '#' or '.' for solid rock",
                        line=line,
                    )
                    self.grid[(x, i)] = None
                    ok = False
        self.height = len(rows)
        self.width = max(len(r) for r in rows)
        widths = [len(r) for r in rows if r]
        usual = max(sorted(set(widths)), key=widths.count)  # the most common width
        for i, row in enumerate(rows):
            if row and len(row) != usual:
                self.error(
                    loc,
                    f"map row y={i} is {len(row)} squares wide but the other rows are {usual}; "
                    "the map must be a rectangle",
                    line=self.row_lines[i],
                )
                ok = False
        if self.width > MAX_WIDTH or self.height > MAX_HEIGHT:
            self.error(
                loc,
                f"the map is {self.width} x {self.height} squares; "
                f"at most {MAX_WIDTH} x {MAX_HEIGHT} are allowed",
            )
            ok = False
        self.map_ok = ok

    def _check_areas(self) -> None:
        raw = self.data.get("areas")
        if raw is None:
            return
        if not isinstance(raw, dict):
            self.error(("areas",), f"should be a mapping of map characters, got {shown(raw)}")
            return
        self.declared_areas = {k if isinstance(k, str) else str(k) for k in raw}
        for key, value in raw.items():
            # YAML reads a bare digit key (`1:`) as a number; area keys are map characters.
            char = key if isinstance(key, str) else str(key)
            loc: Loc = ("areas", char)
            if not (len(char) == 1 and char.isascii() and char.isalnum()):
                self.error(loc, f"area key {char!r} should be a single letter or digit")
                continue
            spec = self.validate_model(AreaSpec, value, loc)
            if spec is not None:
                self.areas[char] = spec
        entrances = [c for c, a in self.areas.items() if a.entrance]
        if len(entrances) == 1:
            char = entrances[0]
            if self.areas[char].kind != "room":
                self.error(("areas", char, "entrance"), "the entrance must be a room")
            else:
                self.entrance = char
        elif not entrances and len(self.areas) == len(raw):
            self.error(("areas",), "no area is marked 'entrance: true' (exactly one room must be)")
        elif len(entrances) > 1:
            for char in entrances[1:]:
                self.error(
                    ("areas", char, "entrance"),
                    f"only one area may be the entrance; {entrances[0]!r} already is",
                )

    def _check_map_against_areas(self) -> None:
        declared = self.declared_areas
        if not self.grid or declared is None:
            return
        for char, squares in sorted(self.area_squares.items()):
            if char not in declared:
                first = min(squares, key=lambda s: (s[1], s[0]))
                self.error(
                    ("map",),
                    f"square {sq(first)} uses {char!r}, which is not declared under areas",
                    line=self._row_line(first[1]),
                )
        for char in self.areas:
            if char not in self.area_squares:
                self.error(("areas", char), f"area {char!r} is declared but not used in the map")
        for char, squares in sorted(self.area_squares.items()):
            if char not in self.areas:
                continue
            parts = _components(squares)
            if len(parts) > 1:
                where = "; ".join(sq(min(p, key=lambda s: (s[1], s[0]))) for p in parts)
                self.error(
                    ("areas", char),
                    f"area {char!r} is split into {len(parts)} separate parts "
                    f"(starting at {where}); an area's squares must touch each other",
                )

    def _row_line(self, y: int) -> int | None:
        return self.row_lines[y] if 0 <= y < len(self.row_lines) else None

    def _area_of(self, square: Square) -> str | None:
        return self.grid.get(square)

    def _is_room(self, square: Square) -> bool:
        char = self._area_of(square)
        return char is not None and char in self.areas and self.areas[char].kind == "room"

    def _playable(self, loc: Loc, square: Square) -> bool:
        """Report and return False if the square is off the map or solid rock."""
        if not self.grid:
            return False  # the map itself is broken; already reported
        if square not in self.grid:
            self.error(
                loc,
                f"square {sq(square)} is outside the map (x 0-{self.width - 1}, "
                f"y 0-{self.height - 1})",
            )
            return False
        if self.grid[square] is None:
            self.error(loc, f"square {sq(square)} is solid rock, not a playable square")
            return False
        return True

    def _squares_list(self, key: str) -> list[tuple[Loc, Square]]:
        out: list[tuple[Loc, Square]] = []
        for _, loc, entry in self._list(key):
            square = self.validate(SQUARE, entry, loc)
            if square is not None:
                out.append((loc, square))
        return out

    # -- stairway, blocked squares, furniture -------------------------------------------------

    def _check_stairway(self) -> None:
        if "stairway" not in self.data:
            return
        if self.data["stairway"] is None or self.data["stairway"] == []:
            self.error(("stairway",), "list at least one stairway square")
            return
        for loc, square in self._squares_list("stairway"):
            if square in self.stairway:
                self.error(loc, f"square {sq(square)} is listed twice")
                continue
            if not self._playable(loc, square):
                continue
            self.stairway.add(square)
            if self.entrance is not None and self._area_of(square) != self.entrance:
                self.error(
                    loc,
                    f"stairway square {sq(square)} is not in the entrance room {self.entrance!r}",
                )

    def _check_blocked(self) -> None:
        for loc, square in self._squares_list("blocked"):
            if square in self.blocked:
                self.error(loc, f"square {sq(square)} is listed twice")
            elif self._playable(loc, square):
                if square in self.stairway:
                    self.error(loc, f"square {sq(square)} is a stairway square")
                self.blocked.add(square)

    def _claim_id(self, loc: Loc, ident: str) -> None:
        id_loc: Loc = (*loc, "id")
        if not ID_RE.match(ident):
            self.error(
                id_loc, f"id {ident!r} should be letters, digits and _ (start with a letter)"
            )
        if ident in self.ids:
            other = self.ids[ident]
            line = self.locator.line(other)
            self.error(
                id_loc,
                f"id {ident!r} is already used by {field_name(other)}"
                + (f" (line {line})" if line else ""),
            )
        else:
            self.ids[ident] = loc

    def _check_furniture(self) -> None:
        for item in self._items("furniture", FurnitureSpec):
            spec, loc = item.spec, item.loc
            self._claim_id(loc, spec.id)
            if spec.kind not in FURNITURE_KINDS:
                self.error(
                    (*loc, "kind"),
                    f"unknown furniture kind {spec.kind!r} (known: {', '.join(FURNITURE_KINDS)})",
                )
            squares: set[Square] = set()
            sq_loc: Loc = (*loc, "squares")
            for j, square in enumerate(spec.squares):
                if square in squares:
                    self.error((*sq_loc, j), f"square {sq(square)} is listed twice")
                    continue
                if not self._playable((*sq_loc, j), square):
                    continue
                squares.add(square)
                if square in self.blocked:
                    self.error((*sq_loc, j), f"square {sq(square)} is a blocked square")
                elif square in self.stairway:
                    self.error((*sq_loc, j), f"square {sq(square)} is a stairway square")
                elif square in self.furniture_at:
                    self.error(
                        (*sq_loc, j),
                        f"square {sq(square)} already holds {self.furniture_at[square]!r}",
                    )
                else:
                    self.furniture_at[square] = spec.id
            areas = {self._area_of(s) for s in squares}
            if len(areas) > 1:
                self.error(sq_loc, "a piece of furniture must stand in a single room")
            elif squares and not self._is_room(next(iter(squares))) and areas <= set(self.areas):
                self.error(sq_loc, "furniture must stand in a room, not in a passage")
            if len(squares) == len(spec.squares) and len(_components(squares)) > 1:
                self.error(sq_loc, "the squares of a piece of furniture must touch each other")
            self.furniture.append(item)

    # -- doors -----------------------------------------------------------------------------

    def _check_doors(self) -> None:
        self.doors_complete = "doors" not in self.data or self.data["doors"] in (None, [])
        count = 0
        for item in self._items("doors", DoorSpec):
            count += 1
            spec, loc = item.spec, item.loc
            self._claim_id(loc, spec.id)
            b_loc: Loc = (*loc, "between")
            a, b = spec.between
            if not (self._playable((*b_loc, 0), a) & self._playable((*b_loc, 1), b)):
                continue
            if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
                self.error(
                    b_loc,
                    f"squares {sq(a)} and {sq(b)} are not adjacent "
                    "(a door sits on the edge between two squares side by side)",
                )
                continue
            area_a, area_b = self._area_of(a), self._area_of(b)
            if area_a == area_b:
                self.error(
                    b_loc,
                    f"squares {sq(a)} and {sq(b)} are both in area {area_a!r}; "
                    "a door must join two different areas",
                )
                continue
            known = [self.areas[c] for c in (area_a, area_b) if c is not None and c in self.areas]
            if len(known) == 2 and known[0].kind == known[1].kind == "passage":
                self.error(
                    b_loc,
                    f"squares {sq(a)} and {sq(b)} are both passage squares, which are "
                    "already open to each other; a door needs a room on one side",
                )
                continue
            edge = frozenset((a, b))
            if edge in self.door_edges:
                self.error(b_loc, f"there is already a door between {sq(a)} and {sq(b)}")
                continue
            for k, square in enumerate((a, b)):
                if square in self.blocked:
                    self.error((*b_loc, k), f"square {sq(square)} is blocked; the door is useless")
                elif square in self.furniture_at:
                    self.error(
                        (*b_loc, k),
                        f"square {sq(square)} holds {self.furniture_at[square]!r}; "
                        "the door is useless",
                    )
            self._artifact((*loc, "locked_by"), spec.locked_by, key=True)
            self.door_edges.add(edge)
            self.doors.append(item)
        if count and len(self.doors) == len(self.data["doors"]):
            self.doors_complete = True

    # -- traps and monsters ------------------------------------------------------------------

    def _check_traps(self) -> None:
        furniture_ids = {f.spec.id for f in self.furniture}
        trapped_furniture: dict[str, str] = {}
        for item in self._items("traps", TrapSpec):
            spec, loc = item.spec, item.loc
            self._claim_id(loc, spec.id)
            if spec.kind not in TRAP_KINDS:
                self.error(
                    (*loc, "kind"),
                    f"unknown trap kind {spec.kind!r} (known: {', '.join(TRAP_KINDS)})",
                )
                continue
            if spec.kind == "chest":
                if spec.at is not None:
                    self.error(
                        (*loc, "at"),
                        "a chest trap sits on furniture: give 'furniture:' instead of 'at:'",
                    )
                if spec.damage is not None and spec.damage < 1:
                    self.error((*loc, "damage"), f"damage should be at least 1, got {spec.damage}")
                if spec.furniture is None:
                    if spec.at is None:
                        self.error(
                            loc, "a chest trap needs 'furniture:' (the id of the trapped piece)"
                        )
                elif spec.furniture not in furniture_ids:
                    self.error(
                        (*loc, "furniture"), f"there is no furniture with id {spec.furniture!r}"
                    )
                elif spec.furniture in trapped_furniture:
                    self.error(
                        (*loc, "furniture"),
                        f"{spec.furniture!r} already holds trap "
                        f"{trapped_furniture[spec.furniture]!r}",
                    )
                else:
                    trapped_furniture[spec.furniture] = spec.id
                    self.traps.append(item)
                continue
            if spec.furniture is not None:
                self.error(
                    (*loc, "furniture"),
                    f"only chest traps sit on furniture; a {spec.kind} trap needs 'at: [x, y]'",
                )
            if spec.damage is not None:
                self.error((*loc, "damage"), "only chest traps take 'damage:'")
            if spec.at is None:
                if spec.furniture is None:
                    self.error(loc, f"a {spec.kind} trap needs 'at: [x, y]'")
                continue
            at_loc: Loc = (*loc, "at")
            if not self._playable(at_loc, spec.at):
                continue
            clash = self._occupant(spec.at, traps=True)
            if clash:
                self.error(at_loc, f"square {sq(spec.at)} {clash}")
                continue
            self.trap_at[spec.at] = spec.id
            self.traps.append(item)

    def _occupant(self, square: Square, *, traps: bool = False) -> str | None:
        """Why a trap or monster cannot be placed on `square`, or None."""
        if square in self.blocked:
            return "is a blocked square"
        if square in self.furniture_at:
            return f"holds furniture {self.furniture_at[square]!r}"
        if square in self.stairway:
            return "is a stairway square"
        if traps and square in self.trap_at:
            return f"already holds trap {self.trap_at[square]!r}"
        return None

    def _check_monsters(self) -> None:
        monster_at: dict[Square, str] = {}
        for item in self._items("monsters", MonsterSpec):
            spec, loc = item.spec, item.loc
            self._claim_id(loc, spec.id)
            if spec.kind not in MONSTER_KINDS:
                self.error((*loc, "kind"), self._unknown_monster(spec.kind))
            at_loc: Loc = (*loc, "at")
            if not self._playable(at_loc, spec.at):
                continue
            clash = self._occupant(spec.at, traps=True)
            if clash is None and spec.at in monster_at:
                clash = f"already holds monster {monster_at[spec.at]!r}"
            if clash:
                self.error(at_loc, f"square {sq(spec.at)} {clash}")
                continue
            monster_at[spec.at] = spec.id
            self._check_monster_extras(loc, spec)
            self.monsters.append(item)
        villain = self.scalars.get("villain")
        raw = self.data.get("monsters")
        if villain is not None and isinstance(raw, list):
            # entries with other problems still count as declaring their id
            declared = [m.get("id") for m in raw if isinstance(m, dict)]
            if villain not in declared:
                self.error(("villain",), f"there is no monster with id {villain!r}")

    def _check_monster_extras(self, loc: Loc, spec: MonsterSpec) -> None:
        """Dread spells (docs/rules.md 8b) and an escape square for the spell Escape."""
        spells_loc: Loc = (*loc, "dread_spells")
        for i, spell in enumerate(spec.dread_spells):
            if spell not in DREAD_SPELLS:
                known = ", ".join(DREAD_SPELLS)
                self.error((*spells_loc, i), f"unknown Dread spell {spell!r} (known: {known})")
            elif spell in spec.dread_spells[:i]:
                self.error((*spells_loc, i), f"Dread spell {spell!r} is listed twice")
        escape_loc: Loc = (*loc, "escape_to")
        if "escape" in spec.dread_spells and spec.escape_to is None:
            self.error(
                escape_loc, "a monster with the Dread spell escape needs an escape_to square"
            )
        if spec.escape_to is None:
            return
        if "escape" not in spec.dread_spells:
            self.error(escape_loc, "escape_to is only used by the Dread spell escape")
        elif self._playable(escape_loc, spec.escape_to):
            clash = self._occupant(spec.escape_to, traps=True)
            if clash:
                self.error(escape_loc, f"square {sq(spec.escape_to)} {clash}")

    def _check_heroes(self) -> None:
        if "heroes" not in self.data:
            return
        heroes = self.validate_model(HeroesSpec, self.data["heroes"], ("heroes",))
        if heroes is None:
            return
        monster_squares = {m.spec.at: m.spec.id for m in self.monsters}
        seen: dict[Square, str] = {}
        ok = True
        for hero in HERO_NAMES:
            square: Square = getattr(heroes, hero)
            loc: Loc = ("heroes", hero)
            if not self._playable(loc, square):
                ok = False
                continue
            problem = None
            if square in seen:
                problem = f"is already {seen[square]}'s start square"
            elif self.entrance is not None and self._area_of(square) != self.entrance:
                problem = f"is not in the entrance room {self.entrance!r}"
            elif square in self.blocked:
                problem = "is a blocked square"
            elif square in self.furniture_at:
                problem = f"holds furniture {self.furniture_at[square]!r}"
            elif square in self.trap_at:
                problem = f"holds trap {self.trap_at[square]!r}"
            elif square in monster_squares:
                problem = f"holds monster {monster_squares[square]!r}"
            if problem:
                self.error(loc, f"start square {sq(square)} {problem}")
                ok = False
            seen.setdefault(square, hero)
        if ok:
            self.heroes = heroes

    def _check_treasures(self) -> None:
        seen: dict[str, Loc] = {}
        for item in self._items("special_treasures", TreasureSpec):
            spec, loc = item.spec, item.loc
            area_loc: Loc = (*loc, "area")
            if spec.area not in self.areas:
                if self.declared_areas is not None and spec.area not in self.declared_areas:
                    self.error(area_loc, f"there is no area {spec.area!r}")
                continue
            if self.areas[spec.area].kind != "room":
                self.error(
                    area_loc,
                    f"area {spec.area!r} is a passage; special treasure must be in a room",
                )
                continue
            if spec.area in seen:
                self.error(
                    area_loc,
                    f"area {spec.area!r} already has a special treasure "
                    f"({field_name(seen[spec.area])})",
                )
                continue
            self._artifact((*loc, "artifact"), spec.artifact)
            seen[spec.area] = loc
            self.treasures.append(item)

    # -- reachability ----------------------------------------------------------------------

    def _check_reachability(self) -> None:
        raw_areas = self.data.get("areas")
        sound = (
            self.map_ok
            and bool(self.stairway)
            and isinstance(raw_areas, dict)
            and len(self.areas) == len(raw_areas)
            and set(self.area_squares) <= set(self.areas)
            and self.doors_complete
        )
        if not sound:
            return  # reachability is only meaningful once the map, areas and doors are sound
        reached = self.reachable(self.stairway, secret_doors=True)
        villain = self.scalars.get("villain")
        for m in self.monsters:
            if m.spec.id == villain and m.spec.at not in reached:
                self.error(
                    ("villain",),
                    f"the villain {villain!r} at {sq(m.spec.at)} cannot be reached from the "
                    "stairway (through doors, secret doors and passages); the quest cannot be won",
                )
        self._check_keys()
        for char, spec in self.areas.items():
            squares = self.area_squares.get(char, set())
            if squares and not squares & reached:
                self.error(
                    ("areas", char),
                    f"{spec.kind} {char!r} ({spec.name}) cannot be reached from the stairway; "
                    "add a door",
                )

    def _check_keys(self) -> None:
        """A locked door's key must lie in this quest, in a room reached without locked doors,
        or the heroes could be shut out (a key from an earlier quest still opens it too)."""
        open_reach = self.reachable(self.stairway, secret_doors=True, locked=False)
        for door in self.doors:
            key = door.spec.locked_by
            if key is None or key not in ARTIFACTS or not ARTIFACTS[key].key:
                continue  # no lock, or a bad one (reported with the door)
            rooms = [t.spec.area for t in self.treasures if t.spec.artifact == key]
            if not any(self.area_squares.get(room, set()) & open_reach for room in rooms):
                self.error(
                    (*door.loc, "locked_by"),
                    f"no special treasure of this quest reached without a locked door gives "
                    f"the {key}; the door could never be opened",
                )

    def reachable(
        self, start: Iterable[Square], *, secret_doors: bool, locked: bool = True
    ) -> set[Square]:
        doors = {
            frozenset(d.spec.between)
            for d in self.doors
            if (secret_doors or not d.spec.secret) and (locked or d.spec.locked_by is None)
        }
        return _flood(
            start,
            lambda s: (
                self._area_of(s) is not None
                and s not in self.blocked
                and s not in self.furniture_at
            ),
            lambda a, b: self._open(a, b, doors),
        )

    def _open(self, a: Square, b: Square, doors: set[frozenset[Square]]) -> bool:
        ca, cb = self._area_of(a), self._area_of(b)
        if ca == cb:
            return True
        if (
            ca in self.areas
            and cb in self.areas
            and self.areas[ca].kind == "passage"
            and self.areas[cb].kind == "passage"
        ):
            return True
        return frozenset((a, b)) in doors

    # -- building the Quest ------------------------------------------------------------------

    def build(self) -> Quest:
        assert not self.problems and self.entrance is not None and self.heroes is not None
        s = self.scalars
        saga: SagaSpec | None = s.get("saga")
        areas = {
            char: Area(char, spec.kind, spec.name, frozenset(self.area_squares[char]))
            for char, spec in self.areas.items()
        }
        return Quest(
            slug=s["slug"],
            name=s["name"],
            width=self.width,
            height=self.height,
            parchment=s["parchment"].strip(),
            notes=s["notes"].strip(),
            areas=areas,
            square_area={sq: c for sq, c in self.grid.items() if c is not None},
            entrance=self.entrance,
            stairway=frozenset(self.stairway),
            hero_starts={h: getattr(self.heroes, h) for h in HERO_NAMES},
            doors=tuple(
                Door(
                    d.spec.id,
                    d.spec.between[0],
                    d.spec.between[1],
                    d.spec.secret,
                    locked_by=d.spec.locked_by,
                )
                for d in self.doors
            ),
            blocked=frozenset(self.blocked),
            furniture=tuple(
                Furniture(f.spec.id, f.spec.kind, tuple(f.spec.squares)) for f in self.furniture
            ),
            traps=tuple(
                TrapDef(
                    t.spec.id,
                    cast(TrapKind, t.spec.kind),  # checked against TRAP_KINDS
                    square=t.spec.at,
                    furniture=t.spec.furniture,
                    damage=t.spec.damage if t.spec.damage is not None else 1,
                )
                for t in self.traps
            ),
            monsters=tuple(self._monster_def(m.spec) for m in self.monsters),
            villain=s["villain"],
            wandering_monster=s["wandering_monster"],
            special_treasures={
                t.spec.area: SpecialTreasure(
                    t.spec.area,
                    t.spec.name,
                    t.spec.text.strip(),
                    t.spec.gold,
                    t.spec.potions,
                    artifact=t.spec.artifact,
                )
                for t in self.treasures
            },
            reward_gold=s["reward_gold"],
            saga=saga.id if saga else None,
            saga_name=saga.name if saga else None,
            chapter=saga.chapter if saga else 0,
        )

    @staticmethod
    def _monster_def(spec: MonsterSpec) -> MonsterDef:
        stats = None
        if spec.stats is not None:
            st = spec.stats
            name = spec.name or spec.kind.replace("_", " ")
            stats = MonsterStats(
                name, st.move, st.attack, st.defend, st.body, st.mind, undead=st.undead
            )
        return MonsterDef(
            spec.id,
            spec.kind,
            spec.at,
            name=spec.name,
            stats=stats,
            dread_spells=tuple(spec.dread_spells),
            escape_to=spec.escape_to,
        )


def _neighbours(square: Square) -> tuple[Square, ...]:
    x, y = square
    return ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))


def _flood(
    start: Iterable[Square],
    passable: Callable[[Square], bool],
    connected: Callable[[Square, Square], bool],
) -> set[Square]:
    seen = {s for s in start if passable(s)}
    queue = deque(seen)
    while queue:
        square = queue.popleft()
        for nxt in _neighbours(square):
            if nxt not in seen and passable(nxt) and connected(square, nxt):
                seen.add(nxt)
                queue.append(nxt)
    return seen


def _components(squares: set[Square]) -> list[set[Square]]:
    """The 4-connected groups of `squares`, the one holding the first square first."""
    parts: list[set[Square]] = []
    for square in sorted(squares, key=lambda s: (s[1], s[0])):
        if not any(square in part for part in parts):
            parts.append(_flood([square], squares.__contains__, lambda a, b: True))
    return parts


def duplicate_keys(node: yaml.Node | None, loc: Loc, checker: Checker) -> None:
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key, value in node.value:
            name = key.value if isinstance(key, yaml.ScalarNode) else "?"
            if name in seen:
                checker.error(
                    (*loc, name),
                    f"key {name!r} appears more than once (only the last one would count)",
                    line=key.start_mark.line + 1,
                )
            seen.add(name)
            duplicate_keys(value, (*loc, name), checker)
    elif isinstance(node, yaml.SequenceNode):
        for i, value in enumerate(node.value):
            duplicate_keys(value, (*loc, i), checker)


def check_file(path: str | Path) -> tuple[list[str], Checker | None]:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return [f"{path.name}: cannot read the file ({exc})"], None
    return check_text(text, path.name)


# What a quest file may weigh, checked on the parser's events before anything is built: the
# shipped quests have at most ~1,100 nodes and nest 5 deep. Aliases (and the anchors they point
# to) are refused outright: a few hundred bytes of them expand to billions of nodes.
MAX_YAML_NODES = 10_000
MAX_YAML_DEPTH = 20
_Parser = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's parser when installed


def _line(event: yaml.Event) -> int:
    return event.start_mark.line + 1 if event.start_mark is not None else 1


def weight_problem(text: str, name: str) -> str | None:
    """Why `text` is too heavy to check (aliases, too deep, too many nodes), or None. Reads the
    parser's events only, and stops at the first limit passed: bounded work for any input."""
    nodes = depth = 0
    for event in yaml.parse(text, Loader=_Parser):
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            return (
                f"{name} line {_line(event)}: YAML anchors and aliases (&name, *name) are not "
                "allowed in a quest file; write the value out"
            )
        if isinstance(event, yaml.NodeEvent):
            nodes += 1
            if nodes > MAX_YAML_NODES:
                return (
                    f"{name}: the file has more than {MAX_YAML_NODES:,} YAML values; a quest "
                    "has at most a few thousand"
                )
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_YAML_DEPTH:
                return (
                    f"{name} line {_line(event)}: the YAML is nested more than "
                    f"{MAX_YAML_DEPTH} levels deep; a quest nests at most a few"
                )
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
    return None


def check_text(text: str, name: str) -> tuple[list[str], Checker | None]:
    try:
        heavy = weight_problem(text, name)
        if heavy is not None:
            return [heavy], None
        root = yaml.compose(text, Loader=_Parser)
        data = yaml.load(text, Loader=_Parser)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = " ".join(p for p in (exc.context, exc.problem) if p) or "invalid YAML"
        where = f"{name} line {mark.line + 1}, column {mark.column + 1}" if mark else name
        return [f"{where}: YAML syntax error: {problem}"], None
    except yaml.YAMLError as exc:
        return [f"{name}: YAML syntax error: {exc}"], None
    checker = Checker(name, root, data)
    if root is None:
        checker.error((), "the file is empty")
        return checker.formatted(), checker
    duplicate_keys(root, (), checker)
    checker.run()
    return checker.formatted(), checker


def quest_or_raise(result: tuple[list[str], Checker | None]) -> Quest:
    problems, checker = result
    if problems or checker is None:
        raise QuestFileError(problems)
    return checker.build()
