"""The tales as data (docs/zagor/rules.md section 15): JSON files in `scenarios/`, parsed and
checked here."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

SCENARIO_DIR = Path(__file__).parent / "scenarios"
SLUGS = ("enchanted_orb", "howling_spectre", "crypt_of_zagor")
CHEST_MODES = {"orb": (1,), "spectre": (1, 2), "crypt": (1, 2, 3)}
ROUND_LIMITS = (5, 200)


@dataclass(frozen=True)
class Tale:
    slug: str
    name: str
    summary: str
    story: str
    levels: tuple[int, ...]
    gold: int
    chest_mode: str
    goal: str
    round_limit: int


def _load(source: str) -> Any:
    try:
        return json.loads(source)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"The tale is not valid JSON: {exc}") from exc


def scenario_problems(source: str) -> list[str]:
    try:
        data = _load(source)
    except ValueError as exc:
        return [str(exc)]
    if not isinstance(data, dict):
        return ["A tale is a JSON object."]
    problems: list[str] = []
    for name in ("slug", "name", "summary", "story", "goal"):
        if not isinstance(data.get(name), str) or not data.get(name):
            problems.append(f"'{name}' must be non-empty text.")
    mode = data.get("chests")
    if mode not in CHEST_MODES:
        problems.append("'chests' must be one of: orb, spectre, crypt.")
    levels = data.get("levels")
    if not isinstance(levels, list) or not all(isinstance(x, int) for x in levels):
        problems.append("'levels' must be a list of level numbers.")
    elif mode in CHEST_MODES and tuple(levels) != CHEST_MODES[mode]:
        problems.append(f"A '{mode}' tale plays levels {list(CHEST_MODES[mode])}.")
    gold = data.get("gold")
    if not isinstance(gold, int) or isinstance(gold, bool) or not 0 <= gold <= 100:
        problems.append("'gold' must be a whole number from 0 to 100.")
    limit = data.get("round_limit")
    low, high = ROUND_LIMITS
    if not isinstance(limit, int) or isinstance(limit, bool) or not low <= limit <= high:
        problems.append(f"'round_limit' must be a whole number from {low} to {high}.")
    unknown = sorted(
        set(data)
        - {"slug", "name", "summary", "story", "goal", "chests", "levels", "gold", "round_limit"}
    )
    if unknown:
        problems.append(f"Unknown fields: {', '.join(unknown)}.")
    return problems


def scenario_parse(slug: str, source: str) -> Tale:
    problems = scenario_problems(source)
    if problems:
        raise ValueError("; ".join(problems))
    d = _load(source)
    return Tale(
        slug,
        d["name"],
        d["summary"],
        d["story"],
        tuple(d["levels"]),
        d["gold"],
        d["chests"],
        d["goal"],
        d["round_limit"],
    )


@cache
def shipped_source(slug: str) -> str:
    return (SCENARIO_DIR / f"{slug}.json").read_text(encoding="utf-8")


@cache
def shipped(slug: str) -> Tale:
    return scenario_parse(slug, shipped_source(slug))
