"""A room's turn limit and reminder in minutes (issue 21): the new-room form, `POST /api/rooms`
and the room admin take them, refuse less than 5 minutes and a reminder not before the limit,
and the Celery sweep reminds and times out a 30-minute room on the minute."""

import json
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from apps.accounts.models import User
from apps.notifications.models import Notification
from apps.play.models import Game, GameEvent
from apps.play.services import game_launch
from apps.play.tasks import sweep_turns
from apps.quests.models import QuestDefinition
from apps.rooms.forms import SpanWidget
from apps.rooms.models import Room
from apps.rooms.services import room_clock_in_force, room_seat_take
from tests.conftest import PASSWORD, make_user

from .conftest import client_for

pytestmark = pytest.mark.django_db

MINUTE = timedelta(minutes=1)
FORM = {"name": "Lunch table", "seats": 3, "quest": "ashen_vault"}


def create(client: Client, **body: Any) -> Any:
    payload = {"name": "Lunch table", "seats": 2, **body}
    return client.post("/api/rooms", json.dumps(payload), content_type="application/json")


# --- the form ------------------------------------------------------------------------------------


def test_the_room_form_takes_minutes_hours_and_days(quest: QuestDefinition) -> None:
    client = client_for(make_user())

    response = client.post(
        "/rooms/new",
        {
            **FORM,
            "turn_time_limit": "30",
            "turn_time_limit_unit": "minutes",
            "reminder_after": "10",
            "reminder_after_unit": "minutes",
        },
    )

    assert response.status_code == 302
    room = Room.objects.get(name="Lunch table")
    assert (room.turn_time_limit, room.reminder_after) == (30 * MINUTE, 10 * MINUTE)
    page = client.get(response["Location"]).content.decode()
    assert "Each turn lasts 30 minutes." in page
    assert "The player to move is reminded after 10 minutes" in page
    client.post(
        "/rooms/new",
        {
            **FORM,
            "name": "Slow",
            "turn_time_limit": "2",
            "turn_time_limit_unit": "days",
            "reminder_after": "90",
            "reminder_after_unit": "minutes",
        },
    )
    slow = Room.objects.get(name="Slow")
    assert (slow.turn_time_limit, slow.reminder_after) == (timedelta(days=2), 90 * MINUTE)
    assert room_clock_in_force(room=slow)[:2] == [
        "Each turn lasts 2 days.",
        "The player to move is reminded after 90 minutes, and when a sixth of the turn is left.",
    ]


@pytest.mark.parametrize(
    ("fields", "shown"),
    [
        ({"turn_time_limit": "4", "turn_time_limit_unit": "minutes"}, "at least 5 minutes"),
        ({"reminder_after": "3", "reminder_after_unit": "minutes"}, "at least 5 minutes"),
        ({"turn_time_limit": "61", "turn_time_limit_unit": "days"}, "at most 60 days"),
        (
            {
                "turn_time_limit": "30",
                "turn_time_limit_unit": "minutes",
                "reminder_after": "30",
                "reminder_after_unit": "minutes",
            },
            "The reminder must come before the time limit.",
        ),
        ({"turn_time_limit": "0", "turn_time_limit_unit": "minutes"}, "greater than or equal"),
    ],
)
def test_the_room_form_refuses_too_short_a_time(
    quest: QuestDefinition, fields: dict[str, str], shown: str
) -> None:
    response = client_for(make_user()).post("/rooms/new", {**FORM, **fields})

    assert response.status_code == 200 and shown in response.content.decode()
    assert not Room.objects.exists()


def test_the_form_shows_a_minute_limit_as_minutes() -> None:
    widget = SpanWidget("Turn time limit")
    assert widget.decompress(30 * MINUTE) == [30, "minutes"]
    assert widget.decompress(timedelta(hours=12)) == [12, "hours"]
    assert widget.decompress(timedelta(days=3)) == [3, "days"]
    assert widget.decompress(None) == [None, "hours"]


# --- the API -------------------------------------------------------------------------------------


def test_the_api_takes_minutes_and_answers_both_units(quest: QuestDefinition) -> None:
    client = client_for(make_user())

    response = create(client, turn_minutes=30, reminder_minutes=10)

    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["turn_minutes"], body["reminder_minutes"]) == (30, 10)
    assert (body["turn_hours"], body["reminder_hours"]) == (0, 0)  # rounded down
    assert body["clock_rule"][0] == "Each turn lasts 30 minutes."
    room = Room.objects.get(pk=body["id"])
    assert (room.turn_time_limit, room.reminder_after) == (30 * MINUTE, 10 * MINUTE)
    # A room given in hours answers in both, as rooms made before minutes do.
    hours = create(client, turn_hours=48, reminder_hours=24).json()
    assert (hours["turn_hours"], hours["turn_minutes"]) == (48, 48 * 60)
    assert (hours["reminder_hours"], hours["reminder_minutes"]) == (24, 24 * 60)


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        ({"turn_minutes": 4}, "A turn time limit is at least 5 minutes and at most 60 days."),
        (
            {"turn_minutes": 30, "reminder_minutes": 2},
            "A reminder is at least 5 minutes and at most 60 days.",
        ),
        (
            {"turn_minutes": 30, "reminder_minutes": 30},
            "The reminder must come before the turn time limit runs out.",
        ),
        ({"turn_minutes": 30, "turn_hours": 1}, "Give turn_hours or turn_minutes, not both."),
        (
            {"turn_hours": 2, "reminder_hours": 1, "reminder_minutes": 5},
            "Give reminder_hours or reminder_minutes, not both.",
        ),
    ],
)
def test_the_api_refuses_bad_minutes_in_words(
    quest: QuestDefinition, body: dict[str, int], detail: str
) -> None:
    response = create(client_for(make_user()), **body)

    assert response.status_code == 422
    assert response.json() == {"detail": detail}
    assert not Room.objects.exists()


