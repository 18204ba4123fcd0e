"""One walk through a game's log, from its seed: what the replay shows and `verify_quest` checks.

The walk starts the game again from its seed and options (step 0, the launch), then plays each
accepted action of the log with the settings its row recorded, and yields every step with the
events it produced beside the event rows stored for it. Table notes (pauses, seats given) are
outside the game and skipped.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from apps.games.port import Refusal
from apps.play.models import Game, GameEvent, as_stored_json
from apps.play.selectors import game_face_of, game_scenario


@dataclass
class WalkStep:
    """One step: the launch (`row` None) or one accepted action, and what it produced."""

    row: GameEvent | None  # the action's log row
    state: Any  # the state after the step
    produced: list[dict[str, Any]]  # the events the game produced, as stored JSON
    draws: list[tuple[str, int, int]]
    stored: list[GameEvent] = field(default_factory=list)  # the event rows logged for it

    @property
    def seat(self) -> int | None:
        return None if self.row is None else self.row.payload["seat"]

    @property
    def action(self) -> dict[str, Any] | None:
        return None if self.row is None else self.row.payload["action"]


# What a game may word better after a game was logged: its texts are the site's own words, not
# part of what happened. A replay shows the stored texts and checks everything else.
WORDING = frozenset({"text"})


def substance_difference(stored: Any, produced: Any, path: str = "") -> str | None:
    """Where `produced` first differs from `stored` in substance, e.g. `dice[0]: 3 != 4`; None
    if they agree. Texts are not compared, nor keys only `produced` has (a field a later
    version of the game adds to its events); every key `stored` has must agree."""
    if isinstance(stored, dict) and isinstance(produced, dict):
        for key in sorted(stored, key=str):
            if key in WORDING:
                continue
            where = f"{path}.{key}" if path else str(key)
            if key not in produced:
                return f"{where}: {stored[key]!r} != missing"
            found = substance_difference(stored[key], produced[key], where)
            if found is not None:
                return found
        return None
    if isinstance(stored, list) and isinstance(produced, list):
        for i, (x, y) in enumerate(zip(stored, produced, strict=False)):
            if (found := substance_difference(x, y, f"{path}[{i}]")) is not None:
                return found
        if len(stored) != len(produced):
            return f"{path}: {len(stored)} items != {len(produced)} items"
        return None
    if stored != produced or type(stored) is not type(produced):
        return f"{path or 'value'}: {stored!r} != {produced!r}"
    return None


class WalkRefused(Exception):
    """The game refused an action of the log when it was played again."""

    def __init__(self, row: GameEvent, refusal: Refusal) -> None:
        super().__init__(refusal.reason)
        self.row = row
        self.reason = refusal.reason


def _grouped(rows: list[GameEvent]) -> Iterator[tuple[GameEvent | None, list[GameEvent]]]:
    """The log's rows as (action row, its event rows), the launch's events first."""
    action: GameEvent | None = None
    events: list[GameEvent] = []
    for row in rows:
        if row.kind == GameEvent.Kind.NOTE:
            continue
        if row.kind == GameEvent.Kind.ACTION:
            yield action, events
            action, events = row, []
        else:
            events.append(row)
    yield action, events


def game_log_walk(*, game: Game, rows: list[GameEvent] | None = None) -> Iterator[WalkStep]:
    """Every step of `game` played again from its seed (raises WalkRefused on a refusal)."""
    face = game_face_of(game)
    if rows is None:
        rows = list(game.events.order_by("seq"))
    commitment = game.seed_commitment or None  # games launched before commitments have none
    start = face.new_game(
        game_scenario(game=game), game.seats, game.seed, game.options, commitment=commitment
    )
    state = start.state
    for action_row, event_rows in _grouped(rows):
        if action_row is None:
            produced, draws = as_stored_json(start.events), list(start.draws)
        else:
            settings = action_row.payload.get("settings")
            if settings:
                state = face.with_settings(state, settings)
            seat, action = action_row.payload["seat"], action_row.payload["action"]
            try:
                step = face.apply(state, seat, action)
            except Refusal as refusal:
                raise WalkRefused(action_row, refusal) from None
            state, produced, draws = step.state, as_stored_json(step.events), list(step.draws)
        yield WalkStep(action_row, state, produced, draws, event_rows)
