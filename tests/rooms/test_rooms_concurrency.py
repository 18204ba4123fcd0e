"""Two players racing for one seat on PostgreSQL: exactly one of them gets it."""

import threading

import pytest
from django.db import connection

from apps.accounts.models import User
from apps.quests.models import QuestDefinition
from apps.rooms import services
from apps.rooms.models import Room
from tests.conftest import make_user

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

RACERS = 4


def race(room_id: int, users: list[User], number: int) -> tuple[list[str], list[str]]:
    """Every user tries to take seat `number` at the same moment, each on its own connection."""
    start = threading.Barrier(len(users))
    winners: list[str] = []
    refusals: list[str] = []

    def attempt(user: User) -> None:
        try:
            start.wait()
            services.room_seat_take(room_id=room_id, user=user, number=number)
            winners.append(user.username)
        except services.RoomError as error:
            refusals.append(error.message)
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt, args=(user,)) for user in users]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return winners, refusals


def test_only_one_of_many_racers_gets_a_seat(postgres: None, quest: QuestDefinition) -> None:
    host = make_user("racehost")
    room = services.room_create(host=host, name="Race", seat_count=5)
    racers = [make_user(f"racer{n}") for n in range(RACERS)]

    for _ in range(3):  # a few rounds: a lucky interleaving must not hide a missing lock
        room.seats.update(user=None)
        winners, refusals = race(room.pk, racers, number=2)

        assert len(winners) == 1
        assert len(refusals) == RACERS - 1
        assert all("already taken" in message for message in refusals)
        assert room.seats.get(number=2).user.username == winners[0]  # type: ignore[union-attr]


def test_one_player_racing_for_two_seats_ends_in_exactly_one(
    postgres: None, quest: QuestDefinition
) -> None:
    host = make_user("racehost")
    room: Room = services.room_create(host=host, name="Race", seat_count=5)
    player = make_user("twohands")
    start = threading.Barrier(2)

    def attempt(number: int) -> None:
        try:
            start.wait()
            services.room_seat_take(room_id=room.pk, user=player, number=number)
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt, args=(n,)) for n in (2, 3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert room.seats.filter(user=player).count() == 1
