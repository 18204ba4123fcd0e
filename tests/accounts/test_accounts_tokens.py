import hashlib
from datetime import UTC, datetime, timedelta
from io import StringIO
from typing import Any

import pytest
import time_machine
from django.contrib.admin.sites import site
from django.contrib.auth.management.commands import changepassword
from django.contrib.auth.tokens import default_token_generator
from django.core.management import call_command
from django.db import connection
from django.http import HttpResponse
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from apps.accounts.models import ApiToken, User
from apps.accounts.services import token_authenticate, token_issue, token_revoke

pytestmark = pytest.mark.django_db


def test_issued_token_authenticates_its_user(player: User) -> None:
    raw = token_issue(user=player)

    assert token_authenticate(raw=raw) == player


def test_token_is_stored_only_as_its_sha256_hash(player: User) -> None:
    raw = token_issue(user=player, name="my bot")

    token = ApiToken.objects.get(user=player)
    assert token.name == "my bot"
    assert token.key_hash != raw
    assert token.key_hash == hashlib.sha256(raw.encode()).hexdigest()
    assert not ApiToken.objects.filter(key_hash=raw).exists()
    assert len(raw) >= 40


def test_each_issued_token_is_different(player: User) -> None:
    assert token_issue(user=player) != token_issue(user=player)
    assert ApiToken.objects.filter(user=player).count() == 2


@pytest.mark.parametrize("raw", ["", "   ", "wrong-token", "x" * 43])
def test_wrong_token_authenticates_nobody(player: User, raw: str) -> None:
    token_issue(user=player)

    assert token_authenticate(raw=raw) is None


def test_the_stored_hash_itself_is_not_a_valid_token(player: User) -> None:
    token_issue(user=player)
    stored = ApiToken.objects.get().key_hash

    assert token_authenticate(raw=stored) is None


def test_authenticating_records_last_used(player: User) -> None:
    raw = token_issue(user=player)
    assert ApiToken.objects.get().last_used is None

    token_authenticate(raw=raw)

    assert ApiToken.objects.get().last_used is not None


def test_token_of_inactive_user_authenticates_nobody(player: User) -> None:
    raw = token_issue(user=player)
    player.is_active = False
    player.save()

    assert token_authenticate(raw=raw) is None


def test_revoked_token_no_longer_authenticates(player: User) -> None:
    raw = token_issue(user=player)
    token = ApiToken.objects.get()

    assert token_revoke(user=player, token_id=token.pk) is True
    assert token_authenticate(raw=raw) is None


def test_a_user_cannot_revoke_someone_elses_token(player: User) -> None:
    other = User.objects.create_user(username="gorm", email="gorm@example.com", password="x")
    raw = token_issue(user=player)

    assert token_revoke(user=other, token_id=ApiToken.objects.get().pk) is False
    assert token_authenticate(raw=raw) == player


def test_admin_shows_tokens_with_read_only_hash_and_cannot_create_them(
    client: Client, player: User
) -> None:
    admin_user = User.objects.create_superuser(
        username="zargon", email="zargon@example.com", password="x"
    )
    client.force_login(admin_user)
    token_issue(user=player, name="dice bot")
    token = ApiToken.objects.get()

    assert client.get(reverse("admin:accounts_apitoken_changelist")).status_code == 200
    change = client.get(reverse("admin:accounts_apitoken_change", args=[token.pk]))
    assert change.status_code == 200
    assert token.key_hash.encode() in change.content
    assert b'name="key_hash"' not in change.content
    assert client.get(reverse("admin:accounts_apitoken_add")).status_code == 403
    assert "key_hash" in site.get_model_admin(ApiToken).readonly_fields


def test_a_token_used_before_it_is_revoked_stops_working_at_once(player: User) -> None:
    raw = token_issue(user=player)
    assert token_authenticate(raw=raw) == player  # now cached

    token_revoke(user=player, token_id=ApiToken.objects.get().pk)

    assert token_authenticate(raw=raw) is None


