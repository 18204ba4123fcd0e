"""A clock that fits real lives: vacation days instead of a timeout, the extend vote, and what
the sweep looks at first. (The banks themselves are the clock's: apps/play/clock.py.)

- **Vacation.** In a room with `vacation` on, a turn past its deadline first spends a day of its
  player's yearly allowance (`VACATION_DAYS_PER_YEAR`, apps/accounts: "away until" draws on the
  same days): the turn's deadline moves a day, a note goes into the game's log and the player
  is told. Only once no day is left does the game's timeout rule play the turn.
- **The extend vote.** In a room with `extend_hours`, each player not to move may say yes to
  giving the player to move more time; when two thirds of them (rounded up) have, the turn's
  deadline moves by those hours, once a turn. Each yes and the extension are noted in the log.

Every write here locks the game's row and re-reads its clock, so a sweep run twice, or two
votes at once, have one effect.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from apps.accounts.models import User, Vacation
from apps.accounts.services import VacationRefused, vacation_days_left, vacation_spend
from apps.notifications.services import Kind, notification_send
from apps.play.clock import ZERO, TurnClock, bank_left, game_clock, seat_users, turn_clock
from apps.play.errors import GameNotFound, TableRefused
from apps.play.models import ExtendVote, Game
from apps.play.notices import duration_text, game_topic, game_url
from apps.play.table import game_note
from apps.rooms.models import Room

DAY = timedelta(days=1)


def _locked(game_id: int) -> Game | None:
    return (
        Game.objects.select_for_update(of=("self",))
        .select_related("room")
        .filter(pk=game_id)
        .first()
    )


# --- what the sweep looks at -------------------------------------------------------------------


def _in_play() -> list[Game]:
    return list(
        Game.objects.filter(
            outcome="",
            room__status=Room.Status.PLAYING,
            turn_started__isnull=False,
            paused_at__isnull=True,
        )
        .select_related("room")
        .only(
            "pk",
            "to_move",
            "turn_started",
            "reminded_at",
            "reminders_sent",
            "extension",
            "banks",
            "paused_at",
            "outcome",
            "room__clock",
            "room__turn_time_limit",
            "room__reminder_after",
            "room__bank_initial",
        )
    )


def _floor_clock(game: Game) -> TurnClock | None:
    """The clock as if nobody to move were away: its deadline and reminders are the earliest
    the full clock can have (an away player only moves them later)."""
    return turn_clock(game=game, room=game.room, movers=[])


def deadline_candidates(*, now: datetime) -> list[int]:
    """Games whose turn may be past its deadline: banks and extensions included (the fixed
    limit's first cut in turns.py misses a bank room's, and keeps an extended turn's)."""
    found = []
    for game in _in_play():
        clock = _floor_clock(game)
        if clock is not None and clock.deadline is not None and clock.deadline < now:
            found.append(game.pk)
    return found


def reminder_candidates(*, now: datetime) -> list[int]:
    """Games whose turn may be due its first or second reminder."""
    found = []
    for game in _in_play():
        if game.room.reminder_after is None:
            continue
        clock = _floor_clock(game)
        if clock is not None and clock.remind_at is not None and clock.remind_at < now:
            found.append(game.pk)
    return found


# --- vacation instead of a timeout -------------------------------------------------------------


def game_vacation_spend(*, game_id: int, now: datetime | None = None) -> bool:
    """If the turn is past its deadline in a vacation room and its player has a day left,
    spend it: the deadline moves a day, the log and the player say so. Whether a day was spent
    (False: the timeout rule plays the turn)."""
    now = now or timezone.now()
    with transaction.atomic():
        game = _locked(game_id)
        if game is None or game.outcome or not game.room.vacation:
            return False
        if game.room.status != Room.Status.PLAYING or len(game.to_move) != 1:
            return False
        users = seat_users(game)
        clock = game_clock(game, users)
        if clock is None or clock.deadline is None or clock.deadline >= now:
            return False
        user = users.get(game.to_move[0])
        if user is None:
            return False
        try:
            vacation_spend(
                user=user,
                start=clock.deadline,
                days=1,
                source=Vacation.Source.AUTO,
                game_id=game.pk,
            )
        except VacationRefused:
            return False
        left = vacation_days_left(user=user, now=clock.deadline)
        game.extension = (game.extension or ZERO) + DAY
        Game.objects.filter(pk=game.pk).update(extension=game.extension)
        until = clock.deadline + DAY
        game_note(
            game=game,
            note={
                "type": "vacation_day",
                "player": user.get_username(),
                "seat": game.to_move[0],
                "until": until.isoformat(),
                "days_left": left,
            },
        )
        notification_send(
            user=user,
            kind=Kind.TIMEOUT,
            title=f"Your turn in {game.room.name} waited a day for you",
            body=(
                f"Your time ran out, so a day of your vacation allowance was spent instead: the "
                f"turn now ends at {until:%H:%M on %a %d %b} UTC. {left} "
                f"day{'s' if left != 1 else ''} left this year."
            ),
            url=game_url(game),
            topic=game_topic(game_id=game.pk),
        )
    return True


# --- the extend vote ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ExtendState:
    """The extend vote of the turn in play, as a page shows it."""

    hours: int  # what a carried vote gives
    voters: int  # players not to move (who may vote)
    needed: int  # yes votes that carry it
    yes: int
    carried: bool
    i_voted: bool
    may_vote: bool  # the reader is one of the voters, the vote still open


def _voters(game: Game, users: dict[int, User]) -> list[User]:
    return [user for seat, user in users.items() if seat not in game.to_move]


def needed_votes(voters: int) -> int:
    """Two thirds of the other players, rounded up (at least one)."""
    return max(1, math.ceil(voters * 2 / 3))


def extend_state(*, game: Game, user: User | None) -> ExtendState | None:
    """The vote of the turn in play (None: this table has none, or nothing to extend now)."""
    hours = game.room.extend_hours
    if not hours or game.outcome or game.turn_started is None:
        return None
    users = seat_users(game)
    voters = _voters(game, users)
    if not voters:
        return None
    votes = set(
        ExtendVote.objects.filter(game=game, turn_serial=game.turn_serial).values_list(
            "user_id", flat=True
        )
    )
    needed = needed_votes(len(voters))
    yes = len(votes & {v.pk for v in voters})
    carried = yes >= needed
    mine = user is not None and user.pk in votes
    voter = user is not None and any(v.pk == user.pk for v in voters)
    return ExtendState(
        hours=hours,
        voters=len(voters),
        needed=needed,
        yes=yes,
        carried=carried,
        i_voted=mine,
        may_vote=voter and not mine and not carried,
    )


def game_extend_vote(*, game_id: int, user: User, now: datetime | None = None) -> ExtendState:
    """`user` says yes to more time for the player to move; carries the vote when two thirds
    of the other players have. Refused for the player to move, outside this table's rules, and
    after the vote carried."""
    now = now or timezone.now()
    with transaction.atomic():
        game = _locked(game_id)
        if game is None:
            raise GameNotFound("There is no such game.")
        users = seat_users(game)
        if user.pk not in {u.pk for u in users.values()}:
            raise GameNotFound("There is no such game.")
        if game.outcome:
            raise TableRefused("The game is over.")
        hours = game.room.extend_hours
        if not hours:
            raise TableRefused("This table has no vote to extend a turn.")
        if any(users.get(seat) and users[seat].pk == user.pk for seat in game.to_move):
            raise TableRefused("It is your turn: the other players decide whether you get more.")
        before = extend_state(game=game, user=user)
        if before is None or before.carried:
            raise TableRefused("This turn has already been given more time.")
        try:
            with transaction.atomic():
                ExtendVote.objects.create(game=game, turn_serial=game.turn_serial, user=user)
        except IntegrityError:
            return before  # said yes already
        after = extend_state(game=game, user=user)
        assert after is not None
        game_note(
            game=game,
            note={
                "type": "extend_vote",
                "by": user.get_username(),
                "yes": after.yes,
                "needed": after.needed,
            },
        )
        if after.carried:
            extra = timedelta(hours=hours)
            game.extension = (game.extension or ZERO) + extra
            Game.objects.filter(pk=game.pk).update(extension=game.extension)
            game_note(game=game, note={"type": "extended", "hours": hours, "votes": after.yes})
            for seat in game.to_move:
                mover = users.get(seat)
                if mover is None:
                    continue
                notification_send(
                    user=mover,
                    kind=Kind.REMINDER,
                    title=f"More time in {game.room.name}",
                    body=(f"The other players gave you {duration_text(extra)} more for this turn."),
                    url=game_url(game),
                    topic=game_topic(game_id=game.pk),
                )
    return after


# --- what every player sees -------------------------------------------------------------------


@dataclass(frozen=True)
class BankLine:
    seat: int
    label: str
    player: str
    left: timedelta  # what the bank holds now (the turn in play's time used taken off)
    to_move: bool


def banks_shown(*, game: Game, now: datetime | None = None) -> list[BankLine]:
    """Every player's bank, as everyone sees it (bank rooms only; empty otherwise)."""
    room = game.room
    if room.clock != Room.Clock.BANK:
        return []
    now = now or timezone.now()
    users = seat_users(game)
    clock = game_clock(game, users)
    roles = {r.number: r.label for r in room.face.seat_roles(game.seats)}
    lines = []
    for seat in range(1, game.seats + 1):
        left = bank_left(game, room, seat)
        moving = seat in game.to_move
        if moving and clock is not None and clock.deadline is not None:
            stop = now if game.paused_at is None else game.paused_at
            left = max(ZERO, min(left, clock.deadline - max(stop, clock.started)))
        user = users.get(seat)
        lines.append(
            BankLine(
                seat=seat,
                label=roles.get(seat, f"Seat {seat}"),
                player=str(user) if user is not None else "",
                left=left,
                to_move=moving,
            )
        )
    return lines
