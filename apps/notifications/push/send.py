"""Sending one notification to a person's browsers by web push.

The payload is JSON (`title`, `body`, `url`: absolute, `tag`: the topic, so a newer message
about the same game replaces the older one on the lock screen), encrypted for each browser's
keys (RFC 8291, aes128gcm) and signed with the site's VAPID key by pywebpush. A push service
answering 404 or 410 has forgotten the subscription: it is dropped. Any other failure is logged
and left (a push is a courtesy beside the notification list and the email).
"""

from __future__ import annotations

import json
import logging
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.utils import timezone
from pywebpush import WebPushException, webpush

from apps.notifications.models import Notification, PushSubscription
from apps.notifications.outbound import UnsafeAddress, outbound_url_check
from apps.notifications.push.keys import vapid_keys

logger = logging.getLogger(__name__)

TTL_SECONDS = 24 * 3600  # a push service keeps an undelivered message for a day
GONE = (404, 410)
BODY_MAX = 400


def push_payload(*, title: str, body: str, url: str, tag: str) -> dict[str, str]:
    """What the service worker shows (static/sw.js)."""
    return {"title": title, "body": body[:BODY_MAX], "url": url, "tag": tag}


def vapid_subject() -> str:
    """Who runs this push sender, for the push services (a mailto: or https: URL)."""
    if settings.VAPID_SUBJECT:
        return str(settings.VAPID_SUBJECT)
    return f"mailto:webmaster@{urlsplit(settings.SITE_URL).hostname or 'localhost'}"


def subscription_push(subscription: PushSubscription, payload: dict[str, Any]) -> str:
    """Send `payload` to one browser: "sent", "gone" (dropped), "failed" or "off" (no keys)."""
    keys = vapid_keys()
    if keys is None:
        return "off"
    try:
        outbound_url_check(subscription.endpoint)
    except UnsafeAddress as exc:
        logger.warning("push subscription %s refused: %s", subscription.pk, exc)
        subscription.delete()
        return "gone"
    try:
        webpush(
            subscription_info={
                "endpoint": subscription.endpoint,
                "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
            },
            data=json.dumps(payload),
            vapid_private_key=keys.private_key,
            vapid_claims={"sub": vapid_subject()},
            ttl=TTL_SECONDS,
            headers={"Urgency": "high"},
            timeout=settings.OUTBOUND_TIMEOUT,
        )
    except WebPushException as exc:
        if exc.status_code in GONE:
            subscription.delete()
            return "gone"
        logger.warning("push to subscription %s failed: %s", subscription.pk, exc.status_code)
        return "failed"
    except Exception as exc:  # the push service unreachable: the other channels carry it
        logger.warning("push to subscription %s failed: %s", subscription.pk, type(exc).__name__)
        return "failed"
    PushSubscription.objects.filter(pk=subscription.pk).update(last_sent=timezone.now())
    return "sent"


def notification_push(notification: Notification, *, url: str) -> bool:
    """Push `notification` to each of its person's browsers; whether any took it."""
    payload = push_payload(
        title=notification.title, body=notification.body, url=url, tag=notification.topic
    )
    results = [
        subscription_push(subscription, payload)
        for subscription in PushSubscription.objects.filter(user_id=notification.user_id)
    ]
    return "sent" in results
