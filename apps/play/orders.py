"""Standing orders: a seat plays its next turn ahead of time, and the site plays it for them
(docs/design.md, "Standing orders").

A player queues orders while waiting (`game_orders_set`: the game judges them on what the seat
may see, `StandingOrders.order_problems`); they are the seat's own, kept on the game row
(`Game.orders`) and shown to nobody else: never in a view, a frame, the log or the replay. When
the seat's turn comes, the action service enqueues `play.orders_play` after its commit, as it
does for the AI's seat, and the task plays the orders with `orders_play`: each step the game
picks (`next_order_step`, always one of the seat's legal actions) goes through the action service
as a system action, one transaction each, so every step is announced and the boards move.

After each step the game compares the seat's views before and after it
(`order_interruption`): the first change that matters (HeroQuest: a room or monster revealed, a
trap sprung, a monster in sight, Body lost) stops the orders, in the same transaction as the
step, and the seat is told why; the rest of the turn is the player's and nothing more is played.

Each step is keyed by (game, version) and sent with the version it was chosen in, so a second
runner either replays the same receipt or finds the game moved on: a step is played once.
"""

from __future__ import annotations

import functools
import logging
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from apps.games.port import Json, StandingOrders
from apps.notifications.services import Kind, notification_send
from apps.play.clock import seat_users
from apps.play.errors import GameNotFound, OrdersRefused, PlayError, StaleVersion
from apps.play.models import Game
from apps.play.notices import game_topic, game_url
from apps.play.selectors import (
    AnyUser,
    game_face_of,
    game_membership,
    game_state_in_play,
    orders_face,
    seat_orders,
)
from apps.play.services import game_system_act, system_key
from apps.play.tasks import orders_enqueue
from apps.rooms.models import Room

logger = logging.getLogger(__name__)

# A turn is a few dozen steps; this only stops a runaway loop.
MAX_ORDER_STEPS = 500
# The sweep plays orders left waiting this long after their turn came (a lost task).
STALLED_AFTER = timedelta(minutes=2)


@dataclass(frozen=True)
class SeatOrdersOut:
    """A seat's standing orders as its player reads them."""

    orders: Json
    lines: list[str]
    note: str  # why the last orders stopped (empty: they did not, or none ran)
    note_version: int | None

    def as_json(self) -> dict[str, Any]:
        return {
            "orders": self.orders,
            "lines": self.lines,
            "note": self.note,
            "note_version": self.note_version,
        }


def _out(game: Game, seat: int, state: Any) -> SeatOrdersOut:
    face = orders_face(game_face_of(game))
    entry = dict(game.orders.get(str(seat)) or {})
    orders = dict(entry.get("orders") or {})
    lines = face.order_lines(state, seat, orders) if face is not None and orders else []
    return SeatOrdersOut(
        orders=orders,
        lines=lines,
        note=str(entry.get("note") or ""),
        note_version=entry.get("version"),
    )


def _player_seat(game_id: int, user: AnyUser) -> tuple[Game, int]:
    game, seat = game_membership(game_id=game_id, user=user)  # players only: 404 otherwise
    return game, seat


def game_orders_read(*, game_id: int, user: AnyUser) -> SeatOrdersOut:
    """The standing orders of the seat `user` plays (GameNotFound for anyone else)."""
    game, seat = _player_seat(game_id, user)
    return _out(game, seat, game_state_in_play(game=game))


def _write(game: Game, seat: int, entry: dict[str, Any]) -> None:
    """Store one seat's entry; the caller holds the game row's lock."""
    game.orders = {**game.orders, str(seat): entry}
    Game.objects.filter(pk=game.pk).update(orders=game.orders)


def game_orders_set(*, game_id: int, user: AnyUser, orders: Json) -> SeatOrdersOut:
    """Queue standing orders for the seat `user` plays (they replace its earlier ones).

    Refused (OrdersRefused, every problem listed) unless the game takes them as they stand now,
    judged on what the seat may see. If it is already the seat's turn they start at once.
    """
    _, seat = _player_seat(game_id, user)
    with transaction.atomic():
        game = Game.objects.select_for_update(of=("self",)).select_related("room").get(pk=game_id)
        if game.outcome:
            raise OrdersRefused("The game is over.")
        face = orders_face(game_face_of(game))
        if face is None:
            raise OrdersRefused("This game takes no standing orders.")
        if not isinstance(orders, dict):
            raise OrdersRefused("Orders must be a JSON object.")
        state = game_state_in_play(game=game)
        problems = face.order_problems(state, seat, orders)
        if problems:
            raise OrdersRefused(" ".join(problems))
        _write(game, seat, {"orders": orders, "note": "", "version": None})
        if orders and seat in game.to_move:
            transaction.on_commit(functools.partial(orders_enqueue, game.pk))
        return _out(game, seat, state)


def game_orders_cancel(*, game_id: int, user: AnyUser) -> SeatOrdersOut:
    """Drop the standing orders of the seat `user` plays (nothing happens if it has none)."""
    _, seat = _player_seat(game_id, user)
    with transaction.atomic():
        game = Game.objects.select_for_update(of=("self",)).select_related("room").get(pk=game_id)
        _write(game, seat, {"orders": {}, "note": "", "version": None})
        return _out(game, seat, game_state_in_play(game=game))


