"""notification_send: stored in the caller's transaction, delivered (pushed, emailed) after it."""

from typing import Any

import pytest
from django.core import mail
from django.db import transaction

from apps.notifications.models import Notification
from apps.notifications.services import (
    absolute_url,
    notification_mark_read,
    notification_send,
    notification_unread_count,
    user_group,
)
from tests.conftest import make_user

from .conftest import html_part

pytestmark = pytest.mark.django_db


def send(user: Any, email: bool = True, **fields: Any) -> Notification:
    data = {
        "kind": "your_turn",
        "title": "Your turn in Friday table: the Elf",
        "body": "Round 2: the party is waiting for you.",
        "url": "/games/7/",
        **fields,
    }
    return notification_send(user=user, email=email, **data)


def test_a_notification_is_stored_and_emailed_after_commit(
    django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    settings.SITE_URL = "https://vault.example.org/"
    user = make_user()
    with django_capture_on_commit_callbacks(execute=True):
        notification = send(user)
        assert mail.outbox == []  # nothing leaves before the commit

    stored = Notification.objects.get()
    assert stored == notification and stored.user == user and not stored.read
    assert (stored.kind, stored.url) == ("your_turn", "/games/7/")
    [email] = mail.outbox
    assert email.to == [user.email]
    assert email.subject == "Your turn in Friday table: the Elf"
    assert "Round 2: the party is waiting for you." in email.body
    assert "https://vault.example.org/games/7/" in email.body
    assert "https://vault.example.org/accounts/profile/" in email.body  # where to turn it off
    assert 'href="https://vault.example.org/games/7/"' in html_part(email)
    stored.refresh_from_db()
    assert stored.delivered_at is not None and stored.email_status == "sent"


def test_no_email_when_the_sender_says_so(django_capture_on_commit_callbacks: Any) -> None:
    user = make_user()
    with django_capture_on_commit_callbacks(execute=True):
        send(user, email=False)
    assert Notification.objects.get().email_status == "none" and mail.outbox == []


def test_a_rolled_back_transaction_sends_nothing(
    django_capture_on_commit_callbacks: Any,
) -> None:
    user = make_user()
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        send(user)
        raise RuntimeError("boom")
    assert callbacks == [] and mail.outbox == [] and not Notification.objects.exists()


def test_a_failing_mail_server_does_not_break_the_sender(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any, **kwargs: Any) -> None:
        raise OSError("mail server down")

    monkeypatch.setattr("django.core.mail.EmailMultiAlternatives.send", broken)
    with django_capture_on_commit_callbacks(execute=True):
        send(make_user())
    stored = Notification.objects.get()
    assert stored.delivered_at is None  # still in the outbox: the sweep tries again later


def test_unread_counts_and_marking_read_are_per_user() -> None:
    alice, bob = make_user(), make_user()
    first = send(alice, email=False)
    send(alice, email=False)
    send(bob, email=False)
    assert notification_unread_count(user=alice) == 2
    assert notification_mark_read(user=bob, notification_id=first.pk) == 0  # not Bob's
    assert notification_mark_read(user=alice, notification_id=first.pk) == 1
    assert notification_unread_count(user=alice) == 1
    assert notification_mark_read(user=alice) == 1
    assert notification_unread_count(user=alice) == 0
    assert notification_unread_count(user=bob) == 1


def test_long_titles_are_cut_and_urls_made_absolute(settings: Any) -> None:
    settings.SITE_URL = "http://127.0.0.1:8000"
    notification = send(make_user(), email=False, title="x" * 500)
    assert len(notification.title) == 200
    assert absolute_url("/games/1/") == "http://127.0.0.1:8000/games/1/"
    assert absolute_url("https://elsewhere.example/x") == "https://elsewhere.example/x"
    assert user_group(user_id=5) == "user-5"
