import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from apps.accounts.models import User

pytestmark = pytest.mark.django_db


def test_log_in_with_right_password_logs_in_and_redirects_home(
    client: Client, player: User, password: str
) -> None:
    response = client.post(reverse("login"), {"username": "brenna", "password": password})

    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    assert client.session["_auth_user_id"] == str(player.pk)


def test_log_in_with_wrong_password_shows_error(client: Client, player: User) -> None:
    response = client.post(reverse("login"), {"username": "brenna", "password": "nope-nope-1"})

    assert response.status_code == 200
    assert b"Please enter a correct username and password" in response.content
    assert "_auth_user_id" not in client.session


def test_log_in_page_links_to_sign_up_and_password_reset(client: Client) -> None:
    response = client.get(reverse("login"))

    assert response.status_code == 200
    assert reverse("signup").encode() in response.content
    assert reverse("password_reset").encode() in response.content


def test_log_out_via_post_logs_out_and_redirects_home(player_client: Client) -> None:
    response = player_client.post(reverse("logout"))

    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    assert "_auth_user_id" not in player_client.session


def test_log_out_via_get_is_not_allowed(player_client: Client) -> None:
    response = player_client.get(reverse("logout"))

    assert response.status_code == 405
    assert "_auth_user_id" in player_client.session


def test_password_change_sets_the_new_password(
    player_client: Client, player: User, password: str
) -> None:
    assert player_client.get(reverse("password_change")).status_code == 200

    response = player_client.post(
        reverse("password_change"),
        {
            "old_password": password,
            "new_password1": "torch-and-rope-5521",
            "new_password2": "torch-and-rope-5521",
        },
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("password_change_done")
    player.refresh_from_db()
    assert player.check_password("torch-and-rope-5521")
    assert player_client.get(reverse("password_change_done")).status_code == 200


def test_password_change_with_wrong_old_password_keeps_the_old_one(
    player_client: Client, player: User, password: str
) -> None:
    response = player_client.post(
        reverse("password_change"),
        {
            "old_password": "not-my-password",
            "new_password1": "torch-and-rope-5521",
            "new_password2": "torch-and-rope-5521",
        },
    )

    assert response.status_code == 200
    assert response.context["form"].errors["old_password"]
    player.refresh_from_db()
    assert player.check_password(password)


def test_password_change_requires_login(client: Client) -> None:
    response = client.get(reverse("password_change"))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_password_reset_emails_a_link_that_sets_a_new_password(
    client: Client, player: User
) -> None:
    response = client.post(reverse("password_reset"), {"email": "BRENNA@example.com"})
    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_done")
    assert client.get(reverse("password_reset_done")).status_code == 200

    assert len(mail.outbox) == 1
    email = mail.outbox[0]
    assert email.to == ["brenna@example.com"]
    assert email.subject == "Reset your Ashen Vault password"
    assert "Hello brenna," in email.body
    assert "&quot;" not in email.body and "&#x27;" not in email.body  # not HTML-escaped
    match = re.search(r"http://testserver(/accounts/reset/\S+/\S+/)", str(email.body))
    assert match, email.body

    # The token link redirects to a session-bound "set-password" URL.
    response = client.get(match.group(1), follow=True)
    assert response.status_code == 200
    assert response.context["validlink"] is True
    set_password_url = response.redirect_chain[-1][0]

    response = client.post(
        set_password_url,
        {"new_password1": "fresh-torch-8812", "new_password2": "fresh-torch-8812"},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_complete")
    player.refresh_from_db()
    assert player.check_password("fresh-torch-8812")
    assert client.get(reverse("password_reset_complete")).status_code == 200

    # The link works only once.
    response = client.get(match.group(1), follow=True)
    assert response.context["validlink"] is False
    assert b"Link expired" in response.content


def test_password_reset_for_unknown_email_sends_nothing_but_looks_the_same(
    client: Client,
) -> None:
    response = client.post(reverse("password_reset"), {"email": "nobody@example.com"})

    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_done")
    assert mail.outbox == []


def test_password_reset_email_uses_the_display_name(client: Client, player: User) -> None:
    player.display_name = "Brenna & the <Axe>"
    player.save()

    client.post(reverse("password_reset"), {"email": "brenna@example.com"})

    assert "Hello Brenna & the <Axe>," in mail.outbox[0].body


def test_password_reset_answers_the_same_for_an_unknown_email(client: Client, player: User) -> None:
    """Django's reset view redirects to "check your email" either way: nothing is revealed."""
    known = client.post(reverse("password_reset"), {"email": "brenna@example.com"})
    unknown = Client().post(reverse("password_reset"), {"email": "nobody@example.com"})

    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    assert [m.to for m in mail.outbox] == [["brenna@example.com"]]


def test_password_reset_for_a_shared_email_reaches_each_account(
    client: Client, player: User
) -> None:
    User.objects.create_user(username="brenna2", email="brenna@example.com", password="x-9-y")

    client.post(reverse("password_reset"), {"email": "brenna@example.com"})

    assert sorted(m.body.split("Hello ", 1)[1].split(",", 1)[0] for m in mail.outbox) == [
        "brenna",
        "brenna2",
    ]