# --- playing them ----------------------------------------------------------------------------


def _seat_with_orders(game: Game) -> int | None:
    """The seat now to move whose orders are waiting, if any (read from the row)."""
    return next((seat for seat in game.to_move if seat_orders(game, seat)), None)


def _stopped(*, game: Game, seat: int, reason: str, state: Any) -> None:
    """The orders stop: kept as the seat's note, and the player is told (the caller holds the
    row's lock). Only its own seat's player is told why."""
    _write(game, seat, {"orders": {}, "note": reason, "version": game.version})
    user = seat_users(game).get(seat)
    if user is None:
        return
    face = game_face_of(game)
    title, _ = face.turn_notice(state, seat, reminder=False, where=game.room.name)
    notification_send(
        user=user,
        kind=Kind.YOUR_TURN,
        title=title,
        body=f"Your standing orders stopped: {reason}",
        url=game_url(game),
        topic=game_topic(game_id=game.pk),
    )


def _stop_at(game_id: int, version: int, seat: int, reason: str) -> None:
    """Stop the orders of `seat` unless the game moved on since `version` was read."""
    with transaction.atomic():
        game = Game.objects.select_for_update(of=("self",)).select_related("room").get(pk=game_id)
        if game.version != version or not seat_orders(game, seat):
            return
        _stopped(game=game, seat=seat, reason=reason, state=game_state_in_play(game=game))


def _keep(game_id: int, version: int, seat: int, remaining: Json) -> None:
    """The orders changed without a step (one that was spent); store them at `version`."""
    with transaction.atomic():
        game = Game.objects.select_for_update(of=("self",)).get(pk=game_id)
        if game.version == version:
            entry = dict(game.orders.get(str(seat)) or {})
            _write(game, seat, {**entry, "orders": remaining})


def _game_in_play(game_id: int) -> Game | None:
    game = Game.objects.select_related("room").filter(pk=game_id).first()
    if game is None or game.outcome or game.room.status != Room.Status.PLAYING:
        return None
    return game


def orders_play(*, game_id: int, pause: float | None = None) -> int:
    """Play the standing orders of the seat now to move, step by step, until they stop, wait
    (the turn is no longer theirs) or run out; how many steps were played.

    One seat's turn per call: when a step passes the turn to a seat with orders of its own, the
    action service has enqueued a run for it. `pause` (default `settings.AI_STEP_SECONDS`) is
    the wait between two steps, so that the boards draw each one.
    """
    pause = settings.AI_STEP_SECONDS if pause is None else pause
    played = 0
    first_seat: int | None = None
    for _ in range(MAX_ORDER_STEPS):
        game = _game_in_play(game_id)
        if game is None or game.paused_at is not None:
            break
        face = orders_face(game_face_of(game))
        seat = _seat_with_orders(game)
        if face is None or seat is None or (first_seat is not None and seat != first_seat):
            break
        first_seat = seat
        orders = seat_orders(game, seat)
        state = game_state_in_play(game=game)
        step = face.next_order_step(state, seat, orders)
        if step.action is None:
            if step.stop_reason:
                _stop_at(game.pk, game.version, seat, step.stop_reason)
            elif step.remaining != orders:
                _keep(game.pk, game.version, seat, step.remaining)
            break
        if played and pause > 0:
            time.sleep(pause)
        if not _play_step(game, face, seat, state, step.action, step.remaining):
            break
        played += 1
    return played


def _play_step(
    game: Game, face: StandingOrders, seat: int, state: Any, action: Json, remaining: Json
) -> bool:
    """Play one step and judge what it changed, in one transaction; whether to go on."""
    before = game_face_of(game).seat_view(state, seat)
    try:
        with transaction.atomic():
            applied = game_system_act(
                game_id=game.pk,
                seat=seat,
                action=action,
                expected_version=game.version,
                key=system_key(kind="orders", game_id=game.pk, version=game.version),
            )
            if applied.state is None:  # a replayed key: another runner played it
                return True
            after = game_face_of(game).seat_view(applied.state, seat)
            reason = face.order_interruption(before, after)
            if reason is not None:
                _stopped(game=applied.game, seat=seat, reason=reason, state=applied.state)
                return False
            entry = dict(applied.game.orders.get(str(seat)) or {})
            _write(applied.game, seat, {**entry, "orders": remaining})
    except StaleVersion:  # someone moved the game on: look again
        return True
    except GameNotFound:
        return False
    except PlayError as exc:  # the game refused a step it picked itself: stop, say why
        logger.warning("game %s: orders of seat %s refused: %s", game.pk, seat, exc.message)
        _stop_at(game.pk, game.version, seat, f"The game refused a step: {exc.message}")
        return False
    return True


def orders_sweep(*, now: datetime | None = None) -> list[int]:
    """Play the standing orders a lost task left waiting (the turn came STALLED_AFTER ago and
    their seat was not told: its orders were to play it); the ids of the games played."""
    now = now or timezone.now()
    waiting = Game.objects.filter(
        ~Q(orders={}),
        outcome="",
        paused_at__isnull=True,
        room__status=Room.Status.PLAYING,
        turn_started__lt=now - STALLED_AFTER,
    )
    return [
        game_id
        for game_id in list(waiting.values_list("pk", flat=True))
        if orders_play(game_id=game_id, pause=0)
    ]
