"""/notifications/: the list, marking read, following a link; the header badge."""

import pytest
from django.test import Client

from apps.accounts.models import User
from apps.notifications.models import Notification
from apps.notifications.services import notification_send
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def send(user: User, title: str = "Your turn in Friday table: the Elf") -> Notification:
    return notification_send(user=user, kind="your_turn", title=title, url="/games/3/")


def test_the_list_shows_my_notifications_and_the_badge_counts_unread() -> None:
    alice, bob = make_user(), make_user()
    send(alice)
    send(bob, title="Bob's secret turn")

    page = client_for(alice).get("/notifications/")

    assert page.status_code == 200
    html = page.content.decode()
    assert "Your turn in Friday table: the Elf" in html
    assert "Bob's secret turn" not in html
    assert 'id="notif-count">1<' in html
    assert "js/notifications.js" in html


def test_no_badge_number_without_unread_and_no_socket_for_visitors(client: Client) -> None:
    alice = make_user()
    html = client_for(alice).get("/notifications/").content.decode()
    assert 'id="notif-count" hidden>0<' in html
    assert "Nothing yet" in html
    assert "notifications.js" not in client.get("/accounts/login/").content.decode()


def test_marking_one_or_all_read() -> None:
    alice = make_user()
    first, second = send(alice), send(alice)
    client = client_for(alice)

    assert client.post(f"/notifications/{first.pk}/read").status_code == 302
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.read and not second.read
    assert client.post("/notifications/read").status_code == 302
    assert not Notification.objects.filter(read=False).exists()
    assert client.get("/notifications/read").status_code == 405


def test_opening_a_notification_marks_it_read_and_follows_its_link() -> None:
    alice, bob = make_user(), make_user()
    notification = send(alice)

    assert client_for(bob).get(f"/notifications/{notification.pk}/").status_code == 404
    response = client_for(alice).get(f"/notifications/{notification.pk}/")

    assert response.status_code == 302 and response["Location"] == "/games/3/"
    notification.refresh_from_db()
    assert notification.read


def test_visitors_are_sent_to_log_in(client: Client) -> None:
    response = client.get("/notifications/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
