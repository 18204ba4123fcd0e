"""Solo rooms: Zargon played by the monster AI (`zargon: "ai"`); people take seats 2..N."""

import json
from typing import Any

import pytest
from django.test import Client

from apps.accounts.models import User
from apps.quests.models import QuestDefinition
from apps.rooms import services
from apps.rooms.models import Room
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


def post_json(client: Client, url: str, body: Any) -> Any:
    return client.post(url, json.dumps(body), content_type="application/json")


@pytest.fixture
def solo_room(quest: QuestDefinition, host: User) -> Room:
    return services.room_create(host=host, name="Solo table", seat_count=3, ai_seat="ai")


def test_the_api_creates_a_solo_room_whose_seat_1_is_the_ai(
    host_client: Client, quest: QuestDefinition
) -> None:
    response = post_json(host_client, "/api/rooms", {"name": "Solo", "seats": 2, "ai_seat": "ai"})

    assert response.status_code == 201
    body = response.json()
    assert body["ai_seat"] == "ai"
    assert [(s["number"], s["role"], s["ai"]) for s in body["seats"]] == [
        (1, "zargon", True),
        (2, "heroes", False),
    ]
    assert Room.objects.get().ai_seat == Room.AiSeat.AI


def test_zargon_defaults_to_a_person_and_anything_else_is_refused(
    host_client: Client, quest: QuestDefinition
) -> None:
    assert post_json(host_client, "/api/rooms", {"name": "A", "seats": 2}).json()["ai_seat"] == (
        "human"
    )
    response = post_json(host_client, "/api/rooms", {"name": "B", "seats": 2, "ai_seat": "robot"})
    assert response.status_code == 400
    assert Room.objects.count() == 1


def test_the_openapi_schema_documents_the_ai_seat_field(client: Client) -> None:
    schemas = client.get("/api/openapi.json").json()["components"]["schemas"]
    field = schemas["RoomIn"]["properties"]["ai_seat"]
    assert field["enum"] == ["human", "ai"]
    assert field["default"] == "human"
    assert "solo play" in field["description"]
    assert schemas["RoomOut"]["properties"]["ai_seat"]["enum"] == ["human", "ai"]


def test_nobody_can_take_seat_1_of_a_solo_room(solo_room: Room, host: User) -> None:
    with pytest.raises(services.RoomError, match="AI plays Zargon"):
        services.room_seat_take(room_id=solo_room.pk, user=host, number=1)
    assert not solo_room.seats.filter(user__isnull=False).exists()


def test_the_api_refuses_seat_1_of_a_solo_room(host_client: Client, solo_room: Room) -> None:
    response = host_client.post(f"/api/rooms/{solo_room.pk}/seats/1")
    assert response.status_code == 422
    assert "AI plays Zargon" in response.json()["detail"]


def test_a_solo_room_is_full_once_the_hero_seats_are_taken(solo_room: Room, host: User) -> None:
    services.room_seat_take(room_id=solo_room.pk, user=host, number=2)
    assert not services.room_is_full(solo_room)
    services.room_seat_take(room_id=solo_room.pk, user=make_user("alice"), number=3)
    assert services.room_is_full(solo_room)


def test_the_room_form_creates_a_solo_room(host_client: Client, quest: QuestDefinition) -> None:
    page = host_client.get("/rooms/new")
    assert "The monster AI plays Zargon" in page.content.decode()

    response = host_client.post(
        "/rooms/new", {"name": "Solo", "seats": 2, "quest": "ashen_vault", "ai_seat": "ai"}
    )

    room = Room.objects.get()
    assert response.status_code == 302 and room.ai_seat == Room.AiSeat.AI
    detail = host_client.get(f"/rooms/{room.pk}/").content.decode()
    assert "The monster AI" in detail
    assert f"/rooms/{room.pk}/seats/1/take" not in detail  # no button for seat 1
