"""Who gets an email, when: the user's choices, presence, the daily digest, unsubscribing."""

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from apps.accounts.models import User
from apps.notifications.models import Notification
from apps.notifications.services import (
    digests_send_due,
    notification_mark_read,
    notification_send,
    presence_enter,
    presence_leave,
    unsubscribe_token,
)
from apps.notifications.tasks import send_digests
from tests.conftest import make_user

from .conftest import html_part

pytestmark = pytest.mark.django_db

Capture = Any
TOPIC = "game-7"


def send(user: User, kind: str = "your_turn", title: str = "Your turn in Friday table") -> None:
    notification_send(user=user, kind=kind, title=title, url="/games/7/", topic=TOPIC)


def status(user: User) -> list[str]:
    return [n.email_status for n in Notification.objects.filter(user=user).order_by("pk")]


# --- the user's choices ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "kind", "expected"),
    [
        ({}, "your_turn", "sent"),
        ({"turn_email": "never"}, "your_turn", "none"),
        ({"turn_email": "digest"}, "timeout", "digest"),
        ({}, "reminder", "sent"),
        ({"reminders": False}, "reminder", "none"),
        ({"turn_email": "digest"}, "reminder", "none"),  # the digest covers the turn itself
        ({}, "chat", "none"),  # table talk is emailed only on request
        ({"email_chat": True}, "chat", "sent"),
    ],
)
def test_the_users_choices_decide_the_email(
    django_capture_on_commit_callbacks: Capture, fields: dict[str, Any], kind: str, expected: str
) -> None:
    user = make_user(**fields)
    with django_capture_on_commit_callbacks(execute=True):
        send(user, kind=kind)
    assert status(user) == [expected]
    assert len(mail.outbox) == (1 if expected == "sent" else 0)


def test_no_email_while_the_user_has_the_game_open(
    django_capture_on_commit_callbacks: Capture, time_machine: Any
) -> None:
    alice = make_user()
    presence_enter(user_id=alice.pk, topic=TOPIC, channel_name="socket-1")
    with django_capture_on_commit_callbacks(execute=True):
        send(alice)
        notification_send(user=alice, kind="your_turn", title="Elsewhere", topic="game-8")
    assert status(alice) == ["present", "sent"]  # only the game not on screen is emailed
    assert [m.subject for m in mail.outbox] == ["Elsewhere"]

    # A socket that stopped its heartbeat (its process died) no longer counts...
    time_machine.move_to(datetime.now(UTC) + timedelta(minutes=5))
    with django_capture_on_commit_callbacks(execute=True):
        send(alice, title="Later")
    # ...and neither does one that closed.
    presence_enter(user_id=alice.pk, topic=TOPIC, channel_name="socket-2")
    presence_leave(channel_name="socket-2")
    with django_capture_on_commit_callbacks(execute=True):
        send(alice, title="Even later")
    assert [m.subject for m in mail.outbox] == ["Elsewhere", "Later", "Even later"]


@pytest.mark.parametrize("open_on_screen", [True, False])
def test_a_delivery_takes_three_statements_its_claim_its_row_with_what_routing_asks_its_result(
    django_capture_on_commit_callbacks: Capture,
    django_assert_num_queries: Capture,
    open_on_screen: bool,
) -> None:
    # Nearly every turn that passes is delivered: the presence and push look-ups ride on the row.
    alice = make_user()
    if open_on_screen:
        presence_enter(user_id=alice.pk, topic=TOPIC, channel_name="socket-1")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        send(alice)
    with django_assert_num_queries(3):
        for callback in callbacks:
            callback()
    [notice] = Notification.objects.filter(user=alice)
    assert notice.delivered_at is not None
    assert (notice.email_status, notice.read) == (
        ("present", True) if open_on_screen else ("sent", False)
    )
    assert len(mail.outbox) == (0 if open_on_screen else 1)


