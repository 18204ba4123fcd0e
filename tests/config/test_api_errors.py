"""Every API error is `{"detail"}` JSON with the right status; pages get a 503, not a 500,
when the database cannot be had (the pool is saturated, PostgreSQL is down)."""

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import OperationalError
from django.test import Client

from apps.quests.models import QuestDefinition
from apps.rooms import services as rooms

pytestmark = pytest.mark.django_db

QUEST = (
    Path(__file__).resolve().parents[2]
    / "apps"
    / "games"
    / "heroquest"
    / "quests"
    / "ashen_vault.yaml"
)
ROOM = {"name": "Friday table", "seats": 3, "quest": "ashen_vault"}


def signed_in(*, enforce_csrf: bool = False) -> Client:
    user = get_user_model().objects.create_user(username="ana", password="lantern-crypt-7781")
    client = Client(enforce_csrf_checks=enforce_csrf)
    client.force_login(user)
    return client


def broken(exc: Exception) -> Any:
    def raise_it(**kwargs: Any) -> Any:
        raise exc

    return raise_it


def test_an_anonymous_write_is_401_not_a_csrf_failure() -> None:
    response = Client(enforce_csrf_checks=True).post(
        "/api/rooms", ROOM, content_type="application/json"
    )

    assert response.status_code == 401
    assert response.json() == {"detail": "Unauthorized"}


def test_a_signed_in_browser_still_needs_its_csrf_token() -> None:
    response = signed_in(enforce_csrf=True).post(
        "/api/rooms", ROOM, content_type="application/json"
    )

    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]


def test_an_unknown_api_path_is_json_404(client: Client) -> None:
    response = client.get("/api/no/such/thing")

    assert response.status_code == 404
    assert response.json() == {"detail": "Not found."}


def test_a_server_error_in_the_api_is_json_500(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rooms, "room_create", broken(RuntimeError("a bug")))

    response = signed_in().post("/api/rooms", ROOM, content_type="application/json")

    assert response.status_code == 500
    assert response.json() == {"detail": "Something went wrong on our side; it has been logged."}


def test_a_saturated_database_is_503_with_retry_after(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rooms, "room_create", broken(OperationalError("couldn't get a connection")))
    QuestDefinition.objects.create(
        slug="ashen_vault", name="The Ashen Vault", source=QUEST.read_text()
    )
    client = signed_in()

    api = client.post("/api/rooms", ROOM, content_type="application/json")
    page = client.post("/rooms/new", {**ROOM, "seats": "3"})

    assert api.status_code == 503 and api["Retry-After"] == "5"
    assert api.json()["detail"].startswith("The site is busy")
    assert page.status_code == 503 and page["Retry-After"] == "5"
    assert b"The site is busy" in page.content


def test_a_body_over_djangos_limit_is_json_413(settings: Any) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = signed_in().post(
        "/api/rooms", {**ROOM, "name": "x" * 2000}, content_type="application/json"
    )

    assert response.status_code == 413
    assert response.json() == {"detail": "The request is too large."}
