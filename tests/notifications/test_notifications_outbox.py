"""The outbox: a notification waits in its row until delivered, and is delivered once."""

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.db import transaction
from django.utils import timezone

from apps.notifications import tasks
from apps.notifications.models import Notification
from apps.notifications.services import (
    DELIVERY_LEASE,
    notification_deliver,
    notification_send,
    notifications_deliver_pending,
)
from apps.notifications.tasks import deliver_pending
from config.celery import app
from tests.conftest import make_user

pytestmark = pytest.mark.django_db(transaction=True)

UNREACHABLE_BROKER = "redis://127.0.0.1:1/0"  # nothing listens on port 1


@pytest.fixture
def broker_down() -> Iterator[None]:
    """Tasks really go to a broker, and that broker is unreachable."""
    saved = app.conf.task_always_eager, app.conf.broker_url
    app.conf.task_always_eager, app.conf.broker_url = False, UNREACHABLE_BROKER
    app._pool = None  # the producer pool was built for the old URL
    yield
    app.conf.task_always_eager, app.conf.broker_url = saved
    app._pool = None


def test_a_notification_written_while_the_broker_is_down_is_delivered_once_it_returns(
    broker_down: None, time_machine: Any
) -> None:
    alice = make_user()
    with transaction.atomic():
        notification_send(user=alice, kind="your_turn", title="Your turn", url="/games/1/")
    # Committed, the delivery task could not be enqueued: the row waits in the outbox.
    stored = Notification.objects.get()
    assert stored.delivered_at is None and stored.email_status == "pending"
    assert mail.outbox == []

    app.conf.task_always_eager = True  # the broker is back (and runs the beat's task here)
    time_machine.move_to(timezone.now() + timedelta(minutes=1))
    assert deliver_pending.delay().get() == 1
    assert deliver_pending.delay().get() == 0
    assert notifications_deliver_pending() == 0

    [email] = mail.outbox
    assert email.to == [alice.email] and email.subject == "Your turn"
    stored.refresh_from_db()
    assert stored.delivered_at is not None and stored.email_status == "sent"


def test_notices_committed_within_the_window_go_to_the_worker_as_one_task(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    enqueued: list[list[int]] = []
    monkeypatch.setattr(app.conf, "task_always_eager", False)
    monkeypatch.setattr(tasks.deliver, "delay", enqueued.append)
    settings.NOTIFICATIONS_GATHER_SECONDS = 60
    # Sent below by flush(), as when the window closes (its length was read at import: 0 here).
    monkeypatch.setattr(tasks._gathered_for_delivery, "window", 60)

    with transaction.atomic():
        first = notification_send(user=alice, kind="your_turn", title="Your turn", url="/g/1/")
    with transaction.atomic():
        second = notification_send(user=bob, kind="your_turn", title="Your turn", url="/g/2/")
    assert enqueued == []  # held for the window
    tasks._gathered_for_delivery.flush()

    assert enqueued == [[first.pk, second.pk]]


def test_a_claimed_notification_is_left_to_its_deliverer_until_the_lease_runs_out(
    time_machine: Any,
) -> None:
    alice = make_user()
    with transaction.atomic():
        notification_send(user=alice, kind="your_turn", title="Your turn", email=False)
    stored = Notification.objects.get()
    # A worker claimed it and died before marking it delivered.
    Notification.objects.filter(pk=stored.pk).update(
        delivered_at=None, claimed_until=timezone.now() + DELIVERY_LEASE
    )
    time_machine.move_to(timezone.now() + timedelta(minutes=1))
    assert notifications_deliver_pending() == 0
    assert notification_deliver(notification_id=stored.pk) is False

    time_machine.move_to(timezone.now() + DELIVERY_LEASE)
    assert notifications_deliver_pending() == 1
    assert notification_deliver(notification_id=stored.pk) is False  # delivered: never again


def test_fresh_rows_are_left_to_the_task_their_sender_enqueued(time_machine: Any) -> None:
    alice = make_user()
    Notification.objects.create(user=alice, kind="your_turn", title="Just written")
    assert notifications_deliver_pending() == 0
    time_machine.move_to(timezone.now() + timedelta(seconds=30))
    assert notifications_deliver_pending() == 1


NOW = timezone.now()
MINUTE = timedelta(minutes=1)


@pytest.mark.parametrize(
    ("row", "delivered"),
    [
        ({}, True),
        ({"delivered_at": NOW - MINUTE}, False),  # delivered already
        ({"claimed_until": NOW + MINUTE}, False),  # another deliverer holds it
        ({"claimed_until": NOW - MINUTE}, True),  # its lease ran out
        ({"claimed_until": NOW}, False),  # the lease ends as this deliverer starts: still held
        ({"held_until": NOW + MINUTE}, False),  # quiet hours hold it
        ({"held_until": NOW}, True),  # held until now: now it goes
        ({"held_until": NOW - MINUTE, "claimed_until": NOW + MINUTE}, False),
    ],
)
def test_a_deliverer_takes_a_notification_only_if_nobody_holds_it_and_it_is_due(
    row: dict[str, Any], delivered: bool
) -> None:
    alice = make_user()
    with transaction.atomic():
        notification_send(user=alice, kind="your_turn", title="Your turn", email=False)
    stored = Notification.objects.get()
    Notification.objects.filter(pk=stored.pk).update(**({"delivered_at": None} | row))

    assert notification_deliver(notification_id=stored.pk, now=NOW) is delivered
    stored.refresh_from_db()
    if delivered:  # taken, delivered and let go
        assert stored.delivered_at is not None and stored.claimed_until is None
    else:  # left as it was
        assert stored.claimed_until == row.get("claimed_until")
