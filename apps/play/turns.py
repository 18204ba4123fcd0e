"""Turns over days: reminders and timeouts (the sweep), on the clock of apps/play/clock.py.

"Your turn" notifications are written by the action service itself, in the transaction that
changed the seats to move (apps/play/notices.py): they sit in the notifications outbox until
delivered, so a broker outage delays them but never loses them.

- `turns_sweep` (Celery beat `play.sweep_turns`, every minute; `manage.py sweep_turns` runs one)
  sends one reminder per turn once the clock's `remind_at` has passed (players who turned
  reminders off get none), and ends turns that ran past the clock's deadline with what the game
  gives a timed-out seat (its face's `timeout_action`: HeroQuest ends a hero seat's turn and
  plays Zargon's phase with its monster AI). Each goes through the action service as a system
  action with idempotency keys derived from the game and its version,
  under the game's row lock, so two sweeps racing (or one run twice) apply each timeout once.
  System keys live in a namespace of their own (a system action's log row has no seat): a player
  cannot pre-empt them with a key of the same text. A timeout that moves nothing notifies nobody,
  and stops at the first action that makes no progress, so its cost per game is bounded by the
  actions it really applies.
- A paused game has no deadline and no reminder; an away player's clock waits until they are
  back (clock.py).
- A clock that fits real lives (apps/play/timebank.py): bank rooms' deadlines and extended turns
  are found too; at most two reminders a turn; in a vacation room a turn past its deadline
  first spends a day of its player's vacation allowance, and only then times out.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.db.models import DateTimeField, ExpressionWrapper, F, QuerySet
from django.utils import timezone

from apps.play.ai_seat import ai_seat_sweep
from apps.play.clock import TurnClock, game_clock, reminders_sent, seat_users
from apps.play.errors import ActionRejected, PlayError
from apps.play.models import Game
from apps.play.notices import timeout_notice_send, turn_notices_send
from apps.play.selectors import game_face_of, game_state_in_play
from apps.play.services import game_system_act, system_key
from apps.play.timebank import deadline_candidates, game_vacation_spend, reminder_candidates
from apps.rooms.models import Room

logger = logging.getLogger(__name__)

# A timed-out turn is a few dozen actions at most; this only stops a runaway loop.
MAX_SYSTEM_ACTIONS = 1000


def _game(game_id: int, *, lock: bool = False) -> Game | None:
    games = Game.objects.select_related("room")
    if lock:
        games = games.select_for_update(of=("self",))
    return games.filter(pk=game_id).first()


def _clock(game: Game) -> TurnClock | None:
    return game_clock(game, seat_users(game))


# --- the sweep ---------------------------------------------------------------------------------


@dataclass
class SweepReport:
    reminded: list[int] = field(default_factory=list)
    timed_out: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)
    ai_played: list[int] = field(default_factory=list)  # solo games whose stalled AI phase ran
    vacation: list[int] = field(default_factory=list)  # a vacation day spent instead of a timeout

    def as_dict(self) -> dict[str, list[int]]:
        return {
            "reminded": self.reminded,
            "timed_out": self.timed_out,
            "failed": self.failed,
            "ai_played": self.ai_played,
            "vacation": self.vacation,
        }


def _games_in_play() -> QuerySet[Game]:
    """Games whose clock runs. The queries below are a first cut on `turn_started` alone (an
    away player's clock only starts later); each game is then judged on its full clock."""
    return Game.objects.filter(
        outcome="",
        room__status=Room.Status.PLAYING,
        turn_started__isnull=False,
        paused_at__isnull=True,
    )


def games_past_deadline(*, now: datetime) -> QuerySet[Game]:
    return (
        _games_in_play()
        .filter(room__turn_time_limit__isnull=False)
        .alias(
            deadline=ExpressionWrapper(
                F("turn_started") + F("room__turn_time_limit"), output_field=DateTimeField()
            )
        )
        .filter(deadline__lt=now)
    )


def games_due_a_reminder(*, now: datetime) -> QuerySet[Game]:
    return (
        _games_in_play()
        .filter(room__reminder_after__isnull=False, reminded_at__isnull=True)
        .alias(
            remind_at=ExpressionWrapper(
                F("turn_started") + F("room__reminder_after"), output_field=DateTimeField()
            )
        )
        .filter(remind_at__lt=now)
    )


def turns_sweep(*, now: datetime | None = None) -> SweepReport:
    """Time out the turns past their deadline, then remind the seats whose reminder is due."""
    now = now or timezone.now()
    report = SweepReport()
    late = set(games_past_deadline(now=now).values_list("pk", flat=True))
    for game_id in sorted(late | set(deadline_candidates(now=now))):
        try:
            if game_vacation_spend(game_id=game_id, now=now):
                report.vacation.append(game_id)
            elif game_time_out(game_id=game_id, now=now):
                report.timed_out.append(game_id)
        except Exception:  # one broken game must not stop the others' timeouts
            logger.exception("timing out game %s failed", game_id)
            report.failed.append(game_id)

    try:
        report.ai_played = ai_seat_sweep(now=now)
    except Exception:  # like a broken game's timeout: the reminders still go out
        logger.exception("playing the stalled solo games' AI turns failed")
    due = set(games_due_a_reminder(now=now).values_list("pk", flat=True))
    for game_id in sorted(due | set(reminder_candidates(now=now))):
        try:
            if game_remind(game_id=game_id, now=now):
                report.reminded.append(game_id)
        except Exception:
            logger.exception("reminding game %s failed", game_id)
            report.failed.append(game_id)
    return report


def game_remind(*, game_id: int, now: datetime | None = None) -> bool:
    """Remind the seat(s) to move, at most twice a turn (clock.py says when); False if not due
    (or already reminded)."""
    now = now or timezone.now()
    with transaction.atomic():
        game = _game(game_id, lock=True)
        if game is None or game.outcome or game.room.status != Room.Status.PLAYING:
            return False
        clock = _clock(game)
        if clock is None or clock.remind_at is None or clock.remind_at >= now:
            return False
        # The conditional update is the "once": a racing sweep finds the count moved on.
        sent = reminders_sent(game)
        claimed = Game.objects.filter(
            pk=game.pk,
            turn_started=game.turn_started,
            turn_serial=game.turn_serial,
            reminded_at=game.reminded_at,
        ).update(reminded_at=now, reminders_sent=sent + 1)
        if not claimed:
            return False
        turn_notices_send(game=game, state=game_state_in_play(game=game), reminder=True)
    return True


def game_time_out(*, game_id: int, now: datetime | None = None) -> bool:
    """End the turn that ran past its deadline; False if it is not past it (any more).

    The seat gets what its game gives a timed-out seat (`timeout_action`), action after action
    while the turn is still that seat's. Every action goes through the action service as a system
    action keyed by (game, version). The game's row stays locked until the whole timeout is
    committed, so a racing sweep waits, then finds the turn already moved on.
    """
    now = now or timezone.now()
    with transaction.atomic():
        game = _game(game_id, lock=True)
        if game is None or game.outcome or game.turn_started is None:
            return False
        room = game.room
        if room.status != Room.Status.PLAYING:
            return False
        clock = _clock(game)
        if clock is None or clock.deadline is None or clock.deadline >= now:
            return False
        limit = clock.deadline - clock.started  # what the turn had (its bank, its extension)
        if len(game.to_move) != 1:
            return False
        seat, started = game.to_move[0], game.turn_started
        face = game_face_of(game)
        state = game_state_in_play(game=game)
        first_state = state
        applied = 0
        for _ in range(MAX_SYSTEM_ACTIONS):
            action = face.timeout_action(state, seat)
            if action is None:
                break
            kind = "ai" if seat == face.ai_seat else "timeout"
            try:
                step = game_system_act(
                    game_id=game.pk,
                    seat=seat,
                    action=action,
                    expected_version=game.version,
                    key=system_key(kind=kind, game_id=game.pk, version=game.version),
                )
            except ActionRejected as exc:  # the game only gives legal actions: a bug if reached
                logger.error("game %s: the timeout's %s was refused: %s", game.pk, action, exc)
                break
            except PlayError:
                break
            if step.state is None:  # a stored answer, nothing moved: stop here
                logger.error("game %s: the timeout's %s changed nothing", game.pk, action)
                break
            game, state = step.game, step.state
            applied += 1
            if game.outcome or game.turn_started != started or game.to_move != [seat]:
                break
        if not applied:
            return False
        timeout_notice_send(game=game, state=first_state, seat=seat, limit=limit)
    return True
