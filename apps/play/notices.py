"""What players are told about a game: whose turn it is, reminders, timeouts, the end.

Written into the notifications outbox inside the transaction that changed the game (so a
broker outage cannot lose them), one per turn change per player: a player whose seat keeps the
turn (their next hero) is not told again. Each notification's topic is the game (`game_topic`):
opening the game marks them read, and a player watching it gets no email about it. Where each
goes (live, email, push) is the router's (apps/notifications/router.py); a room with a chat
webhook also gets one line per turn change and one at the end (apps/play/chat_webhooks.py).
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import timedelta
from typing import Any

from django.urls import reverse

from apps.accounts.models import User
from apps.accounts.services import user_zone
from apps.games.registry import game_face
from apps.notifications.services import Kind, Notice, notification_send, notifications_send
from apps.play.chat_webhooks import end_line_send, turn_line_send
from apps.play.clock import TurnClock, game_clock, seat_users
from apps.play.models import Game
from apps.rooms.models import Room


def game_topic(*, game_id: int) -> str:
    """The notification topic (and presence topic) of one game."""
    return f"game-{game_id}"


def game_url(game: Game) -> str:
    return reverse("play:game", args=[game.pk])


def duration_text(duration: timedelta) -> str:
    minutes = int(duration.total_seconds() // 60)
    if minutes % 60:
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    hours = minutes // 60
    return f"{hours} hour{'s' if hours != 1 else ''}"


def span_text(duration: timedelta) -> str:
    """A span in words: as `duration_text` under a day, else days and hours ("2 days 5 hours")."""
    if duration < timedelta(days=1):
        return duration_text(max(duration, timedelta(0)))
    days, rest = divmod(int(duration.total_seconds()) // 3600, 24)
    text = f"{days} day{'s' if days != 1 else ''}"
    return text + (f" {rest} hour{'s' if rest != 1 else ''}" if rest else "")


def _deadline_text(clock: TurnClock | None, room: Room, user: User) -> str:
    if clock is None or clock.deadline is None:
        return ""
    zone = user_zone(user)
    deadline = clock.deadline.astimezone(zone)
    if room.clock == Room.Clock.BANK:
        return (
            f" Your time bank holds {span_text(clock.deadline - clock.started)}: this turn "
            f"ends automatically at {deadline:%H:%M on %a %d %b} ({zone.key})."
        )
    if room.turn_time_limit is None:
        return ""
    return (
        f" Turns here last {duration_text(room.turn_time_limit)}: this one ends automatically "
        f"at {deadline:%H:%M on %a %d %b} ({zone.key})."
    )


def turn_notices_send(
    *, game: Game, state: Any, reminder: bool = False, skip: Collection[int] = ()
) -> int:
    """Tell each player now to move (or, once the quest is over, everyone the outcome).

    Called in the transaction that changed the seats to move (or by the reminder sweep); how
    many notifications were written. Players who turned reminders off get none, nor the seats
    in `skip` (their standing orders play the turn; they are told if the orders stop).
    """
    room = game.room
    users = seat_users(game)
    topic = game_topic(game_id=game.pk)
    url = game_url(game)
    face = game_face(game.kind)
    if game.outcome:
        outcome = face.outcome_text(game.outcome)
        if not reminder:
            end_line_send(game=game, outcome=f"{outcome}.")
        over = [
            Notice(
                user=player,
                kind=Kind.GAME_OVER,
                title=f"Game over in {room.name}: {outcome}",
                body=f"{room.quest.name} has ended: {outcome}.",
                url=url,
                topic=topic,
            )
            for player in users.values()
        ]
        return len(notifications_send(notices=over))
    clock = game_clock(game, users)
    if not reminder:
        turn_line_send(game=game, users=users, deadline=clock.deadline if clock else None)
    notices = []
    for seat in game.to_move:
        user = users.get(seat)
        if seat in skip:
            continue
        if user is None or (reminder and not user.reminders):
            continue
        title, text = face.turn_notice(state, seat, reminder=reminder, where=room.name)
        notices.append(
            Notice(
                user=user,
                kind=Kind.REMINDER if reminder else Kind.YOUR_TURN,
                title=title,
                body=text + _deadline_text(clock, room, user),
                url=url,
                topic=topic,
            )
        )
    return len(notifications_send(notices=notices))


def timeout_notice_send(*, game: Game, state: Any, seat: int, limit: timedelta) -> None:
    """Tell the player whose turn ran out what was done for them."""
    user = seat_users(game).get(seat)
    if user is None:
        return
    room = game.room
    face = game_face(game.kind)
    title, body = face.timeout_notice(state, seat, limit=span_text(limit), where=room.name)
    notification_send(
        user=user,
        kind=Kind.TIMEOUT,
        title=title,
        body=body,
        url=game_url(game),
        topic=game_topic(game_id=game.pk),
    )


CHAT_NOTICE_BODY_LENGTH = 300


def chat_notices_send(*, game: Game, speaker: User, name: str, text: str) -> int:
    """Tell the game's other players who asked for table talk by email (`email_chat`) that
    someone spoke; nobody else hears of it outside the game. How many were written.

    The notifications app still sends no email to a player who has the game open.
    """
    room = game.room
    listeners = [
        user for user in seat_users(game).values() if user.pk != speaker.pk and user.email_chat
    ]
    body = text if len(text) <= CHAT_NOTICE_BODY_LENGTH else text[:CHAT_NOTICE_BODY_LENGTH] + "…"
    notices = [
        Notice(
            user=user,
            kind=Kind.CHAT,
            title=f"{name} in {room.name}",
            body=body,
            url=game_url(game),
            topic=game_topic(game_id=game.pk),
        )
        for user in listeners
    ]
    return len(notifications_send(notices=notices))
