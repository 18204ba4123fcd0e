"""Turns over days: telling players it is their turn, reminders, and timeouts.

- When the seat(s) to move change (and at launch), the action service enqueues
  `play.turn_passed` after commit; it notifies each player now to move ("Your turn in <room>: the
  Elf", "Zargon's phase in <room>"), emailing those who asked for it (`email_on_turn`). When the
  quest ends, every player hears the outcome.
- `play.sweep_turns` (Celery beat, every minute) sends one reminder per turn once
  `turn_started + room.reminder_after` has passed (email if `email_reminders`), and ends turns
  that ran past `turn_started + room.turn_time_limit`: a hero seat's turn is ended (`end_turn`
  for each of its heroes still to play this round), Zargon's phase is played by the built-in
  monster AI (`apps.rules.ai`). Both go through `quest_apply_action(system=True)` with
  idempotency keys derived from the game and its version, under the game's row lock, so two
  sweeps racing (or one run twice) apply each timeout once. System keys live in a namespace of
  their own (`ActionReceipt.system`): a player cannot pre-empt them with a key of the same text.
  A timeout that moves nothing notifies nobody, and stops at the first action that makes no
  progress, so its cost per game is bounded by the actions it really applies.

`turn_started` is the clock of the seat to move: the action service resets it (and
`reminded_at`) whenever the seat(s) to move or the round change.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import DateTimeField, ExpressionWrapper, F, QuerySet
from django.urls import reverse
from django.utils import timezone

from apps import rules
from apps.accounts.models import User
from apps.notifications.services import Kind, notification_send
from apps.play.errors import ActionRejected, PlayError
from apps.play.models import Game
from apps.play.selectors import game_state
from apps.play.services import ZARGON_SEAT, quest_apply_action
from apps.rooms.models import Room
from apps.rules.ai import next_monster_action
from apps.rules.data import display_name, seat_of_hero

logger = logging.getLogger(__name__)

# A Zargon phase is a few dozen actions; this only stops a runaway loop.
MAX_SYSTEM_ACTIONS = 1000


def system_key(*, kind: str, game_id: int, version: int) -> str:
    """The idempotency key of the system's action `kind` ("timeout", "ai") at `version`."""
    return f"{kind}-{game_id}-{version}"


# --- texts -------------------------------------------------------------------------------------


def _game_url(game: Game) -> str:
    return reverse("play:game", args=[game.pk])


