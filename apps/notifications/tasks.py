"""Celery tasks of notifications: delivering the outbox, its sweep, the daily digests, and
posting chat webhook lines (retried with backoff).

Tasks only translate; the work is in `services` (imported inside each task: services imports
`deliver_enqueue` from here).
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings

from apps.core.gathering import Gatherer

logger = logging.getLogger(__name__)


@shared_task(name="notifications.deliver")
def deliver(notification_ids: list[int]) -> int:
    """Deliver these notifications (push, email as the user chose); how many were delivered."""
    from apps.notifications.services import notification_deliver  # noqa: PLC0415  services imports this module to enqueue: a top-level import is a cycle

    return sum(notification_deliver(notification_id=pk) for pk in notification_ids)


@shared_task(name="notifications.deliver_pending")
def deliver_pending() -> int:
    """Deliver what the outbox still holds (Celery beat, every minute)."""
    from apps.notifications.services import notifications_deliver_pending  # noqa: PLC0415  services imports this module to enqueue: a top-level import is a cycle
    from apps.notifications.webhooks.deliver import webhooks_pending  # noqa: PLC0415  the deliverer imports services, which import this module

    for message_id, attempts in webhooks_pending():
        webhook_enqueue(message_id, attempts)
    return notifications_deliver_pending()


@shared_task(name="notifications.send_digests")
def send_digests() -> int:
    """Send the daily digests that are due (Celery beat, hourly)."""
    from apps.notifications.services import digests_send_due  # noqa: PLC0415  services imports this module to enqueue: a top-level import is a cycle

    return digests_send_due()


@shared_task(name="notifications.webhook_post", bind=True, max_retries=None)
def webhook_post(self: object, message_id: int, attempt: int = 0) -> object:
    """Post one chat webhook line; on a failure worth retrying, again after a backoff that
    doubles each time (`WEBHOOK_BACKOFF_SECONDS`, ...), `WEBHOOK_RETRIES` times; then the host
    is told. What the try did: sent, retry, failed or skip."""
    from apps.notifications.webhooks.deliver import webhook_attempt  # noqa: PLC0415  the deliverer imports services, which import this module

    retries = settings.WEBHOOK_RETRIES
    result = webhook_attempt(message_id=message_id, attempt=attempt, last=attempt >= retries)
    if result.outcome == "retry":
        countdown = settings.WEBHOOK_BACKOFF_SECONDS * 2**attempt
        # Scheduled, not raised: the try is over (and an eager run, in tests, runs the retry
        # from the Retry it is handed back, as a worker runs it after the countdown).
        return self.retry(  # type: ignore[attr-defined]
            args=(message_id, attempt + 1), countdown=countdown, max_retries=None, throw=False
        )
    return result.outcome


def webhook_enqueue(message_id: int, attempt: int = 0) -> None:
    """Post a webhook line after commit; with the broker down, the outbox sweep posts it."""
    try:
        webhook_post.delay(message_id, attempt)
    except Exception:  # the row stays pending: notifications.deliver_pending enqueues it again
        logger.warning("broker unreachable: webhook line %s waits for the sweep", message_id)


def deliver_enqueue(notification_ids: list[int]) -> None:
    """Enqueue delivery after commit, gathered with what this process commits within
    NOTIFICATIONS_GATHER_SECONDS into one task (apps/core/gathering.py); with the broker down,
    or the process gone before it sent them, the sweep delivers them later."""
    if settings.NOTIFICATIONS_GATHER_SECONDS <= 0 or deliver.app.conf.task_always_eager:
        _deliver_send(notification_ids)
    else:
        _gathered_for_delivery.add(notification_ids)


def _deliver_send(notification_ids: list[int]) -> None:
    try:
        deliver.delay(notification_ids)
    except Exception:  # the rows stay in the outbox: notifications.deliver_pending sends them
        logger.warning("broker unreachable: notifications %s wait for the sweep", notification_ids)


# A burst's notices in tasks of at most 20, so that several worker processes share it.
_gathered_for_delivery = Gatherer(
    _deliver_send,
    window=settings.NOTIFICATIONS_GATHER_SECONDS,
    most=20,
    name="notifications-gathered",
)
