"""Watching a finished quest again: its steps rebuilt from the seed and the log.

A step is the launch (step 0) or one accepted action: the board after it as Zargon saw it (the
same `seat_view` code as the players', so hidden information is decided in one place; after the
end Zargon's view is the whole map), the log entries it produced in full, and every number it
drew from the RNG. With the seed, revealed at the end (apps/play/fairness.py), anyone can walk
the dice stream and check each draw and each die in the log against it (static/js/fairness.js).

Who may watch: the game's players once the quest is over, and anyone with its link
(`/replays/<token>/`, apps/play/links.py) once the host made the replay public. Nobody while
it runs: the replay would show the whole map.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from typing import Any

from apps.games.heroquest import engine as rules
from apps.games.heroquest.engine.data import ZARGON_SEAT
from apps.games.heroquest.engine.dice import Draw
from apps.play.errors import GameNotFound, ReplayBroken
from apps.play.models import Game, GameEvent, as_stored_json
from apps.play.selectors import (
    AnyUser,
    game_fairness,
    game_quest,
    member_seat,
    state_with_settings,
)

REPLAY_PAGE_MAX = 200
# What a replayed board leaves out of the seat view: the log comes step by step instead, and
# nobody acts in a replay.
_VIEW_OMITS = ("log", "legal_actions")


@dataclass(frozen=True)
class Step:
    """One step of a replay: the state after it, its stored log entries, its draws."""

    seat: int | None  # who acted (None: the launch)
    action: dict[str, Any] | None
    state: rules.State
    events: list[dict[str, Any]]
    draws: list[Draw]


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
    rows = list(game.events.exclude(kind=GameEvent.Kind.NOTE).order_by("seq"))
    quest = game_quest(game=game)
    commitment = game.seed_commitment or None
    start = rules.start_game(quest, game.seats, game.seed, game.options, commitment=commitment)
    transitions: list[tuple[int | None, dict[str, Any] | None, rules.Transition]] = [
        (None, None, start)
    ]
    logged: list[list[dict[str, Any]]] = [[]]
    for row in rows:
        if row.kind == GameEvent.Kind.EVENT:
            logged[-1].append(row.payload)
            continue
        state = transitions[-1][2].state
        state_with_settings(state, row.payload.get("settings", {}))
        seat, action = row.payload["seat"], row.payload["action"]
        transitions.append((seat, action, rules.apply(state, seat, action)))
        logged.append([])
    steps = []
    for (seat, action, transition), events in zip(transitions, logged, strict=True):
        if as_stored_json(transition.events) != events:  # the log was changed, or the rules
            raise ReplayBroken("This game's log does not replay from its seed.")
        steps.append(Step(seat, action, transition.state, events, transition.draws))
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


def replay_view(step: Step) -> dict[str, Any]:
    """The board after `step`: Zargon's seat view (the whole map), less the log and actions."""
    view = rules.seat_view(step.state, ZARGON_SEAT)
    for key in _VIEW_OMITS:
        view.pop(key)
    return view


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
        "round": step.state.round,
        "view" if whole else "view_changes": view,
        "entries": [full_entry(e) for e in step.events],
        "draws": [list(draw) for draw in step.draws],
    }


def page_json(steps: list[Step], start: int) -> list[dict[str, Any]]:
    """Steps as sent: the first with its whole view, the others with `view_changes`."""
    out, before = [], None
    for n, step in enumerate(steps):
        view = replay_view(step)
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
