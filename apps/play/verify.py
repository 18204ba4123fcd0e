"""Checking a game's log: replay the accepted actions from the seed and compare (`verify_quest`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from apps.play.errors import GameNotFound
from apps.play.models import ABANDONED, Game, as_stored_json
from apps.play.selectors import game_face_of
from apps.play.walk import WalkRefused, game_log_walk, substance_difference


@dataclass
class VerifyReport:
    ok: bool
    actions: int = 0
    events: int = 0
    problem: str | None = None

    def __str__(self) -> str:
        if self.ok:
            return f"OK: {self.actions} actions, {self.events} events replayed"
        return f"MISMATCH: {self.problem}"


def game_verify(*, game_id: int) -> VerifyReport:
    """Replay the accepted actions from the seed and compare with the stored log and state."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise GameNotFound("There is no such game.")
    rows = list(game.events.order_by("seq"))
    for expected, row in enumerate(rows, start=1):
        if row.seq != expected:
            return VerifyReport(False, problem=f"the log has no entry {expected} (next: {row.seq})")
    face = game_face_of(game)
    actions = events = version = 0
    state: Any = None
    walk = game_log_walk(game=game, rows=rows)
    while True:
        try:
            step = next(walk)
        except StopIteration:
            break
        except WalkRefused as exc:
            where = f"log entry {exc.row.seq} (version {version + 1})"
            return VerifyReport(False, actions, events, f"{where}: the replay refused it: {exc}")
        if step.row is not None:
            version += 1
            actions += 1
            if step.row.version != version:
                problem = f"log entry {step.row.seq}: version {step.row.version} != {version}"
                return VerifyReport(False, actions - 1, events, problem)
        if len(step.stored) != len(step.produced):
            problem = (
                f"version {version}: {len(step.stored)} events logged, the replay produced "
                f"{len(step.produced)}"
            )
            return VerifyReport(False, actions, events, problem)
        for row, event in zip(step.stored, step.produced, strict=True):
            if (diff := substance_difference(row.payload, event)) is not None:
                return VerifyReport(
                    False, actions, events, f"log entry {row.seq} (version {version}): {diff}"
                )
            events += 1
        state = step.state
    if version != game.version:
        problem = f"the log replays to version {version}, the game is at {game.version}"
        return VerifyReport(False, actions, events, problem)
    stored_state = as_stored_json(face.state_to_json(state))
    if (diff := substance_difference(game.state, stored_state)) is not None:
        return VerifyReport(False, actions, events, f"state: {diff} (stored != replayed)")
    outcome = face.outcome_of(state)
    abandoned = game.outcome == ABANDONED and outcome is None  # an admin ended it
    if (outcome or "") != game.outcome and not abandoned:
        problem = f"outcome: {outcome!r} (replayed) != {game.outcome!r} (stored)"
        return VerifyReport(False, actions, events, problem)
    return VerifyReport(True, actions, events)