def test_the_openapi_schema_offers_minutes(client: Client) -> None:
    schema = client.get("/api/openapi.json").json()["components"]["schemas"]
    room_in, room_out = schema["RoomIn"]["properties"], schema["RoomOut"]["properties"]

    assert "at least 5" in room_in["turn_minutes"]["description"]
    assert "at least 5" in room_in["reminder_minutes"]["description"]
    assert {"turn_minutes", "reminder_minutes"} <= set(room_out)


# --- the room admin (the room settings page) ------------------------------------------------------


def test_the_room_admin_takes_minutes_and_refuses_under_five(
    quest: QuestDefinition,
) -> None:
    User.objects.create_superuser(username="root", email="root@example.com", password=PASSWORD)
    admin = Client()
    admin.force_login(User.objects.get(username="root"))
    host = make_user()
    room = create(client_for(host), turn_minutes=30).json()
    form = {
        "kind": "heroquest",
        "name": "Lunch table",
        "host": host.pk,
        "quest": quest.pk,
        "seat_count": 2,
        "invite_code": Room.objects.get(pk=room["id"]).invite_code,
        "status": "open",
        "ai_seat": "human",
        "options": "{}",
        "seats-TOTAL_FORMS": "0",
        "seats-INITIAL_FORMS": "0",
    }
    url = f"/admin/rooms/room/{room['id']}/change/"

    refused = admin.post(url, {**form, "turn_time_limit": "00:04:00", "reminder_after": ""})
    saved = admin.post(url, {**form, "turn_time_limit": "00:45:00", "reminder_after": "00:15:00"})

    assert "A turn time limit is at least 5 minutes" in refused.content.decode()
    assert saved.status_code == 302, saved.content.decode()[-2000:]
    changed = Room.objects.get(pk=room["id"])
    assert (changed.turn_time_limit, changed.reminder_after) == (45 * MINUTE, 15 * MINUTE)


# --- the sweep: a 30-minute room, reminded at 10 minutes ------------------------------------------


def reminders(user: User) -> list[Notification]:
    return list(Notification.objects.filter(user=user, kind="reminder"))


def timeouts(game: Game) -> list[GameEvent]:
    rows = game.events.filter(kind=GameEvent.Kind.ACTION).order_by("seq")
    return [e for e in rows if e.payload.get("system")]


def test_a_30_minute_room_is_reminded_at_its_reminder_time_and_times_out_at_30(
    quest: QuestDefinition, time_machine: Any
) -> None:
    host, player = make_user(), make_user()
    created = create(client_for(host), turn_minutes=30, reminder_minutes=10)
    room_id = created.json()["id"]
    room_seat_take(room_id=room_id, user=host, number=1)
    room_seat_take(room_id=room_id, user=player, number=2)
    game = game_launch(room_id=room_id, user=host, seed=1)
    start = game.turn_started
    assert start is not None

    def at(minutes: float) -> dict[str, list[int]]:
        time_machine.move_to(start + timedelta(minutes=minutes))
        report: dict[str, list[int]] = sweep_turns()  # the Celery beat task, every minute
        return report

    assert at(9.5)["reminded"] == []
    assert at(10.5)["reminded"] == [game.pk]  # the reminder, at 10 minutes
    assert len(reminders(player)) == 1
    assert at(24.5)["reminded"] == []
    assert at(25.5)["reminded"] == [game.pk]  # and when a sixth (5 minutes) is left
    assert len(reminders(player)) == 2
    assert at(29.5)["timed_out"] == [] and timeouts(game) == []

    report = at(30.5)

    assert report["timed_out"] == [game.pk]
    ended = timeouts(game)  # seat 2 plays the four heroes: each hero's turn is ended
    assert [e.payload["action"]["type"] for e in ended] == ["end_turn"] * 4
    game.refresh_from_db()
    # No monster in sight: Zargon's phase passes by itself, and round 2 is the heroes' again.
    assert (game.round, game.to_move) == (2, [2]) and game.turn_started is not None
    assert game.turn_started >= timezone.now() - MINUTE  # with its own 30 minutes