def _duration_text(duration: timedelta) -> str:
    minutes = int(duration.total_seconds() // 60)
    if minutes % 60:
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    hours = minutes // 60
    return f"{hours} hour{'s' if hours != 1 else ''}"


def _deadline_text(game: Game, room: Room) -> str:
    if room.turn_time_limit is None or game.turn_started is None:
        return ""
    deadline = timezone.localtime(game.turn_started + room.turn_time_limit)
    return (
        f" Turns here last {_duration_text(room.turn_time_limit)}: this one ends automatically "
        f"at {deadline:%H:%M on %a %d %b} ({timezone.get_current_timezone_name()})."
    )


def _turn_title(state: rules.State, seat: int, room: Room, *, reminder: bool = False) -> str:
    prefix = "Reminder: " if reminder else ""
    if seat == ZARGON_SEAT:
        return f"{prefix}Zargon's phase in {room.name}"
    hero = state.turn.hero
    who = f": {display_name(hero)}" if hero else ""
    return f"{prefix}Your turn in {room.name}{who}"


def _turn_body(state: rules.State, seat: int, game: Game, room: Room) -> str:
    if seat == ZARGON_SEAT:
        text = f"Round {state.round}: the heroes have moved and the monsters await your command."
    else:
        text = f"Round {state.round}: the party is waiting for you."
    return text + _deadline_text(game, room)


# --- who plays what ----------------------------------------------------------------------------


def _seat_users(game: Game) -> dict[int, User]:
    return {
        seat.number: seat.user
        for seat in game.room.seats.select_related("user")
        if seat.user is not None
    }


def _game(game_id: int, *, lock: bool = False) -> Game | None:
    games = Game.objects.select_related("room")
    if lock:
        games = games.select_for_update(of=("self",))
    return games.filter(pk=game_id).first()


def _notify_seats_to_move(game: Game, users: dict[int, User], *, reminder: bool) -> int:
    """Tell each player now to move that it is their turn (or remind them); how many were told."""
    state = game_state(game=game)
    sent = 0
    for seat in rules.seats_to_move(state):
        user = users.get(seat)
        if user is None:
            continue
        notification_send(
            user=user,
            kind=Kind.REMINDER if reminder else Kind.YOUR_TURN,
            title=_turn_title(state, seat, game.room, reminder=reminder),
            body=_turn_body(state, seat, game, game.room),
            url=_game_url(game),
            email=user.email_reminders if reminder else user.email_on_turn,
        )
        sent += 1
    return sent


# --- the turn passed ---------------------------------------------------------------------------


def turn_notify(*, game_id: int, version: int, turn_started: datetime | None) -> int:
    """Tell the players now to move (or, once the quest is over, everyone the outcome).

    Called by the `play.turn_passed` task that the action service enqueues after a commit that
    changed the seats to move. If the turn has changed again since (`turn_started` differs), a
    newer task tells the newer story and this one sends nothing. Returns how many were sent.
    """
    game = _game(game_id)
    if game is None or game.turn_started != turn_started or game.version < version:
        return 0
    room = game.room
    users = _seat_users(game)
    url = _game_url(game)
    sent = 0
    with transaction.atomic():
        if game.outcome:
            winner = "the heroes won" if game.outcome == "heroes" else "Zargon won"
            for player in users.values():
                notification_send(
                    user=player,
                    kind=Kind.GAME_OVER,
                    title=f"Game over in {room.name}: {winner}",
                    body=f"{room.quest.name} has ended: {winner}.",
                    url=url,
                    email=player.email_on_turn,
                )
                sent += 1
            return sent
        sent += _notify_seats_to_move(game, users, reminder=False)
    return sent


# --- the sweep ---------------------------------------------------------------------------------


@dataclass
class SweepReport:
    reminded: list[int] = field(default_factory=list)
    timed_out: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)
    ai_played: list[int] = field(default_factory=list)  # solo games whose stalled AI phase ran

    def as_dict(self) -> dict[str, list[int]]:
        return {
            "reminded": self.reminded,
            "timed_out": self.timed_out,
            "failed": self.failed,
            "ai_played": self.ai_played,
        }


