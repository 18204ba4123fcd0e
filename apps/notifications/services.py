"""Messages to users: stored, pushed live to the user's websocket, emailed on request.

This app knows users, not quests: the caller (play) decides who is told what. Everything sent to
other processes (the channel message, the email) goes out after commit, so a rolled-back
transaction tells nobody anything.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import QuerySet
from django.urls import reverse

from apps.accounts.models import User
from apps.notifications.models import Notification

logger = logging.getLogger(__name__)

Kind = Notification.Kind
TITLE_MAX_LENGTH = Notification._meta.get_field("title").max_length or 200
URL_MAX_LENGTH = Notification._meta.get_field("url").max_length or 300


def user_group(*, user_id: int) -> str:
    """The channel group of one user's notification sockets (it carries only their messages)."""
    return f"user-{user_id}"


def absolute_url(url: str) -> str:
    """A site path made absolute with settings.SITE_URL (absolute URLs are kept)."""
    if not url or "://" in url:
        return url
    return settings.SITE_URL.rstrip("/") + "/" + url.lstrip("/")


def group_poke(*, group: str, message: dict[str, Any]) -> bool:
    """Send `message` to the sockets of a channel group; False if it could not be sent.

    A poke is a courtesy (clients catch up on their next fetch), so a frozen or unreachable
    Redis costs the caller at most `settings.REDIS_TIMEOUT` seconds, never a hung request.
    """
    layer = get_channel_layer()
    if layer is None:
        return False

    async def send() -> None:
        await asyncio.wait_for(layer.group_send(group, message), timeout=settings.REDIS_TIMEOUT)

    try:
        async_to_sync(send)()
    except Exception as exc:  # TimeoutError included: whatever Redis does, the caller goes on
        logger.warning("could not poke %s: %s", group, type(exc).__name__)
        return False
    return True


def _push(user_id: int, title: str, body: str, url: str) -> None:
    # The notification is stored; if the poke fails the page shows it on the next load.
    group_poke(
        group=user_group(user_id=user_id),
        message={"type": "notification.new", "title": title, "body": body, "url": url},
    )


def _email(address: str, title: str, body: str, url: str) -> None:
    parts = [part for part in (body, absolute_url(url)) if part]
    parts.append(
        "-- \nYou get this email because of your notification settings: "
        + absolute_url(reverse("profile"))
    )
    try:
        send_mail(title, "\n\n".join(parts) + "\n", None, [address])
    except Exception:  # mail servers fail; the stored and live notification still stand
        logger.exception("could not email a notification to %s", address)


def notification_send(
    *, user: User, kind: str, title: str, body: str = "", url: str = "", email: bool = False
) -> Notification:
    """Store a notification for `user`; after commit push it live and, if `email`, mail it."""
    title = title.strip()[:TITLE_MAX_LENGTH]
    url = url[:URL_MAX_LENGTH]
    notification = Notification.objects.create(
        user=user, kind=Kind(kind), title=title, body=body, url=url
    )
    transaction.on_commit(functools.partial(_push, user.pk, title, body, url))
    if email and user.email:
        transaction.on_commit(functools.partial(_email, user.email, title, body, url))
    return notification


def notifications_for(*, user: User, limit: int = 100) -> QuerySet[Notification]:
    """The user's latest notifications, newest first."""
    return Notification.objects.filter(user=user).order_by("-created", "-id")[:limit]


def notification_unread_count(*, user: User) -> int:
    return Notification.objects.filter(user=user, read=False).count()


def notification_mark_read(*, user: User, notification_id: int | None = None) -> int:
    """Mark one of the user's notifications (or all of them) read; how many changed."""
    unread = Notification.objects.filter(user=user, read=False)
    if notification_id is not None:
        unread = unread.filter(pk=notification_id)
    return unread.update(read=True)


def notification_open(*, user: User, notification_id: int) -> Notification | None:
    """The user's notification, marked read (None if it is not theirs)."""
    notification = Notification.objects.filter(user=user, pk=notification_id).first()
    if notification is not None and not notification.read:
        notification.read = True
        notification.save(update_fields=["read"])
    return notification