def test_last_used_is_written_at_most_once_a_minute(player: User) -> None:
    raw = token_issue(user=player)
    with time_machine.travel("2026-11-30 12:00:00Z", tick=False) as clock:
        token_authenticate(raw=raw)
        first = ApiToken.objects.get().last_used
        assert first is not None
        clock.shift(30)
        with CaptureQueriesContext(connection) as queries:
            assert token_authenticate(raw=raw) == player
        assert ApiToken.objects.get().last_used == first
        assert len(queries) == 0  # looked up in the cache, nothing written
        clock.shift(31)
        token_authenticate(raw=raw)
        assert ApiToken.objects.get().last_used == first + timedelta(seconds=61)


def test_no_column_of_the_token_table_holds_the_raw_token(player: User) -> None:
    raw = token_issue(user=player, name="dice bot")

    for row in ApiToken.objects.values():
        assert all(raw not in str(value) for value in row.values())


def test_a_token_expires_after_the_configured_number_of_days(player: User, settings: Any) -> None:
    settings.API_TOKEN_TTL_DAYS = 7
    with time_machine.travel("2026-11-30 12:00:00Z", tick=False):
        token_issue(user=player)

    assert ApiToken.objects.get().expires == datetime(2026, 12, 7, 12, tzinfo=UTC)


def test_an_expired_token_is_refused_with_401_even_when_cached(
    client: Client, player: User
) -> None:
    with time_machine.travel("2026-11-30 12:00:00Z", tick=False) as clock:
        raw = token_issue(user=player)
        bearer = {"Authorization": f"Bearer {raw}"}
        assert client.get("/api/auth/me", headers=bearer).status_code == 200  # now cached
        clock.shift(timedelta(days=30, seconds=-1))
        assert client.get("/api/auth/me", headers=bearer).status_code == 200
        clock.shift(1)

        response = client.get("/api/auth/me", headers=bearer)

    assert response.status_code == 401
    assert set(response.json()) == {"detail"}


def _csrf_client(user: User) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    client.get(reverse("profile"))  # sets the CSRF cookie
    return client


def _revoke(client: Client, token_id: int) -> HttpResponse:
    return client.post(  # type: ignore[return-value]  # the test client's response is one
        reverse("token_revoke", args=[token_id]),
        {"csrfmiddlewaretoken": client.cookies["csrftoken"].value},
    )


def test_profile_lists_the_tokens_but_never_their_secret(
    player_client: Client, player: User
) -> None:
    raw = token_issue(user=player, name="dice bot")
    token = ApiToken.objects.get()

    page = player_client.get(reverse("profile")).content.decode()

    assert "dice bot" in page
    assert "never" in page  # not used yet
    assert reverse("token_revoke", args=[token.pk]) in page
    assert raw not in page and token.key_hash not in page


def test_the_owner_revokes_a_token_from_the_profile(player: User) -> None:
    raw = token_issue(user=player)
    client = _csrf_client(player)

    response = _revoke(client, ApiToken.objects.get().pk)

    assert response.status_code == 302
    assert response["Location"] == reverse("profile")
    assert not ApiToken.objects.exists()
    assert token_authenticate(raw=raw) is None


def test_revoking_needs_the_csrf_token(player: User) -> None:
    token_issue(user=player)
    client = _csrf_client(player)

    response = client.post(reverse("token_revoke", args=[ApiToken.objects.get().pk]))

    assert response.status_code == 403
    assert ApiToken.objects.count() == 1


def test_nobody_can_revoke_another_users_token_from_the_profile(player: User) -> None:
    raw = token_issue(user=player)
    other = User.objects.create_user(username="gorm", email="gorm@example.com", password="x")

    response = _revoke(_csrf_client(other), ApiToken.objects.get().pk)

    assert response.status_code == 404
    assert token_authenticate(raw=raw) == player


