"""Celery tasks of notifications: delivering the outbox, its sweep, the daily digests.

Tasks only translate; the work is in `services` (imported inside each task: services imports
`deliver_enqueue` from here).
"""

from __future__ import annotations

import logging

from celery import shared_task

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

    return notifications_deliver_pending()


@shared_task(name="notifications.send_digests")
def send_digests() -> int:
    """Send the daily digests that are due (Celery beat, hourly)."""
    from apps.notifications.services import digests_send_due  # noqa: PLC0415  services imports this module to enqueue: a top-level import is a cycle

    return digests_send_due()


def deliver_enqueue(notification_ids: list[int]) -> None:
    """Enqueue delivery after commit; with the broker down, the sweep delivers them later."""
    try:
        deliver.delay(notification_ids)
    except Exception:  # the rows stay in the outbox: notifications.deliver_pending sends them
        logger.warning("broker unreachable: notifications %s wait for the sweep", notification_ids)
