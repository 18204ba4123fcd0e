"""Storing and forgetting the browsers a person turned push notifications on in."""

from __future__ import annotations

import re
from typing import Any

from django.db import transaction

from apps.accounts.models import User
from apps.notifications.models import PushSubscription
from apps.notifications.outbound import UnsafeAddress, outbound_url_check
from apps.notifications.push.keys import b64url_decode

MAX_PER_USER = 20
ENDPOINT_MAX = PushSubscription._meta.get_field("endpoint").max_length or 1000
KEY_TEXT = re.compile(r"^[A-Za-z0-9_-]+={0,2}$")


class SubscriptionRefused(ValueError):
    """Not a subscription the site can push to; the message says why."""


def _key(keys: Any, name: str, length: int) -> str:
    value = keys.get(name) if isinstance(keys, dict) else None
    if not isinstance(value, str) or not KEY_TEXT.match(value):
        raise SubscriptionRefused(f"The subscription has no {name} key.")
    try:
        raw = b64url_decode(value.rstrip("="))
    except ValueError:
        raise SubscriptionRefused(f"The subscription's {name} key is not base64url.") from None
    if len(raw) != length:
        raise SubscriptionRefused(f"The subscription's {name} key has the wrong length.")
    return value.rstrip("=")


def browser_label(user_agent: str) -> str:
    """The browser and system a user agent names, in words ("Firefox on Android")."""
    agent = user_agent or ""
    browser = next(
        (
            name
            for token, name in (
                ("Edg/", "Edge"),
                ("Firefox/", "Firefox"),
                ("SamsungBrowser", "Samsung Internet"),
                ("Chrome/", "Chrome"),
                ("Safari/", "Safari"),
            )
            if token in agent
        ),
        "A browser",
    )
    system = next(
        (
            name
            for token, name in (
                ("Android", "Android"),
                ("iPhone", "iPhone"),
                ("iPad", "iPad"),
                ("Mac OS X", "macOS"),
                ("Windows", "Windows"),
                ("Linux", "Linux"),
            )
            if token in agent
        ),
        "",
    )
    return f"{browser} on {system}" if system else browser


def push_subscription_save(*, user: User, data: Any, user_agent: str = "") -> PushSubscription:
    """Store the browser's subscription for `user` (a browser subscribing again replaces its
    old row; an endpoint is one browser's, so it moves to whoever subscribed it last)."""
    if not isinstance(data, dict):
        raise SubscriptionRefused("Not a push subscription.")
    endpoint = data.get("endpoint")
    if not isinstance(endpoint, str) or not endpoint or len(endpoint) > ENDPOINT_MAX:
        raise SubscriptionRefused("The subscription has no endpoint.")
    try:
        outbound_url_check(endpoint)
    except UnsafeAddress as exc:
        raise SubscriptionRefused(f"The push service's address is refused: {exc}") from None
    keys = data.get("keys")
    p256dh, auth = _key(keys, "p256dh", 65), _key(keys, "auth", 16)
    with transaction.atomic():
        if PushSubscription.objects.filter(user=user).exclude(endpoint=endpoint).count() >= (
            MAX_PER_USER
        ):
            raise SubscriptionRefused(f"At most {MAX_PER_USER} browsers: remove one first.")
        subscription, _ = PushSubscription.objects.update_or_create(
            endpoint=endpoint,
            defaults={
                "user": user,
                "p256dh": p256dh,
                "auth": auth,
                "label": browser_label(user_agent)[:100],
            },
        )
    return subscription


def push_subscriptions_of(*, user: User) -> list[PushSubscription]:
    return list(PushSubscription.objects.filter(user=user).order_by("created"))


def push_subscription_remove(*, user: User, subscription_id: int) -> bool:
    deleted, _ = PushSubscription.objects.filter(pk=subscription_id, user=user).delete()
    return deleted > 0