def test_changing_the_password_revokes_every_token(
    player_client: Client, player: User, password: str
) -> None:
    raws = [token_issue(user=player), token_issue(user=player)]
    assert token_authenticate(raw=raws[0]) == player  # cached too

    response = player_client.post(
        reverse("password_change"),
        {
            "old_password": password,
            "new_password1": "granite-hall-4417",
            "new_password2": "granite-hall-4417",
        },
    )

    assert response.status_code == 302
    assert not ApiToken.objects.filter(user=player).exists()
    assert all(token_authenticate(raw=raw) is None for raw in raws)


def test_resetting_the_password_revokes_every_token(client: Client, player: User) -> None:
    raw = token_issue(user=player)
    uid = urlsafe_base64_encode(force_bytes(player.pk))
    link = reverse("password_reset_confirm", args=[uid, default_token_generator.make_token(player)])
    form_url = client.get(link)["Location"]  # Django moves the token into the session

    response = client.post(
        form_url, {"new_password1": "granite-hall-4417", "new_password2": "granite-hall-4417"}
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_complete")
    assert token_authenticate(raw=raw) is None


# A new password revokes the tokens whatever path set it (apps/accounts/signals.py).


def test_the_admins_password_form_revokes_every_token(client: Client, player: User) -> None:
    raw = token_issue(user=player)
    admin_user = User.objects.create_superuser(
        username="keeper", email="keeper@example.com", password="x"
    )
    client.force_login(admin_user)

    response = client.post(
        reverse("admin:auth_user_password_change", args=[player.pk]),
        {
            "password1": "granite-hall-4417",
            "password2": "granite-hall-4417",
            "usable_password": "true",
        },
    )

    assert response.status_code == 302
    player.refresh_from_db()
    assert player.check_password("granite-hall-4417")
    assert token_authenticate(raw=raw) is None


def test_manage_py_changepassword_revokes_every_token(
    player: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    raw = token_issue(user=player)
    assert token_authenticate(raw=raw) == player  # cached too
    monkeypatch.setattr(changepassword.Command, "_get_pass", lambda self, prompt="": "granite-44")

    call_command("changepassword", "brenna", stdout=StringIO())

    player.refresh_from_db()
    assert player.check_password("granite-44")
    assert token_authenticate(raw=raw) is None


def test_a_script_setting_the_password_revokes_every_token(player: User) -> None:
    raw = token_issue(user=player)

    player.set_password("granite-hall-4417")
    player.save()

    assert token_authenticate(raw=raw) is None


def test_an_unusable_password_revokes_every_token(player: User) -> None:
    raw = token_issue(user=player)

    player.set_unusable_password()
    player.save(update_fields=["password"])

    assert token_authenticate(raw=raw) is None


def test_saving_anything_else_keeps_the_tokens(player: User, password: str) -> None:
    raw = token_issue(user=player)

    player.display_name = "Brenna of the Vault"
    player.save()
    player.save(update_fields=["display_name"])

    assert token_authenticate(raw=raw) == player


def test_logging_in_after_a_hasher_upgrade_keeps_the_tokens(
    client: Client, player: User, password: str, settings: Any
) -> None:
    """Django re-stores the same password under the newest hasher: not a new password."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    player.set_password(password)
    player.save()  # stored under PBKDF2, before any token
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.MD5PasswordHasher",
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    ]
    raw = token_issue(user=player)

    assert client.login(username="brenna", password=password)

    player.refresh_from_db()
    assert player.password.startswith("md5$")
    assert token_authenticate(raw=raw) == player


def test_a_cached_token_of_a_user_deactivated_later_authenticates_nobody(player: User) -> None:
    raw = token_issue(user=player)
    assert token_authenticate(raw=raw) == player  # now cached

    player.is_active = False
    player.save()

    assert token_authenticate(raw=raw) is None
