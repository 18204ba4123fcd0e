"""The whole board as data (docs/zagor/rules.md section 2): three levels, their spaces and links.

Each level is drawn as a small grid map; a space's position on its level's grid is its layout
position for the board UI. Linked spaces are orthogonal grid neighbours (so no move is diagonal),
except the links between levels, which are listed. Rooms link only to the corridor space they
touch (their door); start spaces only to corridor spaces.

Map characters: `.` corridor (holds a tile), `R` room, `S` start space, `$` the Dungeon Store,
`=` a bridge, `P` the Portal of Doom, `C` the Dragon's Cave, `H` Skull Hall, `-` rock.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

LEVEL_NAMES = {1: "the Chambers of Death", 2: "the Halls of Fear", 3: "the Crypt of Zagor"}

_MAPS: dict[int, tuple[str, ...]] = {
    1: (
        "S..R-R..S",
        ".---R---.",
        ".-R-.-R-.",
        "....$....",
        ".-R-.-R-.",
        ".---=---.",
        "S..R-R..S",
    ),
    2: (
        "-R...R-",
        "--...--",
        "R.....R",
        "--.-.--",
        "-R...R-",
        "---P---",
        "---=---",
    ),
    3: (
        ".",
        ".",
        "C",
        ".",
        ".",
        "H",
    ),
}

# Room names in each level's reading order (rules 2.6).
_ROOM_NAMES = {
    1: (
        "Guard Room",
        "Bone Chapel",
        "Goblin Den",
        "Orc Barracks",
        "Ossuary",
        "Torture Chamber",
        "Old Armoury",
        "Rat Cellar",
        "Well Room",
    ),
    2: (
        "Hall of Chains",
        "Ogre Kitchen",
        "Chaos Chapel",
        "Hellhorn Pen",
        "Blood Pool",
        "Throne of Fear",
    ),
}

# Start spaces by corner, clockwise from the top left: the heroes' seat order (rules 3.2).
_START_IDS = {(0, 0): "s1", (8, 0): "s2", (8, 6): "s3", (0, 6): "s4"}
_KINDS = {
    ".": "corridor",
    "R": "room",
    "S": "start",
    "$": "store",
    "=": "bridge",
    "P": "portal",
    "C": "cave",
    "H": "hall",
}
_CORRIDOR_PREFIX = {1: "a", 2: "b", 3: "c"}
# A room-like space: entering it ends the move (rules 5.3).
ROOMISH = frozenset({"room", "cave", "hall"})


@dataclass(frozen=True)
class Space:
    id: str
    kind: str  # corridor | room | start | store | bridge | portal | cave | hall
    level: int
    x: int
    y: int
    name: str


@dataclass(frozen=True)
class Board:
    spaces: dict[str, Space]
    links: dict[str, tuple[str, ...]]  # sorted neighbour ids of each space

    def level_spaces(self, level: int, kind: str | None = None) -> list[Space]:
        return [
            s for s in self.spaces.values() if s.level == level and (kind is None or s.kind == kind)
        ]

    def doors(self, room: str) -> tuple[str, ...]:
        """The corridor spaces a room opens on."""
        return tuple(n for n in self.links[room] if self.spaces[n].kind == "corridor")

    def rooms_at_door(self, space: str) -> tuple[str, ...]:
        return tuple(n for n in self.links[space] if self.spaces[n].kind == "room")


def _space_name(kind: str, level: int, index: int) -> str:
    names = {
        "store": "the Dungeon Store",
        "portal": "the Portal of Doom",
        "cave": "the Dragon's Cave",
        "hall": "Skull Hall",
        "corridor": "a corridor",
        "start": "a start space",
    }
    if kind == "room":
        return _ROOM_NAMES[level][index]
    if kind == "bridge":
        return "the Stone Steps" if level == 1 else "the Rope Suspension Bridge"
    return names[kind]


def _space_id(kind: str, level: int, x: int, y: int, counters: dict[str, int]) -> str:
    if kind == "start":
        return _START_IDS[(x, y)]
    if kind == "corridor":
        counters["corridor"] += 1
        return f"{_CORRIDOR_PREFIX[level]}{counters['corridor']}"
    if kind == "room":
        counters["room"] += 1
        return f"r{level}{counters['room']}"
    if kind == "bridge":
        return "steps" if level == 1 else "rope_bridge"
    return {"store": "store", "portal": "portal", "cave": "cave", "hall": "hall"}[kind]


def _links_allowed(a: Space, b: Space) -> bool:
    if a.kind == "room" or b.kind == "room":
        return "corridor" in (a.kind, b.kind) and a.kind != b.kind
    if a.kind == "start" or b.kind == "start":
        return "corridor" in (a.kind, b.kind)
    return True


# Links between levels (rules 2.3, 2.4): the Stone Steps arrive at level 2's top centre, the Rope
# Bridge at the Crypt's first space.
_LEVEL_LINKS = (("steps", "b2"), ("rope_bridge", "c1"))


@cache
def board() -> Board:
    spaces: dict[str, Space] = {}
    grid: dict[tuple[int, int, int], str] = {}
    for level, rows in _MAPS.items():
        counters = {"corridor": 0, "room": 0}
        for y, row in enumerate(rows):
            for x, ch in enumerate(row):
                if ch == "-":
                    continue
                kind = _KINDS[ch]
                room_index = counters["room"]
                sid = _space_id(kind, level, x, y, counters)
                spaces[sid] = Space(sid, kind, level, x, y, _space_name(kind, level, room_index))
                grid[(level, x, y)] = sid
    links: dict[str, set[str]] = {sid: set() for sid in spaces}
    for (level, x, y), sid in grid.items():
        for dx, dy in ((1, 0), (0, 1)):
            other = grid.get((level, x + dx, y + dy))
            if other and _links_allowed(spaces[sid], spaces[other]):
                links[sid].add(other)
                links[other].add(sid)
    for a, b in _LEVEL_LINKS:
        links[a].add(b)
        links[b].add(a)
    ordered = {sid: tuple(sorted(ns, key=_order_key)) for sid, ns in links.items()}
    return Board(spaces, ordered)


def _order_key(space_id: str) -> tuple[str, int]:
    """Ids in a stable human order: a2 before a10."""
    head = space_id.rstrip("0123456789")
    tail = space_id[len(head) :]
    return head, int(tail) if tail else 0


def space_order(ids: list[str]) -> list[str]:
    return sorted(ids, key=_order_key)


def layout() -> dict[str, Any]:
    """The board as JSON for drawing: levels with their spaces and links."""
    b = board()
    levels = []
    for level, rows in _MAPS.items():
        levels.append(
            {
                "level": level,
                "name": LEVEL_NAMES[level],
                "width": max(len(r) for r in rows),
                "height": len(rows),
                "spaces": [
                    {"id": s.id, "kind": s.kind, "x": s.x, "y": s.y, "name": s.name}
                    for s in sorted(b.level_spaces(level), key=lambda s: (s.y, s.x))
                ],
            }
        )
    pairs = sorted({tuple(sorted((a, n))) for a, ns in b.links.items() for n in ns})
    return {"levels": levels, "links": [list(p) for p in pairs]}
