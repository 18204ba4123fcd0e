"""Posting a webhook line: one try, and what follows from its answer."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import requests
from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from apps.notifications.models import Notification, WebhookMessage
from apps.notifications.outbound import UnsafeAddress, outbound_url_check
from apps.notifications.services import notification_send

logger = logging.getLogger(__name__)

Status = WebhookMessage.Status
# Left to the task its sender enqueued (and to its retries) before a sweep takes a line over.
SWEEP_GRACE = timedelta(minutes=1)
RETRIES_STALE = timedelta(hours=2)


@dataclass(frozen=True)
class Attempt:
    """One try: "sent", "retry" (try again later), "failed" (given up, the host told) or
    "skip" (nothing to do: already settled, or another deliverer has it)."""

    outcome: str
    error: str = ""


def _post(url: str, payload: dict[str, Any]) -> tuple[bool, bool, str]:
    """(ok, worth retrying, error in words)."""
    try:
        outbound_url_check(url)
    except UnsafeAddress as exc:
        return False, False, str(exc)
    try:
        answer = requests.post(
            url, json=payload, timeout=settings.OUTBOUND_TIMEOUT, allow_redirects=False
        )
    except requests.RequestException as exc:
        return False, True, f"no answer ({type(exc).__name__})"
    if 200 <= answer.status_code < 300:
        return True, False, ""
    retry = answer.status_code >= 500 or answer.status_code == 429
    return False, retry, f"HTTP {answer.status_code}"


def webhook_attempt(*, message_id: int, attempt: int, last: bool) -> Attempt:
    """Try to post line `message_id` for the `attempt`-th time (0 first); `last`: no retry
    follows, so a failure gives up and tells the host."""
    claimed = WebhookMessage.objects.filter(
        pk=message_id, status=Status.PENDING, attempts=attempt
    ).update(attempts=attempt + 1)
    if not claimed:
        return Attempt("skip")
    message = WebhookMessage.objects.select_related("report_to").get(pk=message_id)
    ok, retry, error = _post(message.url, message.payload)
    if ok:
        WebhookMessage.objects.filter(pk=message_id).update(
            status=Status.SENT, sent_at=timezone.now(), last_error=""
        )
        return Attempt("sent")
    logger.warning("webhook line %s, try %s: %s", message_id, attempt + 1, error)
    if retry and not last:
        WebhookMessage.objects.filter(pk=message_id).update(last_error=error[:200])
        return Attempt("retry", error)
    WebhookMessage.objects.filter(pk=message_id).update(status=Status.FAILED, last_error=error)
    _tell_the_host(message, error, tries=attempt + 1)
    return Attempt("failed", error)


def _tell_the_host(message: WebhookMessage, error: str, *, tries: int) -> None:
    if message.report_to is None:
        return
    where = f" of {message.about}" if message.about else ""
    notification_send(
        user=message.report_to,
        kind=Notification.Kind.WEBHOOK,
        title=f"The chat webhook{where} is failing",
        body=(
            f"The chat did not take the table's news ({error}, {tries} "
            f"tr{'ies' if tries != 1 else 'y'}). Check the webhook address you set, or set a "
            "new one."
        ),
        url=message.manage_url,
    )


def webhooks_pending(*, now: datetime | None = None) -> list[tuple[int, int]]:
    """Lines whose task never came (the broker was down) or whose retries were lost, as
    (id, attempts so far), for the outbox sweep."""
    now = now or timezone.now()
    lost = Q(attempts=0, created__lte=now - SWEEP_GRACE) | Q(created__lte=now - RETRIES_STALE)
    rows = WebhookMessage.objects.filter(status=Status.PENDING).filter(lost)
    return list(rows.order_by("created").values_list("pk", "attempts")[:200])
