"""Room options a game is played with (docs/rules.md 3, 8, 9) and what they change.

`new_game` refuses an unknown or malformed option (`OptionsError`, a `ValueError` saying what is
wrong); the rooms service checks a room's options with `options_problems` before it stores them,
so a room never holds an option the engine would not honour.

Room options (all optional):
- ``edition``: ``"us"`` (default) or ``"uk"``: under the UK rules every monster of the table has
  1 Body (a quest's villain keeps its stats) and no weapon attacks diagonally (docs/rules.md 9).
- ``spell_draft``: ``false`` (default: the Elf holds Earth, the Wizard Air, Fire and Water) or
  ``true``: before the first turn the Wizard picks a spell element, then the Elf, then the Wizard
  takes the other two (docs/rules.md 8).
- ``heroes_pass_heroes``: ``false`` (default) or ``true``: a hero may move through squares of
  other heroes, never stopping on one (docs/rules.md 3).

Engine-only options (set by the site, not by a room's host): ``heroes`` (campaign heroes) and
``auto_skip_empty_monster_phase``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .data import MONSTERS, MonsterStats

if TYPE_CHECKING:
    from .state import MonsterState, State

EDITIONS = ("us", "uk")
ROOM_OPTIONS: dict[str, str] = {
    "edition": 'the rules edition, "us" or "uk"',
    "spell_draft": "true or false: the Wizard and the Elf draft their spell elements",
    "heroes_pass_heroes": "true or false: heroes may move through other heroes",
}
ENGINE_OPTIONS = ("heroes", "auto_skip_empty_monster_phase")
DEFAULTS: dict[str, Any] = {"edition": "us", "spell_draft": False, "heroes_pass_heroes": False}


class OptionsError(ValueError):
    """A game option is unknown or malformed; the message says which and why."""


def room_option_problems(options: Any) -> list[str]:
    """Every problem with a room's options (only the room options are allowed here)."""
    if not isinstance(options, dict):
        return ["The options must be a mapping of option names to values."]
    problems = []
    for key, value in options.items():
        if key not in ROOM_OPTIONS:
            known = ", ".join(ROOM_OPTIONS)
            problems.append(f"Unknown option {key!r} (known options: {known}).")
            continue
        problem = _value_problem(key, value)
        if problem:
            problems.append(problem)
    return problems


def _value_problem(key: str, value: Any) -> str | None:
    if key == "edition":
        if value not in EDITIONS:
            return f'Option "edition" must be "us" or "uk", not {value!r}.'
        return None
    if not isinstance(value, bool):
        return f'Option "{key}" must be true or false, not {value!r}.'
    return None


def check_game_options(options: dict[str, Any]) -> None:
    """Raise `OptionsError` unless every option is known and well formed (room or engine)."""
    problems = room_option_problems({k: v for k, v in options.items() if k not in ENGINE_OPTIONS})
    if "heroes" in options and not isinstance(options["heroes"], dict):
        problems.append('Option "heroes" must be a mapping of hero names to campaign heroes.')
    skip = options.get("auto_skip_empty_monster_phase", True)
    if not isinstance(skip, bool):
        problems.append('Option "auto_skip_empty_monster_phase" must be true or false.')
    if problems:
        raise OptionsError(" ".join(problems))


def option(s: State, key: str) -> Any:
    return s.options.get(key, DEFAULTS[key])


def in_force(options: dict[str, Any]) -> dict[str, Any]:
    """The room options a game is played with, defaults filled in (for pages and headers)."""
    return {key: options.get(key, default) for key, default in DEFAULTS.items()}


def describe(options: dict[str, Any]) -> list[str]:
    """The options in force, in a player's words: ["US edition", "Spell draft", ...]."""
    chosen = in_force(options)
    out = [f"{chosen['edition'].upper()} edition rules"]
    out.append("Spell draft" if chosen["spell_draft"] else "Fixed spells (Elf: Earth)")
    if chosen["heroes_pass_heroes"]:
        out.append("Heroes may pass heroes")
    return out


# --- monster statistics ------------------------------------------------------------------------
def stats_for_kind(s: State, kind: str) -> MonsterStats:
    """A monster kind's statistics in this game's edition (UK: 1 Body, docs/rules.md 9)."""
    stats = MONSTERS[kind]
    if option(s, "edition") == "uk" and stats.body != 1:
        stats = replace(stats, body=1)
    return stats


def monster_stats(s: State, m: MonsterState) -> MonsterStats:
    """This monster's statistics: its quest's own for a monster the quest gives stats (a
    villain keeps them in every edition), else its kind's in this game's edition."""
    quest_def = s.quest.monster_defs.get(m.key)
    if quest_def is not None and quest_def.stats is not None:
        return quest_def.stats
    if m.key == s.quest.villain:
        return MONSTERS[m.kind]
    return stats_for_kind(s, m.kind)
