import hashlib
from datetime import timedelta

import pytest
from django.contrib.admin.sites import site
from django.test import Client
from django.urls import reverse

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
    import time_machine
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

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
