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
        "turn_email": "immediately",
        "reminders": True,
        "email_chat": False,
        "time_zone": "",
        "away_until": None,
        "confirm_actions": True,
        "chat_handle": "",
        "quiet_start": None,
        "quiet_end": None,
    }


def test_profile_edits_display_name_and_notification_preferences(
    player_client: Client, player: User
) -> None:
    response = player_client.post(
        reverse("profile"),
        {
            "display_name": "  Brenna Ironhand  ",
            "turn_email": "digest",
            "reminders": "on",
            "time_zone": "Europe/Paris",
        },
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("profile")
    player.refresh_from_db()
    assert player.display_name == "Brenna Ironhand"
    assert player.turn_email == "digest"
    assert player.reminders is True and player.email_chat is False
    assert player.time_zone == "Europe/Paris"
    page = player_client.get(reverse("profile"))
    assert b"Profile saved." in page.content
    assert b"Brenna Ironhand" in page.content  # header shows the display name


def test_profile_can_turn_notifications_back_on_and_clear_display_name(
    player_client: Client, player: User
) -> None:
    player.display_name = "Old Name"
    player.turn_email = "never"
    player.reminders = False
    player.save()

    player_client.post(
        reverse("profile"),
        {"display_name": "", "turn_email": "immediately", "reminders": "on", "email_chat": "on"},
    )

    player.refresh_from_db()
    assert player.display_name == ""
    assert player.shown_name == "brenna"
    assert player.turn_email == "immediately"
    assert player.reminders is True and player.email_chat is True


def test_profile_with_too_long_display_name_shows_error_and_saves_nothing(
    player_client: Client, player: User
) -> None:
    response = player_client.post(
        reverse("profile"),
        {"display_name": "x" * 61, "turn_email": "never", "time_zone": "Mars/Olympus"},
    )

    assert response.status_code == 200
    errors = response.context["form"].errors
    assert errors["display_name"] and errors["time_zone"]
    player.refresh_from_db()
    assert player.display_name == ""
    assert player.turn_email == "immediately"


def test_profile_cannot_change_email_or_username(player_client: Client, player: User) -> None:
    player_client.post(
        reverse("profile"),
        {
            "display_name": "B",
            "turn_email": "never",
            "email": "evil@example.com",
            "username": "root",
        },
    )

    player.refresh_from_db()
    assert player.email == "brenna@example.com"
    assert player.username == "brenna"


def test_the_browser_sets_the_time_zone_once_and_pages_show_times_in_it(
    player_client: Client, player: User
) -> None:
    page = player_client.get(reverse("profile"))
    assert b"js/timezone.js" in page.content  # asks the browser, since none is set

    assert (
        player_client.post(reverse("time_zone_default"), {"time_zone": "Nowhere/X"}).status_code
        == 200
    )
    assert (
        player_client.post(reverse("time_zone_default"), {"time_zone": "Asia/Tokyo"}).status_code
        == 204
    )
    assert (
        player_client.post(reverse("time_zone_default"), {"time_zone": "Europe/Oslo"}).status_code
        == 200
    )
    player.refresh_from_db()
    assert player.time_zone == "Asia/Tokyo"  # the first browser answer; the profile changes it

    page = player_client.get(reverse("profile"))
    assert b"js/timezone.js" not in page.content
    assert b'<dd id="current-time-zone">Asia/Tokyo</dd>' in page.content


def test_sign_up_keeps_the_browsers_time_zone(client: Client) -> None:
    client.post(
        reverse("signup"),
        {
            "username": "kenji",
            "email": "kenji@example.com",
            "password1": "lantern-crypt-7781",
            "password2": "lantern-crypt-7781",
            "time_zone": "Asia/Tokyo",
        },
    )
    assert User.objects.get(username="kenji").time_zone == "Asia/Tokyo"


def test_away_until_is_read_in_the_players_time_zone(player_client: Client, player: User) -> None:
    player.time_zone = "Asia/Tokyo"
    player.save()
    player_client.post(
        reverse("profile"),
        {"turn_email": "immediately", "time_zone": "Asia/Tokyo", "away_until": "2026-12-24T09:00"},
    )
    player.refresh_from_db()
    assert player.away_until is not None
    assert player.away_until.isoformat() == "2026-12-24T00:00:00+00:00"


def test_away_until_typed_with_a_new_time_zone_is_read_in_the_new_zone(
    player_client: Client, player: User
) -> None:
    player.time_zone = "Europe/London"
    player.save()
    response = player_client.post(
        reverse("profile"),
        {"turn_email": "immediately", "time_zone": "Asia/Tokyo", "away_until": "2026-12-24T09:00"},
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.time_zone == "Asia/Tokyo"
    assert player.away_until is not None
    assert player.away_until.isoformat() == "2026-12-24T00:00:00+00:00"  # 09:00 in Tokyo


def test_profile_turns_the_costly_move_confirmations_off_and_on(
    player_client: Client, player: User
) -> None:
    assert player.confirm_actions  # asked by default
    player_client.post(reverse("profile"), {"turn_email": "immediately", "reminders": "on"})
    player.refresh_from_db()
    assert not player.confirm_actions

    player_client.post(reverse("profile"), {"turn_email": "immediately", "confirm_actions": "on"})
    player.refresh_from_db()
    assert player.confirm_actions
