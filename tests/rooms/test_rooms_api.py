import json
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client

from apps.accounts.models import User
from apps.play.models import Game
from apps.quests.models import QuestDefinition
from apps.rooms import services
from apps.rooms.models import Room
from tests.conftest import make_user
from tests.rooms.conftest import mark_playing

pytestmark = pytest.mark.django_db


def post_json(client: Client, url: str, body: Any) -> Any:
    return client.post(url, json.dumps(body), content_type="application/json")


def seat_url(room: Room, number: int) -> str:
    return f"/api/rooms/{room.pk}/seats/{number}"


def test_create_room(host_client: Client, host: User, quest: QuestDefinition) -> None:
    response = post_json(host_client, "/api/rooms", {"name": "Bots' table", "seats": 3})

    assert response.status_code == 201
    room = Room.objects.get()
    assert response.json() == {
        "id": room.pk,
        "game": "heroquest",
        "name": "Bots' table",
        "quest": "ashen_vault",
        "seat_count": 3,
        "status": "open",
        "invite_code": room.invite_code,
        "host": "hostess",
        "seats": [
            {
                "number": 1,
                "user": None,
                "role": "zargon",
                "label": "Zargon",
                "heroes": [],
                "away_until": None,
                "ai": False,
            },
            {
                "number": 2,
                "user": None,
                "role": "heroes",
                "label": "Barbarian & Dwarf",
                "heroes": ["barbarian", "dwarf"],
                "away_until": None,
                "ai": False,
            },
            {
                "number": 3,
                "user": None,
                "role": "heroes",
                "label": "Elf & Wizard",
                "heroes": ["elf", "wizard"],
                "away_until": None,
                "ai": False,
            },
        ],
        "game_id": None,
        "turn_hours": None,
        "turn_minutes": None,
        "reminder_hours": None,
        "reminder_minutes": None,
        "options": {"edition": "us", "spell_draft": False, "heroes_pass_heroes": False},
        "rules": ["US edition rules", "Fixed spells (Elf: Earth)"],
        "ai_seat": "human",
        "allow_spectators": False,
        "clock": {
            "kind": "fixed",
            "bank_hours": None,
            "increment_hours": None,
            "cap_hours": None,
            "vacation": False,
            "extend_hours": None,
        },
        "clock_rule": ["No time limit: a turn waits for its player."],
    }


def test_create_room_with_a_time_bank(host_client: Client, quest: QuestDefinition) -> None:
    body = {
        "name": "Banked",
        "seats": 2,
        "clock": {"kind": "bank", "bank_hours": 48, "increment_hours": 6, "vacation": True},
    }
    response = post_json(host_client, "/api/rooms", body)
    assert response.status_code == 201, response.content
    room = response.json()
    assert room["clock"]["kind"] == "bank" and room["clock"]["bank_hours"] == 48
    assert room["clock_rule"][0].startswith("Each player has a time bank of 2 days")
    refused = post_json(
        host_client, "/api/rooms", {"name": "x", "seats": 2, "clock": {"kind": "bank"}}
    )
    assert refused.status_code == 422
    assert refused.json()["detail"] == "A time bank needs a starting amount of time."


def test_create_room_with_a_turn_time_limit_and_a_reminder(
    host_client: Client, quest: QuestDefinition
) -> None:
    body = {
        "name": "Slow table",
        "seats": 2,
        "turn_hours": 48,
        "reminder_hours": 24,
    }

    response = post_json(host_client, "/api/rooms", body)

    assert response.status_code == 201
    assert response.json()["turn_hours"] == 48
    assert response.json()["reminder_hours"] == 24
    room = Room.objects.get()
    assert room.turn_time_limit == timedelta(hours=48)
    assert room.reminder_after == timedelta(hours=24)


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        ({"name": "T", "seats": 6}, "2 to 5 seats"),
        ({"name": "T", "seats": 3, "quest": "the_pit"}, "no quest called"),
        ({"name": " ", "seats": 3}, "Give the room a name"),
        (
            {"name": "T", "seats": 3, "turn_hours": 2, "reminder_hours": 3},
            "reminder must come before",
        ),
    ],
)
def test_create_room_rule_violations_are_422(
    host_client: Client, quest: QuestDefinition, body: dict[str, Any], detail: str
) -> None:
    response = post_json(host_client, "/api/rooms", body)

    assert response.status_code == 422
    assert detail in response.json()["detail"]
    assert not Room.objects.exists()


@pytest.mark.parametrize("body", [{"seats": "many"}, {"name": "T", "seats": 3, "turn_hours": 0}])
def test_malformed_body_is_refused(
    host_client: Client, quest: QuestDefinition, body: dict[str, Any]
) -> None:
    response = post_json(host_client, "/api/rooms", body)

    assert response.status_code == 400  # config/api.py maps schema errors to 400
    assert response.json()["detail"].startswith("Malformed request")
    assert not Room.objects.exists()


def test_get_open_room_as_any_user(alice_client: Client, room: Room) -> None:
    response = alice_client.get(f"/api/rooms/{room.pk}")

    assert response.status_code == 200
    assert response.json()["invite_code"] == room.invite_code


