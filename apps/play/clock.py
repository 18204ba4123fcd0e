"""The clock of a turn: when it ends by itself, and when its player is reminded.

A turn's clock starts at `game.turn_started` (the action service resets it whenever the seat(s)
to move or the round change), or later if a player to move is away: their clock waits until
their `away_until`, so a turn that reaches an away player gets its full time after they are
back. While the host has paused the game nothing runs (no deadline, no reminder); resuming
shifts `turn_started` by the pause, so the remaining time is kept (`table.game_resume`).

How long a turn lasts is the room's clock: "fixed", `turn_time_limit` each turn; or "bank", what
the bank of the player to move holds (`Game.banks`, charged with the time used when the clock
restarts, then given the increment, capped: `clock_restart`). The turn's `Game.extension`
(vacation days spent, an extend vote carried: apps/play/timebank.py) is added to it. Reminders,
in rooms that send them: at most two a turn, the first at `reminder_after` (half the turn if that
is past the deadline), the second when a sixth of the turn is left.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import QuerySet

from apps.accounts.models import User
from apps.core.prepared import PreparedQuery
from apps.play.models import Game
from apps.rooms.models import Room, Seat


@dataclass(frozen=True)
class TurnClock:
    started: datetime  # when the time of the players to move started (or starts) to run
    deadline: datetime | None  # None: no limit, or paused
    remind_at: datetime | None  # None: no reminder, already reminded, or paused
    paused: bool
    away_until: datetime | None  # set if an away player to move stretched the clock
    away_player: str = ""  # who that is (their shown name)


ZERO = timedelta(0)


def bank_left(game: Game, room: Room, seat: int) -> timedelta:
    """What the bank of `seat` holds (a bank room; before its first turn, the initial bank)."""
    stored = game.banks.get(str(seat)) if isinstance(game.banks, dict) else None
    if isinstance(stored, int | float):
        return timedelta(seconds=stored)
    return room.bank_initial or ZERO


def turn_allowance(game: Game, room: Room) -> timedelta | None:
    """How long the turn in play lasts before its extension (None: no limit)."""
    if room.clock == Room.Clock.BANK:
        banks = [bank_left(game, room, seat) for seat in game.to_move]
        return min(banks) if banks else None
    return room.turn_time_limit


def reminders_sent(game: Game) -> int:
    """Reminders sent this turn (rows reminded before the count existed count as one)."""
    return max(game.reminders_sent, 1 if game.reminded_at is not None else 0)


def _remind_at(
    game: Game, room: Room, started: datetime, deadline: datetime | None
) -> datetime | None:
    reminder = room.reminder_after
    if reminder is None:
        return None
    sent = reminders_sent(game)
    if sent == 0:
        first = started + reminder
        if deadline is not None and first >= deadline:
            first = started + (deadline - started) / 2
        return first
    if sent == 1 and deadline is not None:
        second = deadline - (deadline - started) / 6
        last = game.reminded_at
        return second if last is None or second > last else None
    return None


def turn_clock(*, game: Game, room: Room, movers: Iterable[User | None]) -> TurnClock | None:
    """The clock of the turn in play (None once the game is over or before it starts)."""
    if game.outcome or game.turn_started is None:
        return None
    aways = [(u.away_until, u) for u in movers if u is not None and u.away_until is not None]
    away, away_mover = max(aways, key=lambda pair: pair[0], default=(None, None))
    if away is None or away <= game.turn_started:
        away, away_mover = None, None
    started = away or game.turn_started
    paused = game.paused_at is not None
    limit = turn_allowance(game, room)
    deadline = None if paused or limit is None else started + limit + (game.extension or ZERO)
    return TurnClock(
        started=started,
        deadline=deadline,
        remind_at=None if paused else _remind_at(game, room, started, deadline),
        paused=paused,
        away_until=away,
        away_player=str(away_mover) if away_mover is not None else "",
    )


def clock_restart(*, game: Game, now: datetime, actor: Any = None) -> list[str]:
    """The clock of `game` restarts (a turn change; the row still holds the turn that ends, its
    room came with it): the turn is numbered on, its reminders and extension are forgotten, and
    in a bank room the players who moved pay the time they used (not their extension, not the
    time they were away or the game paused) and get the increment, never above the cap. The
    fields to save with the row (the caller's UPDATE: no statement of its own)."""
    room = game.room
    fields = ["turn_serial", "reminders_sent", "extension"]
    if room.clock == Room.Clock.BANK and game.turn_started is not None:
        started = game.turn_started
        away = getattr(actor, "away_until", None)
        if isinstance(away, datetime) and started < away <= now:
            started = away
        stop = min(now, game.paused_at) if game.paused_at is not None else now
        used = max(ZERO, stop - started - (game.extension or ZERO))
        increment = room.bank_increment or ZERO
        banks = dict(game.banks) if isinstance(game.banks, dict) else {}
        for seat in game.to_move:
            left = max(ZERO, bank_left(game, room, seat) - used) + increment
            if room.bank_cap is not None:
                left = min(left, room.bank_cap)
            banks[str(seat)] = int(left.total_seconds())
        game.banks = banks
        fields.append("banks")
    game.turn_serial += 1
    game.reminders_sent = 0
    game.extension = None
    return fields


def _taken_seats(room_id: int) -> QuerySet[Seat]:
    return Seat.objects.filter(room_id=room_id, user__isnull=False).select_related("user")


# Asked on every change of turn (its notices and clock): compiled once, not on each action.
_TAKEN_SEATS = PreparedQuery(_taken_seats, many=True, room_id=-7)


def seat_users(game: Game) -> dict[int, User]:
    """Who holds each taken seat (an empty seat, e.g. the AI's, has no key)."""
    seats = _TAKEN_SEATS.all(room_id=game.room_id)
    return {seat.number: seat.user for seat in seats if seat.user is not None}


def game_clock(game: Game, users: dict[int, User]) -> TurnClock | None:
    """The clock of `game` (its row's seats to move), its players looked up in `users`."""
    movers = [users.get(seat) for seat in game.to_move]
    return turn_clock(game=game, room=game.room, movers=movers)
