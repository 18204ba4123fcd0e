"""Quest files: reading and validating the YAML files that describe a quest.

The format is documented for quest authors in `docs/quest-format.md`. In short, a quest file is a
YAML mapping with a `map:` block (one character per square, one line per row, north to south),
an `areas:` table naming every character used in the map, and lists of doors, furniture, traps
and monsters placed on `[x, y]` squares (x from 0 west to east, y from 0 north to south).

- `parse_quest_file(path) -> Quest` reads a file and raises `QuestFileError` listing every problem.
- `validate_quest_file(path) -> list[str]` returns every problem (an empty list: the file is fine).
- `parse_quest_text(text, name)` / `validate_quest_text(text, name)` do the same for text held
  elsewhere (e.g. an admin's edit in the database); `name` is used in the messages.
- `python -m apps.games.heroquest.engine.questfile PATH...` prints OK or the problems
  (exit code 0 or 1).

Every problem names the file, the line and the field, e.g.
`ashen_vault.yaml line 42, doors[3].between: squares (4, 2) and (6, 2) are not adjacent`.
List indexes in field names count from 0.

The package: `schema` (limits, kinds, one pydantic model per entry), `locate` (lines and field
names), `checker` (every problem, then the engine's Quest), `render` (an ASCII plan), `cli` (the
command behind `__main__`). Pure Python (PyYAML and pydantic); no Django.
"""

from __future__ import annotations

from pathlib import Path

from apps.games.heroquest.engine.quest import Quest
from apps.games.heroquest.engine.questfile.checker import check_file, check_text, quest_or_raise
from apps.games.heroquest.engine.questfile.cli import main
from apps.games.heroquest.engine.questfile.render import MAP_LEGEND, render_map
from apps.games.heroquest.engine.questfile.schema import (
    FURNITURE_KINDS,
    MAX_HEIGHT,
    MAX_WIDTH,
    MONSTER_KINDS,
    QUESTS_DIR,
    SLUG_RE,
    TRAP_KINDS,
    QuestFileError,
)

__all__ = [
    "FURNITURE_KINDS",
    "MAP_LEGEND",
    "MAX_HEIGHT",
    "MAX_WIDTH",
    "MONSTER_KINDS",
    "QUESTS_DIR",
    "TRAP_KINDS",
    "QuestFileError",
    "main",
    "parse_quest_file",
    "parse_quest_text",
    "quest_path",
    "render_map",
    "validate_quest_file",
    "validate_quest_text",
]


def validate_quest_file(path: str | Path) -> list[str]:
    """Every problem in the quest file at `path`, as readable strings; [] if it is fine."""
    return check_file(path)[0]


def parse_quest_file(path: str | Path) -> Quest:
    """Read and validate a quest file; raise `QuestFileError` listing every problem."""
    return quest_or_raise(check_file(path))


def validate_quest_text(text: str, name: str = "quest.yaml") -> list[str]:
    """Like `validate_quest_file`, for the text of a quest file (`name` is used in messages)."""
    return check_text(text, name)[0]


def parse_quest_text(text: str, name: str = "quest.yaml") -> Quest:
    """Like `parse_quest_file`, for the text of a quest file (`name` is used in messages)."""
    return quest_or_raise(check_text(text, name))


def quest_path(name_or_path: str | Path) -> Path:
    """The file of a shipped quest ("ashen_vault") or the given path to a quest file."""
    text = str(name_or_path)
    if SLUG_RE.match(text):
        return QUESTS_DIR / f"{text}.yaml"
    return Path(name_or_path)
