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

Engine-only options (set by the site, not by a room's host): ``heroes`` (campaign heroes),
``auto_skip_empty_monster_phase`` and ``rules_revision``: the revision of the site's rules a game
is played by (left out: the newest, ``RULES_REVISION``). A rule the site changes after games were
launched applies only from the revision that brought it, so a game keeps the rules it started
with, plays on by them and replays exactly (docs/rules.md, "Rules revisions").
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
ENGINE_OPTIONS = ("heroes", "auto_skip_empty_monster_phase", "rules_revision")
# 1: the rules as first published. 2: a UK room has no attacks from a distance, and a locked
# room is sealed against Pass Through Rock (docs/rules.md 8, 10).
RULES_REVISION = 2
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
    revision = options.get("rules_revision", RULES_REVISION)
    if not isinstance(revision, int) or isinstance(revision, bool):
        problems.append('Option "rules_revision" must be a whole number.')
    elif not 1 <= revision <= RULES_REVISION:
        problems.append(f'Option "rules_revision" must be 1 to {RULES_REVISION}.')
    skip = options.get("auto_skip_empty_monster_phase", True)
    if not isinstance(skip, bool):
        problems.append('Option "auto_skip_empty_monster_phase" must be true or false.')
    if problems:
        raise OptionsError(" ".join(problems))


def option(s: State, key: str) -> Any:
    return s.options.get(key, DEFAULTS[key])


def rules_revision(s: State) -> int:
    """The revision of the site's rules this game is played by (see the module's docstring)."""
    revision: int = s.options.get("rules_revision", RULES_REVISION)
    return revision


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
