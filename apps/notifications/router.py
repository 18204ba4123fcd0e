"""One policy for every channel: what a notification becomes live, by email and by web push.

The notification row is written by the sender (play says who is told what: one per turn change
per person, at most two reminders a turn); the router decides, when it is delivered, where it
goes. The chat webhooks of a room follow the same rules where they apply to a room's channel
(apps/notifications/webhooks/: one line per turn change, and no mention of a person who has the
game open).

- **Open on any device**: a person with a live socket on the topic (`Presence`, any browser)
  gets nothing about it on any channel: no toast, no email, no push. Their board says it.
- **Already read**: nothing more.
- **Email**: turn news per `turn_email` (right away, the daily digest across games, never);
  reminders only if `reminders` and turn emails come right away; table talk only if
  `email_chat`.
- **Push** (to every browser the person turned it on in): turn news, reminders (if
  `reminders`), a seat given, a failing webhook; never table talk.
- **Quiet hours** (the person's `quiet_start`..`quiet_end`, in their own time zone): email and
  push wait until the hours end (`held_until`); the live toast is not held (it reaches only an
  open page). When they end, only the newest held message about a topic goes out, the older
  ones are superseded: one message per game, not a pile at breakfast.

Pure functions of the row and the time: what else a route asks (a live socket on the topic, a
browser taking push) is read with the row, in the same statement (`with_facts`), and handed in.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time, timedelta
from typing import TypedDict

from django.conf import settings
from django.db.models import Exists, OuterRef, QuerySet
from django_stubs_ext import WithAnnotations

from apps.accounts.models import User
from apps.accounts.services import user_zone
from apps.notifications.models import Notification, Presence, PushSubscription

Kind = Notification.Kind
Status = Notification.Email

TURN_KINDS = frozenset({Kind.YOUR_TURN, Kind.TIMEOUT, Kind.GAME_OVER, Kind.SEAT})
PUSH_KINDS = TURN_KINDS | {Kind.REMINDER, Kind.WEBHOOK}
# A status the deliverer still has to act on.
OPEN = frozenset({Status.PENDING, Status.HELD})


@dataclass(frozen=True)
class Route:
    """Where one notification goes now: the live toast, and each channel's status (`SENT`: send
    it now; `HELD`: at `held_until`; anything else: it is settled that way)."""

    live: bool
    email: str
    push: str
    held_until: datetime | None = None


def quiet_until(user: User, now: datetime) -> datetime | None:
    """The end of the quiet hours `user` is in at `now` (None: not in quiet hours)."""
    start, end = user.quiet_start, user.quiet_end
    if start is None or end is None or start == end:
        return None
    zone = user_zone(user)
    local = now.astimezone(zone)
    clock = local.time().replace(tzinfo=None)
    inside = start <= clock < end if start < end else clock >= start or clock < end
    if not inside:
        return None
    day = local.date() if clock < end else local.date() + timedelta(days=1)
    return datetime.combine(day, time(end.hour, end.minute), tzinfo=zone).astimezone(now.tzinfo)


def user_is_present(*, user_id: int, topic: str, now: datetime) -> bool:
    """Has `user_id` a live socket on `topic` in any browser (a recent heartbeat)?"""
    return Presence.objects.filter(
        user_id=user_id, topic=topic, seen__gte=now - settings.NOTIFICATIONS_PRESENCE_TTL
    ).exists()


class Facts(TypedDict):
    present: bool
    pushable: bool


def with_facts(
    notifications: QuerySet[Notification], now: datetime
) -> QuerySet[WithAnnotations[Notification, Facts]]:
    """`notifications` each with what routing it asks beyond its row: `present`, a live socket
    of its person on its topic at `now`, and `pushable`, a browser of theirs taking push.

    One statement for a delivery that would otherwise take three: the deliverer runs once for
    nearly every turn that passes."""
    return with_facts_since(notifications, now - settings.NOTIFICATIONS_PRESENCE_TTL)


def with_facts_since(
    notifications: QuerySet[Notification], live_since: datetime
) -> QuerySet[WithAnnotations[Notification, Facts]]:
    """`with_facts`, a socket counting as live if it was seen at `live_since` or later."""
    sockets = Presence.objects.filter(
        user_id=OuterRef("user_id"), topic=OuterRef("topic"), seen__gte=live_since
    )
    browsers = PushSubscription.objects.filter(user_id=OuterRef("user_id"))
    return notifications.annotate(present=Exists(sockets), pushable=Exists(browsers))


def email_choice(notification: Notification) -> str:
    """What the person's choices make of this notification by email (before quiet hours)."""
    user = notification.user
    if not notification.emailable or not user.email:
        return Status.NONE
    kind = notification.kind
    if kind in TURN_KINDS or kind == Kind.WEBHOOK:
        return {
            User.TurnEmail.IMMEDIATELY: Status.SENT,
            User.TurnEmail.DIGEST: Status.DIGEST,
        }.get(User.TurnEmail(user.turn_email), Status.NONE)
    if kind == Kind.REMINDER:
        immediate = user.turn_email == User.TurnEmail.IMMEDIATELY
        return Status.SENT if user.reminders and immediate else Status.NONE
    if kind == Kind.CHAT:
        return Status.SENT if user.email_chat else Status.NONE
    return Status.NONE


def push_choice(notification: Notification, *, pushable: bool) -> str:
    """What the person's choices make of this notification by web push (before quiet hours),
    `pushable` if a browser of theirs takes push."""
    user = notification.user
    kind = notification.kind
    if kind not in PUSH_KINDS or (kind == Kind.REMINDER and not user.reminders):
        return Status.NONE
    return Status.SENT if pushable else Status.NONE


def _newer_about_the_same(notification: Notification) -> bool:
    return (
        bool(notification.topic)
        and Notification.objects.filter(
            user_id=notification.user_id, topic=notification.topic, pk__gt=notification.pk
        )
        .exclude(kind=Kind.CHAT)
        .exists()
    )


def route(notification: Notification, now: datetime, *, present: bool, pushable: bool) -> Route:
    """Where `notification` goes at `now`, `present` if its person has its topic open and
    `pushable` if a browser of theirs takes push (`with_facts` reads both). A channel already
    settled keeps its status."""
    user = notification.user
    first = notification.email_status in OPEN and notification.push_status in OPEN
    first = first and notification.held_until is None
    email, push = notification.email_status, notification.push_status
    gone = not user.is_active or notification.read
    present = bool(notification.topic) and present
    if gone or present:
        settled = Status.PRESENT if present and not gone else Status.NONE
        return Route(
            live=first and not gone and not present,
            email=settled if email in OPEN else email,
            push=settled if push in OPEN else push,
        )
    if email in OPEN:
        email = email_choice(notification)
    if push in OPEN:
        push = push_choice(notification, pushable=pushable)
    held = notification.held_until is not None
    if held and _newer_about_the_same(notification):  # a newer message carries the news
        email = Status.SUPERSEDED if email == Status.SENT else email
        push = Status.SUPERSEDED if push == Status.SENT else push
    until = quiet_until(user, now)
    if until is not None:
        email = Status.HELD if email == Status.SENT else email
        push = Status.HELD if push == Status.SENT else push
    waiting = Status.HELD in (email, push)
    return Route(live=first, email=email, push=push, held_until=until if waiting else None)