def test_get_unknown_room_is_404(alice_client: Client, quest: QuestDefinition) -> None:
    response = alice_client.get("/api/rooms/999")

    assert response.status_code == 404
    assert response.json() == {"detail": "There is no such room."}


def test_playing_room_is_404_for_non_members(alice_client: Client, room: Room, host: User) -> None:
    mark_playing(room)

    assert alice_client.get(f"/api/rooms/{room.pk}").status_code == 404
    assert alice_client.post(seat_url(room, 2)).status_code == 404


def test_playing_room_shows_its_game_to_members(
    alice_client: Client, room: Room, alice: User
) -> None:
    services.room_seat_take(room_id=room.pk, user=alice, number=2)
    mark_playing(room)
    game = Game.objects.create(room=room, quest_slug="ashen_vault", seats=3, seed=1, state={})

    response = alice_client.get(f"/api/rooms/{room.pk}")

    assert response.status_code == 200
    assert response.json()["status"] == "playing"
    assert response.json()["game_id"] == game.pk


def test_take_and_leave_seat(alice_client: Client, room: Room, alice: User) -> None:
    response = alice_client.post(seat_url(room, 2))

    assert response.status_code == 200
    assert response.json()["seats"][1]["user"] == "alice"

    response = alice_client.delete(seat_url(room, 2))

    assert response.status_code == 200
    assert response.json()["seats"][1]["user"] is None
    assert services.room_member_seat(room=room, user=alice) is None


def test_taking_a_taken_seat_is_422(alice_client: Client, room: Room, bob: User) -> None:
    services.room_seat_take(room_id=room.pk, user=bob, number=2)

    response = alice_client.post(seat_url(room, 2))

    assert response.status_code == 422
    assert response.json() == {"detail": "Seat 2 is already taken by bob."}


def test_taking_a_seat_of_a_full_room_is_422(alice_client: Client, room: Room, host: User) -> None:
    for number in (1, 2, 3):
        services.room_seat_take(room_id=room.pk, user=make_user(f"p{number}"), number=number)

    response = alice_client.post(seat_url(room, 3))

    assert response.status_code == 422
    assert "already taken" in response.json()["detail"]


def test_taking_a_missing_seat_is_422(alice_client: Client, room: Room) -> None:
    response = alice_client.post(seat_url(room, 9))

    assert response.status_code == 422
    assert "no seat 9" in response.json()["detail"]


def test_leaving_after_launch_is_422(alice_client: Client, room: Room, alice: User) -> None:
    services.room_seat_take(room_id=room.pk, user=alice, number=2)
    mark_playing(room)

    response = alice_client.delete(seat_url(room, 2))

    assert response.status_code == 422
    assert "already started" in response.json()["detail"]


def test_leaving_a_seat_held_by_another_is_422(alice_client: Client, room: Room, bob: User) -> None:
    services.room_seat_take(room_id=room.pk, user=bob, number=2)

    response = alice_client.delete(seat_url(room, 2))

    assert response.status_code == 422
    assert services.room_member_seat(room=room, user=bob) == 2


def test_api_needs_authentication(client: Client, room: Room) -> None:
    assert client.get(f"/api/rooms/{room.pk}").status_code == 401
    assert post_json(client, "/api/rooms", {"name": "T", "seats": 3}).status_code == 401
    assert client.post(seat_url(room, 2)).status_code == 401


def test_create_room_with_options_shows_them(host_client: Client, quest: QuestDefinition) -> None:
    body = {"name": "UK table", "seats": 2, "options": {"edition": "uk", "spell_draft": True}}
    response = post_json(host_client, "/api/rooms", body)
    assert response.status_code == 201
    assert response.json()["options"] == {
        "edition": "uk",
        "spell_draft": True,
        "heroes_pass_heroes": False,
    }
    assert response.json()["rules"] == ["UK edition rules", "Spell draft"]


def test_create_room_with_an_unknown_option_is_422(
    host_client: Client, quest: QuestDefinition
) -> None:
    body = {"name": "Odd", "seats": 2, "options": {"diagonal_goblins": True}}
    response = post_json(host_client, "/api/rooms", body)
    assert response.status_code == 422
    assert "Unknown option 'diagonal_goblins'" in response.json()["detail"]
    assert not Room.objects.exists()


def test_the_openapi_schema_documents_the_turn_times(client: Client) -> None:
    schemas = client.get("/api/openapi.json").json()["components"]["schemas"]
    room_in = schemas["RoomIn"]["properties"]
    assert "Hours a seat has for its turn" in room_in["turn_hours"]["description"]
    assert "reminded" in room_in["reminder_hours"]["description"]
    assert room_in["turn_hours"]["anyOf"][0] == {"type": "integer", "minimum": 1, "maximum": 336}
    room_out = schemas["RoomOut"]["properties"]
    assert {"turn_hours", "reminder_hours"} <= set(room_out)
    assert "away_until" in schemas["SeatOut"]["properties"]
