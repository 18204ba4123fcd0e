"""Messages to users: stored, pushed live to the user's websocket, emailed as they chose.

This app knows users, not quests: the caller (play) decides who is told what, and names the
`topic` (e.g. "game-12") that opening the game marks read and that presence is tracked on.

The notification row is its own outbox. `notification_send` writes it in the caller's
transaction; after commit a task delivers it (`notification_deliver`: the live push, then the
email the user's choices call for). If the broker was down, `notifications_deliver_pending`
(Celery beat, every minute) finds it still undelivered and delivers it then: a broker outage
delays a notification but never loses it. A deliverer first claims the row with a lease, so two
deliverers never both send it; a crash between the email and the mark lets the lease run out and
the row be sent again (at least once, never lost; twice only after a crash in that window).

Where it goes (live, email, web push) is decided by one policy, `apps.notifications.router`:
nothing while the user has the topic open on any device (`Presence`), nothing for what they
already read, turn news by email per `turn_email` (right away, in the daily digest, never),
reminders only if `reminders` is on, table talk by email only if `email_chat`, and push and
email held through the user's quiet hours. Every email has a text and an HTML part, absolute
links built from settings.SITE_URL, and a signed one-click unsubscribe link
(`List-Unsubscribe` headers).
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import connections, transaction
from django.db import router as db_router
from django.db.models import Field, Q, QuerySet
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django_stubs_ext import WithAnnotations

from apps.accounts.models import User
from apps.accounts.services import EMAIL_LISTS, user_email_opt_out, user_zone
from apps.core.prepared import PreparedQuery
from apps.core.realtime import group_poke, user_group
from apps.core.rows import row_update, rows_insert_returning_pks
from apps.notifications import router
from apps.notifications.models import Notification, Presence
from apps.notifications.push.send import notification_push
from apps.notifications.tasks import deliver_enqueue

logger = logging.getLogger(__name__)

Kind = Notification.Kind
Email = Notification.Email
TITLE_MAX_LENGTH = Notification._meta.get_field("title").max_length or 200
URL_MAX_LENGTH = Notification._meta.get_field("url").max_length or 300
TOPIC_MAX_LENGTH = Notification._meta.get_field("topic").max_length or 60

# How long a deliverer may hold a notification before another may try (and after a failure).
DELIVERY_LEASE = timedelta(minutes=5)
# The sweep leaves fresh rows to the task the sender enqueued.
SWEEP_GRACE = timedelta(seconds=20)
SWEEP_BATCH = 500
UNSUBSCRIBE_SALT = "notifications.unsubscribe"

TURN_KINDS = router.TURN_KINDS
# Which list an email belongs to, for its unsubscribe link.
EMAIL_LIST_OF_KIND = {kind: "turn" for kind in TURN_KINDS | {Kind.WEBHOOK}} | {
    Kind.REMINDER: "reminders",
    Kind.CHAT: "chat",
}


def absolute_url(url: str) -> str:
    """A site path made absolute with settings.SITE_URL (absolute URLs are kept)."""
    if not url or "://" in url:
        return url
    return settings.SITE_URL.rstrip("/") + "/" + url.lstrip("/")


# --- sending (the outbox) ----------------------------------------------------------------------


@dataclass(frozen=True)
class Notice:
    """One notification to write (see `notification_send` for the fields)."""

    user: User
    kind: str
    title: str
    body: str = ""
    url: str = ""
    topic: str = ""
    email: bool = True

    def row(self) -> Notification:
        return Notification(
            user=self.user,
            kind=Kind(self.kind),
            title=self.title.strip()[:TITLE_MAX_LENGTH],
            body=self.body,
            url=self.url[:URL_MAX_LENGTH],
            topic=self.topic[:TOPIC_MAX_LENGTH],
            emailable=self.email,
        )


def notification_send(
    *,
    user: User,
    kind: str,
    title: str,
    body: str = "",
    url: str = "",
    topic: str = "",
    email: bool = True,
) -> Notification:
    """Store a notification for `user` in the caller's transaction; deliver it after commit.

    `email=False`: never email it (the live push and the list only); otherwise the user's choices
    decide at delivery time.
    """
    notice = Notice(user=user, kind=kind, title=title, body=body, url=url, topic=topic, email=email)
    return notifications_send(notices=[notice])[0]


def notifications_send(*, notices: list[Notice]) -> list[Notification]:
    """`notification_send` for several at once: one INSERT, one delivery task after commit.

    A turn change tells every player to move; each of them costing a statement and a broker
    message of its own would slow the action that changed the turn.
    """
    if not notices:
        return []
    # One INSERT with the SQL made once (apps/core/rows.py): `bulk_create` built and compiled
    # its query each time, 2% of a web process's samples in Legend of Zagor flat out.
    notifications = [notice.row() for notice in notices]
    rows_insert_returning_pks(notifications)
    ids = [notification.pk for notification in notifications]
    transaction.on_commit(lambda: deliver_enqueue(ids))
    return notifications


def notification_deliver(*, notification_id: int, now: datetime | None = None) -> bool:
    """Deliver one notification from the outbox where the router sends it: the live toast, the
    email and the push its person's choices call for (`apps.notifications.router`).

    False if it was delivered already, or another deliverer holds it, or the email failed (the
    sweep tries again once the lease runs out), or quiet hours hold it (the sweep delivers it
    once they end).
    """
    now = now or timezone.now()
    if not _claim(notification_id=notification_id, now=now):
        return False
    live_since = now - settings.NOTIFICATIONS_PRESENCE_TTL
    notification = _WITH_FACTS.first(notification_id=notification_id, live_since=live_since)
    if notification is None:  # deleted (with its user) since it was claimed
        return False
    # The facts are the prepared query's annotations, which mypy's Django plugin cannot see
    # through a generic.
    present = bool(getattr(notification, "present"))  # noqa: B009
    pushable = bool(getattr(notification, "pushable"))  # noqa: B009
    route = router.route(notification, now, present=present, pushable=pushable)
    fields: dict[str, Any] = {}
    if present and notification.topic and not notification.read:
        # They are looking at the game (the page shows the turn itself): read as it arrives, so
        # it neither raises the badge nor waits to be cleared.
        notification.read = fields["read"] = True
    if route.live:
        _push(notification)
    if route.push == Email.SENT:
        sent = notification_push(notification, url=absolute_url(notification.url))
        fields["push_status"] = Email.SENT if sent else Email.FAILED
    elif route.push != notification.push_status:
        fields["push_status"] = route.push
    if route.email == Email.SENT:
        try:
            _email_notification(notification)
        except Exception:  # mail servers fail: leave it in the outbox for the sweep
            logger.exception("could not email notification %s", notification_id)
            # What went out is kept (no second push); the sweep tries the email again.
            fields |= {"email_status": Email.PENDING, "held_until": None}
            _save_fields(notification, fields)
            return False
    fields["email_status"] = route.email
    fields["held_until"] = route.held_until
    fields["claimed_until"] = None
    if route.held_until is None:
        fields["delivered_at"] = timezone.now()
    _save_fields(notification, fields)
    return route.held_until is None


_CLAIM_COLUMNS = ("id", "delivered_at", "claimed_until", "held_until")


@functools.cache
def _claim_sql(alias: str) -> str:
    """The claim's UPDATE, made once per database from the model's columns (building and
    compiling it through the ORM cost more than running it, on nearly every turn)."""
    quote = connections[alias].ops.quote_name
    meta = Notification._meta
    fields = [meta.get_field(name) for name in _CLAIM_COLUMNS]
    column = {f.name: quote(f.column) for f in fields if isinstance(f, Field)}
    claimed, held = column["claimed_until"], column["held_until"]
    return (
        f"UPDATE {quote(meta.db_table)} SET {claimed} = %s WHERE {column['id']} = %s"
        f" AND {column['delivered_at']} IS NULL AND ({claimed} IS NULL OR {claimed} < %s)"
        f" AND ({held} IS NULL OR {held} <= %s)"
    )


def _claim(*, notification_id: int, now: datetime) -> bool:
    """Take the notification for `DELIVERY_LEASE` if it is undelivered, nobody else holds it
    and quiet hours do not: the same UPDATE as

        Notification.objects.filter(pk=notification_id, delivered_at__isnull=True)
        .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
        .filter(Q(held_until__isnull=True) | Q(held_until__lte=now))
        .update(claimed_until=now + DELIVERY_LEASE)
    """
    alias = db_router.db_for_write(Notification)
    connection = connections[alias]
    adapt = connection.ops.adapt_datetimefield_value
    params = [adapt(now + DELIVERY_LEASE), notification_id, adapt(now), adapt(now)]
    with connection.cursor() as cursor:
        cursor.execute(_claim_sql(alias), params)
        return cursor.rowcount > 0


def _notification_with_facts(
    *, notification_id: int, live_since: datetime
) -> QuerySet[WithAnnotations[Notification, router.Facts]]:
    notifications = Notification.objects.select_related("user").filter(pk=notification_id)
    return router.with_facts_since(notifications, live_since)


# The deliverer runs once for nearly every turn that passes: its facts query built and compiled
# once (building it was a third of the worker's CPU a delivery, tests/load/deliverbench.py).
_WITH_FACTS = PreparedQuery(
    _notification_with_facts,
    notification_id=-1_000_003,
    live_since=datetime(1901, 1, 1, tzinfo=UTC),
)


def _save_fields(notification: Notification, fields: dict[str, Any]) -> None:
    """Write `fields` to the notification's row (one UPDATE made once, as the action path's)."""
    for name, value in fields.items():
        setattr(notification, name, value)
    row_update(notification, list(fields))


def notifications_deliver_pending(*, now: datetime | None = None) -> int:
    """Deliver what the outbox still holds (the broker was down, a worker died); how many.

    Also forgets presences whose socket died without saying goodbye.
    """
    now = now or timezone.now()
    pending = (
        Notification.objects.filter(delivered_at__isnull=True, created__lte=now - SWEEP_GRACE)
        .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
        .filter(Q(held_until__isnull=True) | Q(held_until__lte=now))
        .order_by("created")
        .values_list("pk", flat=True)[:SWEEP_BATCH]
    )
    delivered = sum(notification_deliver(notification_id=pk, now=now) for pk in list(pending))
    Presence.objects.filter(seen__lt=now - timedelta(days=1)).delete()
    return delivered


def _push(notification: Notification) -> None:
    # The notification is stored; if the poke fails the page shows it on the next load.
    message = {
        "type": "notification.new",
        "title": notification.title,
        "body": notification.body,
        "url": notification.url,
        "read": notification.read,
    }
    group_poke(group=user_group(user_id=notification.user_id), message=message)


# --- emails ------------------------------------------------------------------------------------


def unsubscribe_token(*, user_id: int, email_list: str) -> str:
    return signing.dumps({"user": user_id, "list": email_list}, salt=UNSUBSCRIBE_SALT)


def unsubscribe_url(*, user_id: int, email_list: str) -> str:
    token = unsubscribe_token(user_id=user_id, email_list=email_list)
    return absolute_url(reverse("notifications:unsubscribe", args=[token]))


@dataclass(frozen=True)
class Unsubscribe:
    user: User
    email_list: str

    @property
    def description(self) -> str:
        return EMAIL_LISTS[self.email_list]


def unsubscribe_read(*, token: str) -> Unsubscribe | None:
    """Who and what a signed unsubscribe token names (None: forged, mangled or unknown)."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or data.get("list") not in EMAIL_LISTS:
        return None
    user_id = data.get("user")
    user = User.objects.filter(pk=user_id).first() if isinstance(user_id, int) else None
    return None if user is None else Unsubscribe(user=user, email_list=data["list"])