def test_what_was_read_before_delivery_is_not_emailed(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    alice = make_user()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        send(alice)
    notification_mark_read(user=alice, topic=TOPIC)  # she opened the game first
    for callback in callbacks:
        callback()
    assert status(alice) == ["none"] and mail.outbox == []


# --- every email -------------------------------------------------------------------------------


def test_every_email_has_text_and_html_and_links_built_from_the_site_address(
    django_capture_on_commit_callbacks: Capture, settings: Any
) -> None:
    settings.SITE_URL = "http://127.0.0.1:8765"
    alice = make_user()
    with django_capture_on_commit_callbacks(execute=True):
        send(alice)

    [email] = mail.outbox
    html = html_part(email)
    assert "http://127.0.0.1:8765/games/7/" in email.body
    assert 'href="http://127.0.0.1:8765/games/7/"' in html
    unsubscribe = email.extra_headers["List-Unsubscribe"]
    assert unsubscribe.startswith("<http://127.0.0.1:8765/notifications/unsubscribe/")
    assert email.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert unsubscribe.strip("<>") in email.body and unsubscribe.strip("<>") in html
    assert "8000" not in f"{email.body}{html}"


# --- the daily digest --------------------------------------------------------------------------


def test_the_daily_digest_comes_once_a_day_at_eight_in_the_users_time_zone(
    django_capture_on_commit_callbacks: Capture, time_machine: Any, settings: Any
) -> None:
    settings.SITE_URL = "https://vault.example.org"
    # 05:00 UTC is 08:00 in Moscow (UTC+3 all year) and 06:00 in Lisbon (winter).
    time_machine.move_to(datetime(2026, 12, 1, 4, 0, tzinfo=UTC))
    olga = make_user(turn_email="digest", time_zone="Europe/Moscow")
    rui = make_user(turn_email="digest", time_zone="Europe/Lisbon")
    with django_capture_on_commit_callbacks(execute=True):
        for user in (olga, rui):
            send(user, title="Your turn in Friday table")
            send(user, kind="timeout", title="Your turn in Friday table timed out")
            notification_send(user=user, kind="game_over", title="Read already", topic="game-9")
    notification_mark_read(user=olga, topic="game-9")  # she has seen that game since
    assert mail.outbox == []
    assert digests_send_due() == 0  # 07:00 in Moscow: not yet

    time_machine.move_to(datetime(2026, 12, 1, 5, 30, tzinfo=UTC))
    assert send_digests() == 1
    [digest] = mail.outbox
    assert digest.to == [olga.email]
    assert digest.subject == "Your games today: 2 updates"
    assert "Your turn in Friday table timed out" in digest.body
    assert "Read already" not in digest.body
    html = html_part(digest)
    assert "https://vault.example.org/games/7/" in digest.body
    assert 'href="https://vault.example.org/games/7/"' in html
    assert "List-Unsubscribe" in digest.extra_headers
    assert set(status(olga)) == {"digested"}

    assert digests_send_due() == 0  # once a day
    time_machine.move_to(datetime(2026, 12, 1, 9, 0, tzinfo=UTC))  # 09:00 in Lisbon
    assert digests_send_due() == 1
    assert [m.to for m in mail.outbox] == [[olga.email], [rui.email]]
    assert "Read already" in mail.outbox[1].body  # Rui never opened that game

    time_machine.move_to(datetime(2026, 12, 2, 6, 0, tzinfo=UTC))  # the next day, nothing new
    assert digests_send_due() == 0 and len(mail.outbox) == 2


# --- unsubscribing -----------------------------------------------------------------------------


def test_the_unsubscribe_link_works_without_logging_in(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    alice = make_user()
    with django_capture_on_commit_callbacks(execute=True):
        send(alice)
    link = mail.outbox[0].extra_headers["List-Unsubscribe"].strip("<>")
    path = link.removeprefix("http://127.0.0.1:8000")
    anonymous = Client(enforce_csrf_checks=True)  # as a mail client's one-click POST comes

    page = anonymous.get(path)
    assert page.status_code == 200 and b"Stop turn emails" in page.content
    alice.refresh_from_db()
    assert alice.turn_email == "immediately"  # a GET (a link scanner) changes nothing

    done = anonymous.post(path, {"List-Unsubscribe": "One-Click"})
    assert done.status_code == 200 and b"will get no more turn emails" in done.content
    alice.refresh_from_db()
    assert alice.turn_email == "never"

    with django_capture_on_commit_callbacks(execute=True):
        send(alice)
    assert len(mail.outbox) == 1


def test_each_list_unsubscribes_separately_and_forged_tokens_do_nothing() -> None:
    alice = make_user(email_chat=True)
    client = Client()

    client.post(
        f"/notifications/unsubscribe/{unsubscribe_token(user_id=alice.pk, email_list='reminders')}"
    )
    alice.refresh_from_db()
    assert (alice.reminders, alice.turn_email, alice.email_chat) == (False, "immediately", True)

    token = unsubscribe_token(user_id=alice.pk, email_list="chat")
    forged = token[:-3] + ("aaa" if not token.endswith("aaa") else "bbb")
    assert client.post(f"/notifications/unsubscribe/{forged}").status_code == 400
    assert client.get("/notifications/unsubscribe/nonsense").status_code == 400
    alice.refresh_from_db()
    assert alice.email_chat is True
    client.post(f"/notifications/unsubscribe/{token}")
    alice.refresh_from_db()
    assert alice.email_chat is False


def test_a_digest_the_mail_server_refused_is_sent_on_the_next_run(
    django_capture_on_commit_callbacks: Capture,
    time_machine: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    time_machine.move_to(datetime(2026, 12, 1, 9, 0, tzinfo=UTC), tick=False)
    rui = make_user(turn_email="digest")
    with django_capture_on_commit_callbacks(execute=True):
        send(rui)

    def refused(*args: Any, **kwargs: Any) -> None:
        raise OSError("mail server down")

    with monkeypatch.context() as patched:
        patched.setattr("django.core.mail.EmailMultiAlternatives.send", refused)
        assert digests_send_due() == 0
    assert status(rui) == ["digest"]

    assert digests_send_due() == 1
    assert [m.to for m in mail.outbox] == [[rui.email]] and status(rui) == ["digested"]
