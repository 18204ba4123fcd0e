"""The platform names no game: no HeroQuest hero, Zargon or HeroQuest rule in its code.

Everything a game knows comes through its face (apps/games/port.py). Docstrings and comments
may give a game as an example ("HeroQuest: Zargon"); identifiers and the strings the code uses
may not. Migrations are history and are left out (a migration may freeze a game's data).
"""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PLATFORM = ["apps/play", "apps/rooms", "apps/notifications", "apps/accounts", "apps/core",
            "apps/quests", "config"]  # fmt: skip
GAME_WORDS = re.compile(
    r"barbarian|dwarf|\belf\b|wizard|zargon|heroquest|auto_drink|monster|treasure|"
    r"body_points|mind_points|spell_draft|edition",
    re.IGNORECASE,
)


def _platform_files() -> list[Path]:
    files = []
    for folder in PLATFORM:
        files += [p for p in (ROOT / folder).rglob("*.py") if "migrations" not in p.parts]
    return sorted(files)


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def names_of_games(path: Path) -> list[str]:
    """The identifiers and code strings of `path` that name a game's pieces or rules."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = _docstrings(tree)
    hits = []
    for node in ast.walk(tree):
        words: list[str] = []
        if isinstance(node, ast.Name):
            words = [node.id]
        elif isinstance(node, ast.Attribute):
            words = [node.attr]
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            words = [node.name]
        elif isinstance(node, ast.arg | ast.keyword):
            words = [node.arg or ""]
        elif isinstance(node, ast.alias):
            words = [node.name, node.asname or ""]
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
        ):
            words = [node.value]
        hits += [f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')}: {w!r}"
                 for w in words if GAME_WORDS.search(w)]  # fmt: skip
    return hits


@pytest.mark.parametrize("path", _platform_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_platform_module_names_a_game(path: Path) -> None:
    assert names_of_games(path) == []


def test_the_check_catches_a_module_that_names_a_hero(tmp_path: Path) -> None:
    module = ROOT / "apps" / "core" / "_probe_names_a_hero.py"
    module.write_text('"""A probe."""\n\nSEAT = {"zargon": 1}\n', encoding="utf-8")
    try:
        assert names_of_games(module) == ["apps/core/_probe_names_a_hero.py:3: 'zargon'"]
    finally:
        module.unlink()