def _games_in_play() -> QuerySet[Game]:
    return Game.objects.filter(
        outcome="", room__status=Room.Status.PLAYING, turn_started__isnull=False
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
    for game_id in list(games_past_deadline(now=now).values_list("pk", flat=True)):
        try:
            if game_time_out(game_id=game_id, now=now):
                report.timed_out.append(game_id)
        except Exception:  # one broken game must not stop the others' timeouts
            logger.exception("timing out game %s failed", game_id)
            report.failed.append(game_id)
    # zargon_ai uses this module's system keys: import it here, not at the top (a cycle).
    from apps.play.zargon_ai import zargon_ai_sweep

    try:
        report.ai_played = zargon_ai_sweep(now=now)
    except Exception:  # like a broken game's timeout: the reminders still go out
        logger.exception("playing the stalled solo games' Zargon phases failed")
    for game_id in list(games_due_a_reminder(now=now).values_list("pk", flat=True)):
        try:
            if game_remind(game_id=game_id, now=now):
                report.reminded.append(game_id)
        except Exception:
            logger.exception("reminding game %s failed", game_id)
            report.failed.append(game_id)
    return report


def game_remind(*, game_id: int, now: datetime | None = None) -> bool:
    """Remind the seat(s) to move, once per turn; False if not due (or already reminded)."""
    now = now or timezone.now()
    with transaction.atomic():
        game = _game(game_id, lock=True)
        room = game.room if game is not None else None
        if (
            game is None
            or room is None
            or game.outcome
            or room.status != Room.Status.PLAYING
            or game.reminded_at is not None
            or game.turn_started is None
            or room.reminder_after is None
            or game.turn_started + room.reminder_after >= now
        ):
            return False
        # The conditional update is the "once": a racing sweep finds reminded_at set.
        claimed = Game.objects.filter(
            pk=game.pk, turn_started=game.turn_started, reminded_at__isnull=True
        ).update(reminded_at=now)
        if not claimed:
            return False
        _notify_seats_to_move(game, _seat_users(game), reminder=True)
    return True


def _system_action(
    game: Game, state: rules.State, seat: int, round_: int
) -> tuple[int, str, rules.Action] | None:
    """The next action that ends the timed-out turn of `seat`: (acting seat, key, action)."""
    if seat == ZARGON_SEAT:
        if state.phase != "monsters":
            return None
        action = next_monster_action(state)
        if action is None:
            return None
        return ZARGON_SEAT, system_key(kind="ai", game_id=game.pk, version=game.version), action
    hero = state.turn.hero
    if (
        state.phase != "heroes"
        or hero is None
        or state.round != round_
        or seat_of_hero(state.seats, hero) != seat
    ):
        return None
    key = system_key(kind="timeout", game_id=game.pk, version=game.version)
    return seat, key, rules.EndTurn(hero)


def game_time_out(*, game_id: int, now: datetime | None = None) -> bool:
    """End the turn that ran past its deadline; False if it is not past it (any more).

    A hero seat's turn ends (`end_turn` for its heroes still to play this round); Zargon's
    phase is played by the monster AI. Every action goes through the action service as a system
    action keyed by (game, version). The game's row stays locked until the whole timeout is
    committed, so a racing sweep waits, then finds the turn already moved on.
    """
    now = now or timezone.now()
    with transaction.atomic():
        game = _game(game_id, lock=True)
        if game is None or game.outcome or game.turn_started is None:
            return False
        room = game.room
        limit = room.turn_time_limit
        if room.status != Room.Status.PLAYING or limit is None or game.turn_started + limit >= now:
            return False
        started = game.turn_started
        state = game_state(game=game)
        seats = rules.seats_to_move(state)
        if len(seats) != 1:
            return False
        seat, round_ = seats[0], state.round
        applied = 0
        for _ in range(MAX_SYSTEM_ACTIONS):
            step = _system_action(game, state, seat, round_)
            if step is None:
                break
            acting_seat, key, action = step
            version_before = game.version
            try:
                quest_apply_action(
                    game_id=game.pk,
                    seat=acting_seat,
                    action=rules.action_to_json(action),
                    expected_version=game.version,
                    key=key,
                    system=True,
                )
            except ActionRejected as exc:  # the AI only picks legal actions: a bug if reached
                logger.error("game %s: the timeout's %s was refused: %s", game.pk, action, exc)
                break
            except PlayError:
                break
            game.refresh_from_db()
            if game.version == version_before:  # a stored answer, nothing moved: stop here
                logger.error("game %s: the timeout's %s changed nothing", game.pk, action)
                break
            applied += 1
            if game.outcome or game.turn_started != started:
                break
            state = game_state(game=game)
        if not applied:
            return False
        _notify_timed_out(game, seat, limit)
    return True


def _notify_timed_out(game: Game, seat: int, limit: timedelta) -> None:
    user = _seat_users(game).get(seat)
    if user is None:
        return
    room = game.room
    if seat == ZARGON_SEAT:
        title = f"Zargon's phase in {room.name} timed out"
        body = (
            f"You had {_duration_text(limit)}; the built-in monster AI played the monsters "
            "for you this round."
        )
    else:
        title = f"Your turn in {room.name} timed out"
        body = f"You had {_duration_text(limit)}; your heroes' turn was ended for you."
    notification_send(
        user=user,
        kind=Kind.TIMEOUT,
        title=title,
        body=body,
        url=_game_url(game),
        email=user.email_reminders,
    )