def notification_unsubscribe(*, token: str) -> Unsubscribe | None:
    """Turn off the emails a signed token names; no login needed (the signature is the proof)."""
    found = unsubscribe_read(token=token)
    if found is not None:
        user_email_opt_out(user=found.user, email_list=found.email_list)
    return found


def _send(
    user: User, subject: str, template: str, context: dict[str, Any], email_list: str
) -> None:
    unsubscribe = unsubscribe_url(user_id=user.pk, email_list=email_list)
    context = {
        **context,
        "user": user,
        "unsubscribe_url": unsubscribe,
        "unsubscribe_what": EMAIL_LISTS[email_list],
        "profile_url": absolute_url(reverse("profile")),
        "site_url": settings.SITE_URL.rstrip("/"),
    }
    message = EmailMultiAlternatives(
        subject=subject,
        body=render_to_string(f"notifications/email/{template}.txt", context),
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    message.attach_alternative(
        render_to_string(f"notifications/email/{template}.html", context), "text/html"
    )
    message.send()


def _email_notification(notification: Notification) -> None:
    _send(
        notification.user,
        notification.title,
        "notification",
        {"notification": notification, "link": absolute_url(notification.url)},
        EMAIL_LIST_OF_KIND.get(Kind(notification.kind), "turn"),
    )


# --- the daily digest --------------------------------------------------------------------------


def _digest_due(user: User, now: datetime) -> bool:
    """Once a day, from DIGEST_HOUR in the user's own time zone (after their quiet hours)."""
    zone = user_zone(user)
    local_now = now.astimezone(zone)
    if local_now.hour < settings.NOTIFICATIONS_DIGEST_HOUR:
        return False
    if router.quiet_until(user, now) is not None:
        return False
    last = user.digest_sent_at
    return last is None or last.astimezone(zone).date() < local_now.date()


def digest_send(*, user: User, now: datetime | None = None) -> int:
    """Send `user` one email listing their unread turn news since the last digest; how many.

    The user row's `digest_sent_at` is claimed with a conditional update, so two runs never both
    send the day's digest. The email goes out after that claim commits (no lock is held while
    the mail server answers); if it fails the claim is given back and the next run tries again.
    """
    now = now or timezone.now()
    previous = user.digest_sent_at
    claimed = User.objects.filter(pk=user.pk, digest_sent_at=previous).update(digest_sent_at=now)
    if not claimed:
        return 0
    waiting = list(
        Notification.objects.filter(
            user=user, email_status=Email.DIGEST, created__lte=now
        ).order_by("created", "pk")
    )
    items = [n for n in waiting if not n.read]
    if items:
        context = {"items": [(n, absolute_url(n.url)) for n in items]}
        subject = f"Your games today: {len(items)} update{'s' if len(items) != 1 else ''}"
        try:
            _send(user, subject, "digest", context, "turn")
        except Exception:
            User.objects.filter(pk=user.pk, digest_sent_at=now).update(digest_sent_at=previous)
            raise
    Notification.objects.filter(pk__in=[n.pk for n in waiting]).update(email_status=Email.DIGESTED)
    return len(items)


def digests_send_due(*, now: datetime | None = None) -> int:
    """Every digest due now (Celery beat runs this hourly); how many emails went out."""
    now = now or timezone.now()
    users = User.objects.filter(
        is_active=True,
        turn_email=User.TurnEmail.DIGEST,
        notifications__email_status=Email.DIGEST,
    ).distinct()
    sent = 0
    for user in users:
        if not _digest_due(user, now):
            continue
        try:
            sent += 1 if digest_send(user=user, now=now) else 0
        except Exception:  # one refused address must not stop the others' digests
            logger.exception("could not send the digest of user %s", user.pk)
    return sent


# --- presence ----------------------------------------------------------------------------------


def presence_enter(*, user_id: int, topic: str, channel_name: str) -> None:
    """A socket of `user_id` opened `topic` (a game page)."""
    Presence.objects.update_or_create(
        channel_name=channel_name,
        defaults={"user_id": user_id, "topic": topic, "seen": timezone.now()},
    )


def presence_touch(*, channel_name: str) -> None:
    """The socket is still there (its heartbeat)."""
    Presence.objects.filter(channel_name=channel_name).update(seen=timezone.now())


def presence_leave(*, channel_name: str) -> None:
    Presence.objects.filter(channel_name=channel_name).delete()


def user_is_present(*, user_id: int, topic: str, now: datetime | None = None) -> bool:
    """Has `user_id` a live socket on `topic` (one whose heartbeat is recent)?"""
    return router.user_is_present(user_id=user_id, topic=topic, now=now or timezone.now())


# --- reading -----------------------------------------------------------------------------------


def notifications_for(*, user: User, limit: int = 100) -> QuerySet[Notification]:
    """The user's latest notifications, newest first."""
    return Notification.objects.filter(user=user).order_by("-created", "-id")[:limit]


def notification_unread_count(*, user: User) -> int:
    return Notification.objects.filter(user=user, read=False).count()


def notification_mark_read(
    *, user: User, notification_id: int | None = None, topic: str | None = None
) -> int:
    """Mark one of the user's notifications, those about `topic`, or all, read; how many."""
    unread = Notification.objects.filter(user=user, read=False)
    if notification_id is not None:
        unread = unread.filter(pk=notification_id)
    if topic is not None:
        unread = unread.filter(topic=topic)
    return unread.update(read=True)


def notification_open(*, user: User, notification_id: int) -> Notification | None:
    """The user's notification, marked read (None if it is not theirs)."""
    notification = Notification.objects.filter(user=user, pk=notification_id).first()
    if notification is not None and not notification.read:
        notification.read = True
        notification.save(update_fields=["read"])
    return notification
