"""The shape of a quest file: its limits, the kinds it may name, and a pydantic model per entry.

Meaning (areas that exist, squares on the map, doors between neighbours...) is checked afterwards
by `checker.Checker`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
)

from apps.games.heroquest.engine.data import HERO_ORDER, MONSTERS
from apps.games.heroquest.engine.questfile.locate import shown

QUESTS_DIR = Path(__file__).resolve().parent.parent.parent / "quests"
MAX_WIDTH = 26
MAX_HEIGHT = 19
ROCK_CHARS = frozenset("#.")
# The names a quest may use are the engine's own (one table, apps/games/heroquest/engine/data.py).
HERO_NAMES = HERO_ORDER
MONSTER_KINDS = tuple(MONSTERS)
TRAP_KINDS = ("pit", "falling_block", "spear", "chest")
SQUARE_TRAP_KINDS = ("pit", "falling_block", "spear")
FURNITURE_KINDS = (
    "alchemist_bench",
    "bookcase",
    "chest",
    "cupboard",
    "fireplace",
    "rack",
    "sorcerer_table",
    "table",
    "throne",
    "tomb",
    "weapons_rack",
)
ID_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
SLUG_RE = re.compile(r"^[a-z][a-z0-9_]*$")


class QuestFileError(Exception):
    """A quest file cannot be used; `problems` lists every problem found, one per string."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems: list[str] = list(problems)
        super().__init__("\n".join(self.problems))


def _square(value: Any) -> Any:
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return (value[0], value[1])
    raise ValueError(f"a square is written [x, y] with two whole numbers, got {shown(value)}")


def _square_pair(value: Any) -> Any:
    if isinstance(value, list | tuple) and len(value) == 2:
        return value
    raise ValueError(f"write the two squares as [[x, y], [x, y]], got {shown(value)}")


def _area_ref(value: Any) -> Any:
    # YAML reads a bare digit (`area: 3`) as a number; area keys are map characters.
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 9:
        return str(value)
    return value


SquareIn = Annotated[tuple[int, int], BeforeValidator(_square)]
NonNegInt = Annotated[StrictInt, Field(ge=0)]
Text = Annotated[StrictStr, Field(min_length=1)]


class Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class AreaSpec(Spec):
    kind: Literal["room", "passage"]
    name: Text
    entrance: StrictBool = False


class DoorSpec(Spec):
    id: StrictStr
    between: Annotated[tuple[SquareIn, SquareIn], BeforeValidator(_square_pair)]
    secret: StrictBool = False
    locked_by: Text | None = None  # a key artifact (data.ARTIFACTS) that opens it


class FurnitureSpec(Spec):
    id: StrictStr
    kind: StrictStr
    squares: Annotated[list[SquareIn], Field(min_length=1)]


class TrapSpec(Spec):
    id: StrictStr
    kind: StrictStr
    at: SquareIn | None = None
    furniture: StrictStr | None = None
    damage: StrictInt | None = None


class StatsSpec(Spec):
    """A quest's own statistics for a monster (its villain keeps them in every edition)."""

    move: NonNegInt
    attack: Annotated[StrictInt, Field(ge=1)]
    defend: NonNegInt
    body: Annotated[StrictInt, Field(ge=1)]
    mind: NonNegInt
    undead: StrictBool = False


class MonsterSpec(Spec):
    id: StrictStr
    kind: StrictStr
    at: SquareIn
    name: Text | None = None
    stats: StatsSpec | None = None
    dread_spells: list[StrictStr] = []
    escape_to: SquareIn | None = None


class SagaSpec(Spec):
    """The campaign of quests a quest belongs to, and its place in it."""

    id: Annotated[StrictStr, Field(pattern=r"^[a-z][a-z0-9_]*$")]
    name: Text
    chapter: Annotated[StrictInt, Field(ge=1)]


class TreasureSpec(Spec):
    area: Annotated[StrictStr, BeforeValidator(_area_ref)]
    name: Text
    text: Text
    gold: NonNegInt = 0
    potions: NonNegInt = 0
    artifact: Text | None = None  # an artifact of data.ARTIFACTS the finder keeps


class HeroesSpec(Spec):
    barbarian: SquareIn
    dwarf: SquareIn
    elf: SquareIn
    wizard: SquareIn


EXAMPLES: dict[str, str] = {
    "AreaSpec": "{kind: room, name: Guard Room}",
    "DoorSpec": "{id: door_1, between: [[4, 2], [5, 2]]}",
    "FurnitureSpec": "{id: table_1, kind: table, squares: [[3, 4], [4, 4]]}",
    "TrapSpec": "{id: pit_1, kind: pit, at: [6, 2]}",
    "MonsterSpec": "{id: orc_1, kind: orc, at: [7, 3]}",
    "StatsSpec": "{move: 6, attack: 4, defend: 4, body: 5, mind: 4}",
    "SagaSpec": "{id: cinder_saga, name: The Cinder Saga, chapter: 2}",
    "TreasureSpec": "{area: K, name: ..., text: ..., gold: 100}",
    "HeroesSpec": "{barbarian: [1, 1], dwarf: [2, 1], elf: [1, 2], wizard: [2, 2]}",
}

# Top-level keys -> required? Lists are validated entry by entry.
TOP_KEYS: dict[str, bool] = {
    "name": True,
    "slug": True,
    "parchment": True,
    "notes": True,
    "wandering_monster": True,
    "villain": True,
    "reward_gold": False,
    "map": True,
    "areas": True,
    "stairway": True,
    "heroes": True,
    "doors": False,
    "blocked": False,
    "furniture": False,
    "traps": False,
    "monsters": True,
    "special_treasures": False,
    "saga": False,
}

TEXT = TypeAdapter(Text)
STR = TypeAdapter(StrictStr)
NONNEG = TypeAdapter(NonNegInt)
SQUARE = TypeAdapter(SquareIn)
