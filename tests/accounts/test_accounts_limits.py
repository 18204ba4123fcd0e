"""Brute force and floods: wrong passwords lock an address and slow an account, apart
(apps/accounts/lockout.py, django-axes); token issuance and room creation rate-limited
(apps/accounts/limits.py)."""

import re
import subprocess
import sys
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

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
    settings.LOGIN_ACCOUNT_FAILURE_LIMIT = 3
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "token_issue": "4/h", "room_create": "2/h"}


def make_user(username: str) -> Any:
    return get_user_model().objects.create_user(
        username=username, email=f"{username}@example.com", password=PASSWORD
    )


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


def test_an_address_is_locked_after_wrong_passwords_for_many_accounts() -> None:
    make_user("brenna")
    for name in ("a1", "a2", "a3"):
        log_in(name, "wrong", address="10.0.3.3")

    locked = log_in("brenna", PASSWORD, address="10.0.3.3")

    assert locked.status_code == 429
    assert b"Too many failed logins from your address" in locked.content
    assert log_in("brenna", PASSWORD, address="10.0.4.4").status_code == 302  # elsewhere: fine


def test_the_token_endpoint_shares_the_lockout_and_answers_json() -> None:
    make_user("ragnar")
    assert [ask_token("ragnar", "wrong").status_code for _ in range(3)] == [401, 401, 429]

    locked = ask_token("ragnar", PASSWORD)

    assert locked.status_code == 429
    assert locked.json()["detail"].startswith("Too many failed logins from your address")


# --- the two attacks of issue 22 ---------------------------------------------------------------


def test_logging_in_to_ones_own_account_between_guesses_resets_nothing() -> None:
    """Guessing at another account from one address, logging in to one's own between guesses,
    used to reset the address's count (27 wrong, then the right password still worked)."""
    make_user("ragnar"), make_user("mallory")
    attacker = "10.0.6.6"

    guesses = [log_in("ragnar", f"guess{n}", address=attacker).status_code for n in range(2)]
    assert log_in("mallory", PASSWORD, address=attacker).status_code == 302  # her own account
    guesses.append(log_in("ragnar", "guess2", address=attacker).status_code)

    assert guesses == [200, 200, 429]  # the third failure from the address locks it
    assert log_in("ragnar", PASSWORD, address=attacker).status_code == 429  # even the right one
    assert ask_token("ragnar", PASSWORD, address=attacker).status_code == 429
    assert log_in("mallory", PASSWORD, address=attacker).status_code == 429  # no way to reset it


def test_a_success_clears_only_its_own_failures_from_its_own_address() -> None:
    make_user("ragnar")
    log_in("ragnar", "typo", address="10.0.7.7")
    log_in("ragnar", "typo", address="10.0.7.7")

    assert log_in("ragnar", PASSWORD, address="10.0.7.7").status_code == 302
    assert AccessAttempt.objects.filter(username="ragnar").count() == 0
    # Two more typos are two, not four: the owner is not locked out by their own old ones.
    assert [log_in("ragnar", "typo", address="10.0.7.7").status_code for _ in range(2)] == [
        200,
        200,
    ]


def failures_age(minutes: float) -> None:
    """Let time pass for the failures recorded so far."""
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=minutes))


def test_wrong_passwords_on_the_token_endpoint_again_and_again_never_lock_the_owner_out(
    mailoutbox: list[Any],
) -> None:
    """Anyone could lock any named account for 15 minutes with wrong passwords on
    POST /api/auth/token, again and again. Now the guessers' addresses are locked and the account
    only slowed: its owner gets in from their own address at once, from a new one after the
    pause, and through the reset email whatever the counts."""
    make_user("ragnar")
    home = "10.1.1.1"
    assert log_in("ragnar", PASSWORD, address=home).status_code == 302  # the owner's address
    for attack in range(3):  # every cool-off, again
        attacker = f"10.6.{attack}.1"
        tries = [ask_token("ragnar", "wrong", address=attacker).status_code for _ in range(5)]
        assert tries == [401, 401, 429, 429, 429]  # the attacker's address is locked
        elsewhere = ask_token("ragnar", "wrong", address=f"10.6.{attack}.2")
        assert (elsewhere.status_code, elsewhere["Retry-After"]) == (429, "30")  # slowed
        assert log_in("ragnar", PASSWORD, address=home).status_code == 302
        assert ask_token("ragnar", PASSWORD, address=home).status_code == 200
        failures_age(minutes=16)

    # From an address that never signed in: one try per pause, no more.
    for n in range(3):
        ask_token("ragnar", "wrong", address=f"10.7.0.{n}")
    slowed = log_in("ragnar", PASSWORD, address="10.2.2.2")
    assert slowed.status_code == 429
    assert slowed["Retry-After"] == "30"
    assert b"wait 30 seconds before trying it again from here" in slowed.content
    assert not AccessAttempt.objects.filter(ip_address="10.2.2.2").exists()  # not counted
    failures_age(minutes=1)
    assert log_in("ragnar", PASSWORD, address="10.2.2.2").status_code == 302

    # The reset email always works, and a new password lifts everything held against the account.
    for n in range(3):
        ask_token("ragnar", "wrong", address=f"10.8.0.{n}")
    assert log_in("ragnar", PASSWORD, address="10.3.3.3").status_code == 429
    owner = Client(REMOTE_ADDR="10.3.3.3")
    owner.post("/accounts/password_reset/", {"email": "ragnar@example.com"})
    link = re.search(r"http://testserver(/accounts/reset/\S+/\S+/)", str(mailoutbox[-1].body))
    assert link is not None
    set_password = owner.get(link.group(1), follow=True).redirect_chain[-1][0]
    owner.post(
        set_password, {"new_password1": "Fresh-torch-8812", "new_password2": "Fresh-torch-8812"}
    )
    assert not AccessAttempt.objects.filter(username="ragnar").exists()
    assert log_in("ragnar", "Fresh-torch-8812", address="10.3.3.3").status_code == 302


def test_usernames_are_counted_whatever_their_case() -> None:
    make_user("ragnar")
    for name in ("Ragnar", "RAGNAR", "ragnar"):
        ask_token(name, "wrong", address=f"10.9.9.{len(name) + ord(name[1])}")

    assert log_in("Ragnar", PASSWORD, address="10.9.8.8").status_code == 429  # slowed


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
                "BACKEND": "config.cache.ReusedClientRedisCache",
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
