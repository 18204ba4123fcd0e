from typing import Any

import pytest
from django.core import mail
from django.db import IntegrityError, transaction
from django.test import Client, TestCase
from django.urls import reverse

from apps.accounts import services
from apps.accounts.forms import SignUpForm
from apps.accounts.models import User

pytestmark = pytest.mark.django_db

GOOD = {
    "username": "thorin",
    "email": "thorin@example.com",
    "password1": "ember-and-ash-4417",
    "password2": "ember-and-ash-4417",
}


def _sign_up(client: Client, **changes: str) -> Any:
    return client.post(reverse("signup"), {**GOOD, **changes})


def test_sign_up_page_renders_the_form(client: Client) -> None:
    response = client.get(reverse("signup"))
    assert response.status_code == 200
    assert b'name="username"' in response.content
    assert b'name="password2"' in response.content


def test_sign_up_creates_the_user_logs_them_in_and_redirects_home(client: Client) -> None:
    response = _sign_up(client)

    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    user = User.objects.get(username="thorin")
    assert user.email == "thorin@example.com"
    assert user.check_password(GOOD["password1"])
    assert client.session["_auth_user_id"] == str(user.pk)
    home = client.get(reverse("home"))
    assert b"thorin" in home.content


def test_sign_up_follows_a_safe_next_but_ignores_an_offsite_one(client: Client) -> None:
    response = client.post(reverse("signup") + "?next=/accounts/profile/", GOOD)
    assert response["Location"] == "/accounts/profile/"

    other = Client()
    response = other.post(
        reverse("signup") + "?next=https://evil.example/",
        {**GOOD, "username": "ulla", "email": "ulla@example.com"},
    )
    assert response["Location"] == reverse("home")


def test_sign_up_with_taken_username_shows_error_and_saves_nothing(
    client: Client, player: User
) -> None:
    response = _sign_up(client, username="BRENNA")

    assert response.status_code == 200
    assert "That username is already taken" in response.context["form"].errors["username"][0]
    assert b"That username is already taken" in response.content
    assert User.objects.count() == 1
    assert "_auth_user_id" not in client.session


def test_sign_up_with_a_registered_email_answers_as_for_a_new_one(
    client: Client, player: User
) -> None:
    """Sign-up never tells whether an address is registered: the same redirect, the same
    welcome; the address's owner is emailed about the new account instead."""
    fresh = _sign_up(Client(), username="ulla", email="ulla@example.com")
    mail.outbox.clear()

    with TestCase.captureOnCommitCallbacks(execute=True):
        taken = _sign_up(client, email="Brenna@EXAMPLE.com")

    assert (taken.status_code, taken["Location"]) == (fresh.status_code, fresh["Location"])
    assert b"already" not in client.get(reverse("home")).content
    thorin = User.objects.get(username="thorin")
    assert thorin.email == "Brenna@example.com"
    assert client.session["_auth_user_id"] == str(thorin.pk)
    [notice] = mail.outbox
    assert notice.to == ["Brenna@example.com"]
    assert '"thorin"' in notice.body and '"brenna"' in notice.body
    assert "password_reset" in notice.body


def test_sign_up_with_a_new_email_sends_no_notice(client: Client) -> None:
    with TestCase.captureOnCommitCallbacks(execute=True):
        _sign_up(client)

    assert mail.outbox == []


def test_the_sign_up_form_has_no_taken_email_error(player: User) -> None:
    form = SignUpForm({**GOOD, "email": "brenna@example.com"})

    assert form.is_valid(), form.errors


def test_sign_up_with_weak_password_is_rejected_by_the_validators(client: Client) -> None:
    response = _sign_up(client, password1="12345678", password2="12345678")

    assert response.status_code == 200
    errors = response.context["form"].errors["password1"]
    assert any("too common" in e for e in errors)
    assert any("entirely numeric" in e for e in errors)
    assert not User.objects.exists()


def test_sign_up_with_short_password_is_rejected(client: Client) -> None:
    response = _sign_up(client, password1="x7!q", password2="x7!q")

    assert any("too short" in e for e in response.context["form"].errors["password1"])
    assert not User.objects.exists()


def test_sign_up_with_password_like_the_username_is_rejected(client: Client) -> None:
    response = _sign_up(
        client, username="grimsbyhero", password1="grimsbyhero1", password2="grimsbyhero1"
    )

    assert any("too similar" in e for e in response.context["form"].errors["password1"])
    assert not User.objects.exists()


def test_sign_up_with_mismatched_passwords_shows_error_and_saves_nothing(client: Client) -> None:
    response = _sign_up(client, password2="something-else-entirely-99")

    assert response.status_code == 200
    assert response.context["form"].errors["password2"] == ["The two passwords do not match."]
    assert not User.objects.exists()


@pytest.mark.parametrize("email", ["not-an-email", "thorin@", "@example.com", ""])
def test_sign_up_with_bad_email_shows_error_and_saves_nothing(client: Client, email: str) -> None:
    response = _sign_up(client, email=email)

    assert response.status_code == 200
    assert response.context["form"].errors["email"]
    assert not User.objects.exists()


def test_sign_up_with_invalid_username_characters_is_rejected(client: Client) -> None:
    response = _sign_up(client, username="thorin oakenshield!")

    assert response.context["form"].errors["username"]
    assert not User.objects.exists()


def test_signed_in_user_visiting_sign_up_is_sent_home(player_client: Client) -> None:
    response = player_client.get(reverse("signup"))
    assert response.status_code == 302
    assert response["Location"] == reverse("home")


def test_database_rejects_usernames_differing_only_in_case(player: User) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username="Brenna", email="other@example.com", password="x")


def test_an_email_address_may_belong_to_several_accounts(player: User) -> None:
    """It is where emails go, not who one is: unique, it would reveal who is registered."""
    User.objects.create_user(username="other", email="BRENNA@example.com", password="x")

    assert User.objects.filter(email__iexact="brenna@example.com").count() == 2


def test_sign_up_losing_a_race_for_the_username_shows_error_instead_of_crashing(
    client: Client, player: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(services, "username_is_taken", lambda *, username: False)

    response = _sign_up(client, username="brenna")

    assert response.status_code == 200
    assert "just taken" in response.context["form"].non_field_errors()[0]
    assert User.objects.count() == 1
