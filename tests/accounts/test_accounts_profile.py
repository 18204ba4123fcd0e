import pytest
from django.test import Client
from django.urls import reverse

from apps.accounts.models import User

pytestmark = pytest.mark.django_db


def test_profile_requires_login(client: Client) -> None:
    response = client.get(reverse("profile"))

    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={reverse('profile')}"


def test_profile_url_is_accounts_profile() -> None:
    assert reverse("profile") == "/accounts/profile/"


def test_profile_shows_email_and_current_preferences(player_client: Client) -> None:
    response = player_client.get(reverse("profile"))

    assert response.status_code == 200
    assert b"brenna@example.com" in response.content
    form = response.context["form"]
    assert form.initial == {
        "display_name": "",
        "email_on_turn": True,
        "email_reminders": True,
        "confirm_actions": True,
    }


def test_profile_edits_display_name_and_notification_preferences(
    player_client: Client, player: User
) -> None:
    response = player_client.post(
        reverse("profile"), {"display_name": "  Brenna Ironhand  ", "email_reminders": "on"}
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("profile")
    player.refresh_from_db()
    assert player.display_name == "Brenna Ironhand"
    assert player.email_on_turn is False
    assert player.email_reminders is True
    page = player_client.get(reverse("profile"))
    assert b"Profile saved." in page.content
    assert b"Brenna Ironhand" in page.content  # header shows the display name


def test_profile_can_turn_notifications_back_on_and_clear_display_name(
    player_client: Client, player: User
) -> None:
    player.display_name = "Old Name"
    player.email_on_turn = False
    player.email_reminders = False
    player.save()

    player_client.post(
        reverse("profile"),
        {"display_name": "", "email_on_turn": "on", "email_reminders": "on"},
    )

    player.refresh_from_db()
    assert player.display_name == ""
    assert player.shown_name == "brenna"
    assert player.email_on_turn is True
    assert player.email_reminders is True


def test_profile_with_too_long_display_name_shows_error_and_saves_nothing(
    player_client: Client, player: User
) -> None:
    response = player_client.post(reverse("profile"), {"display_name": "x" * 61})

    assert response.status_code == 200
    assert response.context["form"].errors["display_name"]
    player.refresh_from_db()
    assert player.display_name == ""
    assert player.email_on_turn is True


def test_profile_cannot_change_email_or_username(player_client: Client, player: User) -> None:
    player_client.post(
        reverse("profile"),
        {"display_name": "B", "email": "evil@example.com", "username": "root"},
    )

    player.refresh_from_db()
    assert player.email == "brenna@example.com"
    assert player.username == "brenna"


def test_profile_turns_the_costly_move_confirmations_off_and_on(
    player_client: Client, player: User
) -> None:
    assert player.confirm_actions  # asked by default
    player_client.post(reverse("profile"), {"email_on_turn": "on"})
    player.refresh_from_db()
    assert not player.confirm_actions

    player_client.post(reverse("profile"), {"confirm_actions": "on"})
    player.refresh_from_db()
    assert player.confirm_actions
