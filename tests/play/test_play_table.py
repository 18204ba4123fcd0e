"""Running the table over days: the host pauses and resumes, players go away, the lobby shows
who is waiting on whom, and operators run one sweep by hand (apps/play/table.py, clock.py)."""

import json
import uuid
from datetime import UTC, datetime, timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from apps.accounts.models import User
from apps.accounts.services import user_away_set
from apps.games.heroquest import engine as rules
from apps.notifications.models import Notification
from apps.play.models import Game, GameEvent
from apps.play.selectors import game_scenario
from apps.play.services import game_launch, quest_apply_action
from apps.play.table import game_pause, game_resume
from apps.play.turns import turns_sweep
from apps.play.verify import game_verify
from apps.rooms.models import Room
from tests.conftest import make_user

from .conftest import RoomMaker, client_for

pytestmark = pytest.mark.django_db

HOUR = timedelta(hours=1)
START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def launch(
    make_room: RoomMaker, seats: int = 5, *, limit: timedelta, reminder: timedelta | None = None
) -> tuple[Game, dict[int, User]]:
    room, users = make_room(seats)
    Room.objects.filter(pk=room.pk).update(turn_time_limit=limit, reminder_after=reminder)
    return game_launch(room_id=room.pk, user=users[1], seed=1), users


def at(time_machine: Any, offset: timedelta) -> None:
    time_machine.move_to(START + offset, tick=False)


def reminders(user: User) -> int:
    return Notification.objects.filter(user=user, kind="reminder").count()


def notes(game: Game) -> list[str]:
    rows = game.events.filter(kind=GameEvent.Kind.NOTE).order_by("seq")
    return [row.payload["type"] for row in rows]


# --- pause and resume --------------------------------------------------------------------------


def test_a_paused_game_has_no_deadline_and_resuming_keeps_the_time_left(
    make_room: RoomMaker, time_machine: Any
) -> None:
    at(time_machine, timedelta(0))
    game, users = launch(make_room, limit=HOUR, reminder=HOUR / 2)

    at(time_machine, timedelta(minutes=20))  # 40 minutes left, the reminder in 10
    game_pause(game_id=game.pk, user=users[1])
    at(time_machine, timedelta(hours=5))
    report = turns_sweep()
    assert (report.timed_out, report.reminded) == ([], [])  # the clock stood still

    game_resume(game_id=game.pk, user=users[1])
    at(time_machine, timedelta(hours=5, minutes=9))
    assert turns_sweep().reminded == []
    at(time_machine, timedelta(hours=5, minutes=11))
    assert turns_sweep().reminded == [game.pk]
    at(time_machine, timedelta(hours=5, minutes=39))
    report = turns_sweep()  # a sixth of the turn left: the second and last reminder
    assert (report.timed_out, report.reminded) == ([], [game.pk])
    at(time_machine, timedelta(hours=5, minutes=41))
    assert turns_sweep().timed_out == [game.pk]

    game.refresh_from_db()
    assert reminders(users[2]) == 2 and game.version == 1
    assert notes(game) == ["paused", "resumed"]
    assert game_verify(game_id=game.pk).ok  # the notes are outside the replay


def test_a_turn_that_began_during_the_pause_gets_its_full_time(
    make_room: RoomMaker, time_machine: Any
) -> None:
    at(time_machine, timedelta(0))
    game, users = launch(make_room, limit=HOUR)
    game_pause(game_id=game.pk, user=users[1])
    at(time_machine, timedelta(hours=2))
    quest_apply_action(
        game_id=game.pk,
        seat=2,
        action={"type": "end_turn", "hero": "barbarian"},
        expected_version=0,
        key=uuid.uuid4().hex,
    )
    at(time_machine, timedelta(hours=3))
    game_resume(game_id=game.pk, user=users[1])
    at(time_machine, timedelta(hours=3, minutes=59))
    assert turns_sweep().timed_out == []
    at(time_machine, timedelta(hours=4, minutes=1))
    assert turns_sweep().timed_out == [game.pk]


def test_only_the_host_pauses_and_resumes(make_room: RoomMaker) -> None:
    game, users = launch(make_room, seats=3, limit=HOUR)
    stranger = make_user()

    refused = client_for(users[2]).post(f"/api/games/{game.pk}/pause")
    assert refused.status_code == 403
    assert client_for(stranger).post(f"/api/games/{game.pk}/pause").status_code == 404
    assert Client().post(f"/api/games/{game.pk}/pause").status_code in {401, 403}
    game.refresh_from_db()
    assert game.paused_at is None

    host = client_for(users[1])
    paused = host.post(f"/api/games/{game.pk}/pause")
    assert paused.status_code == 200
    assert paused.json() == {"paused": True, "deadline": None, "away_until": None}
    page = client_for(users[2]).get(f"/games/{game.pk}/").content.decode()
    assert "Paused by the host" in page and "Resume the game" not in page
    assert "Resume the game" in host.get(f"/games/{game.pk}/").content.decode()

    response = host.post(f"/games/{game.pk}/resume")  # the page's button
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.paused_at is None
    resumed = host.post(f"/api/games/{game.pk}/resume").json()
    assert resumed["paused"] is False and resumed["deadline"] is not None


