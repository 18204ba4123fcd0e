"""Brute force and floods: logins and tokens locked per account and per address (django-axes),
token issuance and room creation rate-limited (apps/accounts/limits.py)."""

import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

import config.settings as configured
from apps.accounts.limits import rate_limit_exceeded
from apps.quests.models import QuestDefinition
from apps.rooms.models import Room
from tests.servers import ROOT, frozen_redis, server_env

pytestmark = pytest.mark.django_db

PASSWORD = "Ember-and-ash-42"
QUEST = (
    Path(__file__).resolve().parents[2]
    / "apps"
    / "games"
    / "heroquest"
    / "quests"
    / "ashen_vault.yaml"
)


@pytest.fixture(autouse=True)
def low_limits(settings: Any) -> None:
    settings.AXES_FAILURE_LIMIT = 3
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "token_issue": "4/h", "room_create": "2/h"}


def make_user(username: str) -> Any:
    return get_user_model().objects.create_user(username=username, password=PASSWORD)


def log_in(username: str, password: str, address: str = "10.0.0.1") -> Any:
    return Client(REMOTE_ADDR=address).post(
        "/accounts/login/", {"username": username, "password": password}
    )


def ask_token(username: str, password: str, address: str = "10.0.0.1") -> Any:
    return Client(REMOTE_ADDR=address).post(
        "/api/auth/token",
        {"username": username, "password": password},
        content_type="application/json",
    )


def test_an_account_is_locked_after_repeated_wrong_passwords_from_anywhere() -> None:
    make_user("ragnar")
    tries = [log_in("ragnar", "wrong", address=f"10.0.1.{n}").status_code for n in range(3)]
    assert tries == [200, 200, 429]  # the third failure reaches the limit

    locked = log_in("ragnar", PASSWORD, address="10.0.2.1")  # the right one, too late

    assert locked.status_code == 429
    assert b"Too many failed logins" in locked.content
    assert "_auth_user_id" not in locked.client.session


def test_an_address_is_locked_after_wrong_passwords_for_many_accounts() -> None:
    make_user("brenna")
    for name in ("a1", "a2", "a3"):
        log_in(name, "wrong", address="10.0.3.3")

    assert log_in("brenna", PASSWORD, address="10.0.3.3").status_code == 429
    assert log_in("brenna", PASSWORD, address="10.0.4.4").status_code == 302  # elsewhere: fine


def test_the_token_endpoint_shares_the_lockout_and_answers_json() -> None:
    make_user("ragnar")
    assert [ask_token("ragnar", "wrong").status_code for _ in range(3)] == [401, 401, 429]

    locked = ask_token("ragnar", PASSWORD, address="10.0.9.9")

    assert locked.status_code == 429
    assert locked.json() == {"detail": "Too many failed logins: try again in a few minutes."}


def test_token_issuance_is_rate_limited_per_address() -> None:
    make_user("ragnar")
    answers = [ask_token("ragnar", PASSWORD).status_code for _ in range(5)]

    assert answers == [200, 200, 200, 200, 429]
    assert ask_token("ragnar", PASSWORD, address="10.0.5.5").status_code == 200


def test_room_creation_is_rate_limited_per_user() -> None:
    QuestDefinition.objects.create(
        slug="ashen_vault", name="The Ashen Vault", source=QUEST.read_text()
    )
    client = Client()
    client.force_login(make_user("host"))
    room = {"name": "Friday table", "seats": 3, "quest": "ashen_vault"}

    api = [client.post("/api/rooms", room, content_type="application/json") for _ in range(3)]
    page = client.post("/rooms/new", room)

    assert [r.status_code for r in api] == [201, 201, 429]
    assert api[2].json()["detail"].startswith("You have opened many rooms lately")
    assert page.status_code == 429 and b"opened many rooms lately" in page.content
    assert Room.objects.count() == 2


def test_the_limiter_lets_requests_through_when_its_cache_hangs(settings: Any) -> None:
    with frozen_redis() as url:
        settings.CACHES = {
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": url,
                "OPTIONS": {"socket_timeout": 0.2, "socket_connect_timeout": 0.2},
            }
        }
        assert rate_limit_exceeded(group="chat", key="user:1", rate="1/h") is False
        assert rate_limit_exceeded(group="chat", key="user:1", rate="1/h") is False


def test_the_limiter_counts_per_key() -> None:
    first = [rate_limit_exceeded(group="chat", key="user:1", rate="2/m") for _ in range(3)]
    other = rate_limit_exceeded(group="chat", key="user:2", rate="2/m")

    assert first == [False, False, True] and other is False


def test_a_limit_holds_across_processes(settings: Any) -> None:
    """Every process counts in the one shared cache (files without Redis), so a second web
    process, or a `manage.py` command, cannot start its own count."""
    settings.CACHES = configured.CACHES  # the servers' own cache, without this test's prefix
    # An hour window: a minute one can roll over while two subprocesses start on a busy machine.
    key = f"user:{uuid.uuid4().hex}"
    count_once = (
        "import django; django.setup(); from apps.accounts.limits import rate_limit_exceeded; "
        f"print(rate_limit_exceeded(group='chat', key='{key}', rate='2/h'))"
    )
    elsewhere = [
        subprocess.run(
            [sys.executable, "-c", count_once],
            env=server_env(),
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        for _ in range(2)
    ]

    assert elsewhere == ["False", "False"]
    assert rate_limit_exceeded(group="chat", key=key, rate="2/h") is True
