"""Checking a game's log: replay the accepted actions from the seed and compare (`verify_quest`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from apps.games.heroquest import engine as rules
from apps.play.errors import GameNotFound
from apps.play.models import ABANDONED, Game, GameEvent, as_stored_json
from apps.play.selectors import game_quest, state_with_settings


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


def _first_difference(a: Any, b: Any, path: str = "") -> str | None:
    """Where two JSON values first differ, e.g. `heroes.elf.body: 3 != 4`; None if equal."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            where = f"{path}.{k}" if path else str(k)
            if k not in a or k not in b:
                mine, theirs = (repr(x[k]) if k in x else "missing" for x in (a, b))
                return f"{where}: {mine} != {theirs}"
            if (found := _first_difference(a[k], b[k], where)) is not None:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            if (found := _first_difference(x, y, f"{path}[{i}]")) is not None:
                return found
        if len(a) != len(b):
            return f"{path}: {len(a)} items != {len(b)} items"
        return None
    if a != b or type(a) is not type(b):
        return f"{path or 'value'}: {a!r} != {b!r}"
    return None


def game_verify(*, game_id: int) -> VerifyReport:
    """Replay the accepted actions from the seed and compare with the stored log and state."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise GameNotFound("There is no such game.")
    rows = list(game.events.order_by("seq"))
    for expected, row in enumerate(rows, start=1):
        if row.seq != expected:
            return VerifyReport(False, problem=f"the log has no entry {expected} (next: {row.seq})")

    quest = game_quest(game=game)
    commitment = game.seed_commitment or None  # games launched before commitments have none
    state = rules.new_game(quest, game.seats, game.seed, game.options, commitment=commitment)
    produced: list[dict[str, Any]] = as_stored_json(state.log)
    version = 0
    actions = events = 0

    def check_events(upto: int) -> str | None:
        """The event rows after the previous action must be exactly what the engine produced."""
        nonlocal events
        logged = [r for r in batch if r.kind == GameEvent.Kind.EVENT]
        if len(logged) != len(produced):
            return (
                f"version {upto}: {len(logged)} events logged, the replay produced {len(produced)}"
            )
        for row, event in zip(logged, produced, strict=True):
            if (diff := _first_difference(row.payload, event)) is not None:
                return f"log entry {row.seq} (version {upto}): {diff}"
            events += 1
        return None

    batch: list[GameEvent] = []
    for row in rows:
        if row.kind != GameEvent.Kind.ACTION:
            batch.append(row)
            continue
        if (problem := check_events(version)) is not None:
            return VerifyReport(False, actions, events, problem)
        version += 1
        if row.version != version:
            return VerifyReport(
                False, actions, events, f"log entry {row.seq}: version {row.version} != {version}"
            )
        seat = row.payload["seat"]
        state_with_settings(state, row.payload.get("settings", {}))
        try:
            transition = rules.apply(state, seat, rules.action_from_json(row.payload["action"]))
        except rules.IllegalAction as exc:
            problem = f"log entry {row.seq} (version {version}): the replay refused it: {exc}"
            return VerifyReport(False, actions, events, problem)
        state, produced, batch = transition.state, as_stored_json(transition.events), []
        actions += 1
    if (problem := check_events(version)) is not None:
        return VerifyReport(False, actions, events, problem)
    if version != game.version:
        problem = f"the log replays to version {version}, the game is at {game.version}"
        return VerifyReport(False, actions, events, problem)
    if (diff := _first_difference(as_stored_json(state.to_json()), game.state)) is not None:
        return VerifyReport(False, actions, events, f"state: {diff} (replayed != stored)")
    abandoned = game.outcome == ABANDONED and state.outcome is None  # an admin ended it
    if (state.outcome or "") != game.outcome and not abandoned:
        problem = f"outcome: {state.outcome!r} (replayed) != {game.outcome!r} (stored)"
        return VerifyReport(False, actions, events, problem)
    return VerifyReport(True, actions, events)