# --- away ---------------------------------------------------------------------------------------


def test_an_away_players_clock_waits_until_they_are_back(
    make_room: RoomMaker, time_machine: Any
) -> None:
    at(time_machine, timedelta(0))
    game, users = launch(make_room, limit=24 * HOUR, reminder=12 * HOUR)
    back = START + timedelta(days=3)
    user_away_set(user=users[2], until=back)  # the Barbarian's player, first to move

    at(time_machine, timedelta(hours=25))
    report = turns_sweep()
    assert (report.timed_out, report.reminded) == ([], [])
    room_page = client_for(users[3]).get(f"/rooms/{game.room_id}/").content.decode()
    assert "away until" in room_page and "Fri 4 Dec, 09:00" in room_page
    game_page = client_for(users[3]).get(f"/games/{game.pk}/").content.decode()
    assert f"{users[2]} is away until" in game_page

    at(time_machine, timedelta(days=3, hours=11))
    assert turns_sweep().reminded == []
    at(time_machine, timedelta(days=3, hours=13))
    assert turns_sweep().reminded == [game.pk]
    at(time_machine, timedelta(days=3, hours=23))
    assert turns_sweep().timed_out == []
    at(time_machine, timedelta(days=4, minutes=1))
    assert turns_sweep().timed_out == [game.pk]
    game.refresh_from_db()
    assert rules.seats_to_move(rules.State.from_json(game.state, game_scenario(game=game))) == [3]


def test_away_only_stretches_the_turns_of_the_away_player(
    make_room: RoomMaker, time_machine: Any
) -> None:
    at(time_machine, timedelta(0))
    game, users = launch(make_room, limit=HOUR)
    user_away_set(user=users[4], until=START + timedelta(days=3))  # the Elf's player

    at(time_machine, timedelta(minutes=61))
    assert turns_sweep().timed_out == [game.pk]  # the Barbarian's player is not away


# --- the lobby -----------------------------------------------------------------------------------


def test_my_games_put_those_waiting_on_me_first_soonest_deadline_first(
    make_room: RoomMaker, time_machine: Any
) -> None:
    at(time_machine, timedelta(0))
    me = make_user()
    later, _ = launch(make_room, limit=48 * HOUR)
    sooner, _ = launch(make_room, limit=5 * HOUR)
    others, _ = launch(make_room, limit=HOUR)
    for game, seat in ((later, 2), (sooner, 2), (others, 3)):  # seat 2 moves first
        game.room.seats.filter(number=seat).update(user=me)
    User.objects.filter(pk=me.pk).update(time_zone="Asia/Tokyo")

    page = client_for(me).get("/").content.decode().replace("\xa0", " ")

    rows = [page.index(f'id="game-{g.pk}"') for g in (sooner, later, others)]
    assert rows == sorted(rows)
    assert "Turn ends in 5 hours" in page
    assert "Tue 1 Dec, 14:00 UTC" not in page and "Tue 1 Dec, 23:00 JST" in page  # local time


# --- operators -----------------------------------------------------------------------------------


def test_sweep_turns_twice_gives_one_effect(make_room: RoomMaker, time_machine: Any) -> None:
    at(time_machine, timedelta(0))
    game, users = launch(make_room, limit=HOUR, reminder=HOUR / 2)
    at(time_machine, timedelta(minutes=45))

    first, second = StringIO(), StringIO()
    call_command("sweep_turns", stdout=first)
    call_command("sweep_turns", stdout=second)

    assert json.loads(first.getvalue()) == {
        "failed": [],
        "reminded": [game.pk],
        "timed_out": [],
        "ai_played": [],
        "orders": [],
        "vacation": [],
    }
    assert json.loads(second.getvalue()) == {
        "failed": [],
        "reminded": [],
        "timed_out": [],
        "ai_played": [],
        "orders": [],
        "vacation": [],
    }
    assert reminders(users[2]) == 1

    at(time_machine, timedelta(minutes=61))
    call_command("sweep_turns", stdout=StringIO())
    call_command("sweep_turns", stdout=StringIO())
    game.refresh_from_db()
    assert game.version == 1
    assert Notification.objects.filter(user=users[2], kind="timeout").count() == 1
    assert timezone.now() > game.created
