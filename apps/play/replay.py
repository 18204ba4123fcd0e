"""Watching a finished quest again: its steps rebuilt from the seed and the log.

A step is the launch (step 0) or one accepted action: the board after it as the game shows a
finished game (its face's `replay_view`: everything revealed), the log entries it produced in
full, and every number it drew from the RNG. With the seed, revealed at the end
(apps/play/fairness.py), anyone can walk the dice stream and check each draw and each die in
the log against it (static/js/fairness.js).

Who may watch: the game's players once the quest is over, and anyone with its link
(`/replays/<token>/`, apps/play/links.py) once the host made the replay public. Nobody while
it runs: the replay would show the whole map.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from typing import Any

from apps.games.port import GameFace
from apps.play.errors import GameNotFound, ReplayBroken
from apps.play.models import Game
from apps.play.selectors import AnyUser, game_face_of, game_fairness, member_seat
from apps.play.walk import WalkRefused, game_log_walk, substance_difference

REPLAY_PAGE_MAX = 200


@dataclass(frozen=True)
class Step:
    """One step of a replay: the board after it, its round, its stored log entries, its draws."""

    seat: int | None  # who acted (None: the launch)
    action: dict[str, Any] | None
    face: GameFace
    state: Any  # its board is built when a page is (`face.replay_view`)
    round: int
    events: list[dict[str, Any]]
    draws: list[tuple[str, int, int]]


def game_for_replay(*, game_id: int, user: AnyUser) -> Game:
    """The game if `user` plays in it and may watch its replay (GameNotFound otherwise,
    existence unsaid). Anyone else watches a public replay by its link (apps/play/links.py),
    never by the sequential id."""
    games = Game.objects.select_related("room").annotate(member_seat=member_seat(user))
    game = games.filter(pk=game_id).first()
    if game is None or game.member_seat is None:
        raise GameNotFound("There is no such game.")
    if not game.outcome:  # the replay shows the whole map: never while the quest runs
        raise GameNotFound("The replay opens when the quest is over.")
    return game


def full_entry(event: dict[str, Any]) -> dict[str, Any]:
    """A log entry as the replay shows it after the end: in full, whoever saw it then."""
    return {k: v for k, v in event.items() if k not in ("audience", "redacted")}


def _steps(game: Game) -> list[Step]:
    """Replay the log from the seed; each step keeps the log rows it produced, as stored."""
    face: GameFace = game_face_of(game)
    steps = []
    try:
        for walked in game_log_walk(game=game):
            events = [row.payload for row in walked.stored]
            changed = len(walked.produced) != len(events) or any(
                substance_difference(e, p) is not None
                for e, p in zip(events, walked.produced, strict=False)
            )
            if changed:  # the log was changed, or the rules
                raise ReplayBroken("This game's log does not replay from its seed.")
            round_ = face.round_of(walked.state)
            steps.append(
                Step(walked.seat, walked.action, face, walked.state, round_, events, walked.draws)
            )
    except WalkRefused:
        raise ReplayBroken("This game's log does not replay from its seed.") from None
    return steps


@functools.lru_cache(maxsize=4)
def _cached_steps(game_id: int, version: int, outcome: str, launched: str) -> list[Step]:
    """A finished game never changes: its steps are rebuilt once per process (and version)."""
    return _steps(Game.objects.get(pk=game_id))


def _identity(game: Game) -> tuple[int, int, str, str]:
    """What tells one finished game's replay from another's (ids come back after a rollback)."""
    return (game.pk, game.version, game.outcome, game.created.isoformat())


def replay_steps(*, game: Game) -> list[Step]:
    return _cached_steps(*_identity(game))


@functools.lru_cache(maxsize=32)
def _cached_page(identity: tuple[int, int, str, str], start: int, count: int) -> str:
    """A page's steps as JSON text: the views are most of a replay's cost, built once a page."""
    steps = _cached_steps(*identity)
    return json.dumps(page_json(steps[start : start + count], start), separators=(",", ":"))


def view_changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """What changed from one step's view to the next: its keys (and the map's) that differ.

    A quest's map is most of a view and hardly changes in one step, so each page of a replay
    sends its first view whole and then only the changes (a client merges them in order).
    """
    changed = {k: v for k, v in after.items() if before.get(k) != v}
    if "map" in changed:
        old_map = before.get("map", {})
        changed["map"] = {k: v for k, v in after["map"].items() if old_map.get(k) != v}
    return changed


def step_json(number: int, step: Step, view: dict[str, Any], whole: bool) -> dict[str, Any]:
    return {
        "step": number,
        "seat": step.seat,
        "action": step.action,
        "round": step.round,
        "view" if whole else "view_changes": view,
        "entries": [full_entry(e) for e in step.events],
        "draws": [list(draw) for draw in step.draws],
    }


def page_json(steps: list[Step], start: int) -> list[dict[str, Any]]:
    """Steps as sent: the first with its whole view, the others with `view_changes`."""
    out, before = [], None
    for n, step in enumerate(steps):
        view = step.face.replay_view(step.state)
        changes = view if before is None else view_changes(before, view)
        out.append(step_json(start + n, step, changes, whole=before is None))
        before = view
    return out


def game_replay_page(
    *, game_id: int, user: AnyUser, start: int = 0, count: int = 50
) -> dict[str, Any]:
    """Steps `start` to `start + count - 1` of the replay, with the revealed seed.

    Each step: `view` (the first of the page) or `view_changes` (the others: the view's keys,
    and the map's, that changed since the step before), `entries`, `draws`, `round`, `action`.
    """
    return json.loads(game_replay_page_json(game_id=game_id, user=user, start=start, count=count))


def game_replay_page_json(*, game_id: int, user: AnyUser, start: int = 0, count: int = 50) -> str:
    """`game_replay_page` as JSON text, each page built once per process."""
    return replay_page_json(game_for_replay(game_id=game_id, user=user), start, count)


def replay_page_json(game: Game, start: int = 0, count: int = 50) -> str:
    """A page of the replay of `game` (finished; the caller checked who may watch it)."""
    total = len(replay_steps(game=game))
    start = max(0, start)
    count = max(1, min(count, REPLAY_PAGE_MAX))
    head = {
        "game_id": game.pk,
        "total": total,
        "start": start,
        "outcome": game.outcome,
        "fairness": game_fairness(game=game).as_json(),
    }
    steps = _cached_page(_identity(game), start, count)
    return json.dumps(head, separators=(",", ":"))[:-1] + f',"steps":{steps}}}'
