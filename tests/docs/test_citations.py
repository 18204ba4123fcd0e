"""The rules and the design are the project's own documents: every citation points into docs/."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SEARCHED = ("apps", "config", "docs", "static", "templates", "tests", "README.md", "pyproject.toml")
SUFFIXES = {".py", ".md", ".js", ".css", ".html", ".toml", ".yaml", ".txt"}
# `rules.md` or `design.md` not written as `docs/rules.md`, `docs/design.md` (or, for Legend of
# Zagor's own rules, `docs/zagor/rules.md`).
OUTSIDE = re.compile(r"(?<!docs/)(?<!docs/zagor/)\b(?:rules|design)\.md\b")


def _files() -> list[Path]:
    found: list[Path] = []
    for name in SEARCHED:
        path = ROOT / name
        candidates = [path] if path.is_file() else path.rglob("*")
        found += [p for p in candidates if p.is_file() and p.suffix in SUFFIXES]
    return found


def test_the_spec_is_in_the_repository() -> None:
    assert (ROOT / "docs" / "rules.md").read_text(encoding="utf-8").startswith("#")
    assert (ROOT / "docs" / "design.md").read_text(encoding="utf-8").startswith("#")


def test_every_citation_of_the_rules_or_the_design_points_into_docs() -> None:
    outside = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in _files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if OUTSIDE.search(line) and path != Path(__file__)
    ]
    assert outside == []
