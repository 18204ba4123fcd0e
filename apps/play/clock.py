"""The clock of a turn: when it ends by itself, and when its player is reminded.

A turn's clock starts at `game.turn_started` (the action service resets it whenever the seat(s)
to move or the round change), or later if a player to move is away: their clock waits until
their `away_until`, so a turn that reaches an away player gets its full time after they are
back. While the host has paused the game nothing runs (no deadline, no reminder); resuming
shifts `turn_started` by the pause, so the remaining time is kept (`table.game_resume`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from apps.accounts.models import User
from apps.play.models import Game
from apps.rooms.models import Room


@dataclass(frozen=True)
class TurnClock:
    started: datetime  # when the time of the players to move started (or starts) to run
    deadline: datetime | None  # None: no limit, or paused
    remind_at: datetime | None  # None: no reminder, already reminded, or paused
    paused: bool
    away_until: datetime | None  # set if an away player to move stretched the clock
    away_player: str = ""  # who that is (their shown name)


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
    limit, reminder = room.turn_time_limit, room.reminder_after
    return TurnClock(
        started=started,
        deadline=None if paused or limit is None else started + limit,
        remind_at=(
            None
            if paused or reminder is None or game.reminded_at is not None
            else started + reminder
        ),
        paused=paused,
        away_until=away,
        away_player=str(away_mover) if away_mover is not None else "",
    )


def seat_users(game: Game) -> dict[int, User]:
    """Who holds each taken seat (an empty seat, e.g. the AI's, has no key)."""
    return {
        seat.number: seat.user
        for seat in game.room.seats.select_related("user")
        if seat.user is not None
    }


def game_clock(game: Game, users: dict[int, User]) -> TurnClock | None:
    """The clock of `game` (its row's seats to move), its players looked up in `users`."""
    movers = [users.get(seat) for seat in game.to_move]
    return turn_clock(game=game, room=game.room, movers=movers)
