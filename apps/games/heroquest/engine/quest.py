"""The static description of a quest: its map, doors, traps, furniture and monsters.

A `Quest` never changes during play; everything that changes lives in the game `State`.
Squares are `(x, y)` tuples, x from 0 to width-1 (west to east), y from 0 to height-1
(north to south).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from .data import MonsterStats

Square = tuple[int, int]
AreaKind = Literal["room", "passage"]
TrapKind = Literal["pit", "falling_block", "spear", "chest"]


@dataclass(frozen=True)
class Area:
    id: str
    kind: AreaKind
    name: str
    squares: frozenset[Square]


@dataclass(frozen=True)
class Door:
    """A door on the edge between two orthogonally adjacent squares of different areas."""

    id: str
    a: Square
    b: Square
    secret: bool = False
    locked_by: str | None = None  # an artifact (a key) a hero must carry to open it


@dataclass(frozen=True)
class Furniture:
    id: str
    kind: str  # table, chest, throne, bookcase, tomb, rack, fireplace, cupboard, ...
    squares: tuple[Square, ...]


@dataclass(frozen=True)
class TrapDef:
    """A trap on a square (pit, falling_block, spear) or on a piece of furniture (chest)."""

    id: str
    kind: TrapKind
    square: Square | None = None
    furniture: str | None = None
    damage: int = 1  # chest traps only: Body lost when it springs


@dataclass(frozen=True)
class MonsterDef:
    id: str
    kind: str  # goblin, orc, abomination, skeleton, zombie, mummy, dread_warrior, gargoyle, ...
    square: Square
    name: str | None = None  # a named monster (a villain): "Vorgash the Cinder Lord"
    stats: MonsterStats | None = None  # the quest's own statistics (villains), any edition
    dread_spells: tuple[
        str, ...
    ] = ()  # Zargon's Dread spells this monster holds (docs/rules.md 8b)
    escape_to: Square | None = None  # where the Dread spell Escape takes it


@dataclass(frozen=True)
class SpecialTreasure:
    """Found by the first hero to search the room for treasure."""

    area: str
    name: str
    text: str
    gold: int = 0
    potions: int = 0
    artifact: str | None = None  # an artifact of data.ARTIFACTS the finder keeps


@dataclass(frozen=True)
class Quest:
    slug: str
    name: str
    width: int
    height: int
    parchment: str  # read to the heroes at the start
    notes: str  # for Zargon only
    areas: dict[str, Area]
    square_area: dict[Square, str]  # every playable square -> its area id
    entrance: str  # area id of the entrance room (revealed at the start)
    stairway: frozenset[Square]
    hero_starts: dict[str, Square]  # barbarian, dwarf, elf, wizard -> start square
    doors: tuple[Door, ...]
    blocked: frozenset[Square]
    furniture: tuple[Furniture, ...]
    traps: tuple[TrapDef, ...]
    monsters: tuple[MonsterDef, ...]
    villain: str  # MonsterDef.id that must be defeated
    wandering_monster: str  # a monster kind
    special_treasures: dict[str, SpecialTreasure] = field(default_factory=dict)  # area id ->
    reward_gold: int = 0  # split between the heroes when they win (campaigns)
    saga: str | None = None  # the campaign of quests it belongs to ("cinder_saga")
    saga_name: str | None = None  # "The Cinder Saga"
    chapter: int = 0  # its place in the saga, from 1

    @cached_property
    def monster_defs(self) -> dict[str, MonsterDef]:
        """The quest's monsters by id (cached; the quest never changes)."""
        return {m.id: m for m in self.monsters}
