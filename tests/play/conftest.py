"""Play fixtures: users, the Ashen Vault quest row, full rooms and launched games."""

import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from apps.accounts.models import User
from apps.play.models import Game
from apps.play.services import game_launch
from apps.quests.models import QuestDefinition
from apps.rooms import services as rooms
from apps.rooms.models import Room
from tests.conftest import client_for as client_for  # the tests here import it from here
from tests.conftest import make_user

QUEST_FILE = (
    Path(__file__).resolve().parents[2]
    / "apps"
    / "games"
    / "heroquest"
    / "quests"
    / "ashen_vault.yaml"
)


@pytest.fixture
def quest(db: None) -> QuestDefinition:
    return QuestDefinition.objects.create(
        slug="ashen_vault", name="The Ashen Vault", source=QUEST_FILE.read_text(encoding="utf-8")
    )


RoomMaker = Callable[..., tuple[Room, dict[int, User]]]


@pytest.fixture
def make_room(quest: QuestDefinition) -> RoomMaker:
    """A room of `seats` seats, the host in seat 1 (Zargon); every seat taken unless not `fill`."""

    def make(seats: int = 2, fill: bool = True) -> tuple[Room, dict[int, User]]:
        host = make_user()
        room = rooms.room_create(host=host, name="Friday table", seat_count=seats)
        users = {1: host}
        rooms.room_seat_take(room_id=room.pk, user=host, number=1)
        if fill:
            for number in range(2, seats + 1):
                users[number] = make_user()
                rooms.room_seat_take(room_id=room.pk, user=users[number], number=number)
        return room, users

    return make


GameMaker = Callable[..., tuple[Game, dict[int, User]]]


@pytest.fixture
def make_game(make_room: RoomMaker) -> GameMaker:
    """A launched game with every seat taken: (game, {seat: user})."""

    def make(seats: int = 2, seed: int = 1) -> tuple[Game, dict[int, User]]:
        room, users = make_room(seats)
        return game_launch(room_id=room.pk, user=users[1], seed=seed), users

    return make


def key() -> str:
    return uuid.uuid4().hex


def post_action(
    client: Client, game_id: int, action: Any, version: int, idem: str | None = None
) -> Any:
    return client.post(
        f"/api/games/{game_id}/actions",
        {"action": action, "expected_version": version, "idempotency_key": idem or key()},
        content_type="application/json",
    )


@pytest.fixture(autouse=True)
def tasks_run_eagerly(celery_eager: None) -> None:
    """The turn notifications, enqueued after a commit, run in-process (tests/conftest.py)."""


@pytest.fixture(autouse=True)
def fresh_chat_rate_limits(settings: Any) -> None:
    """Each test counts chat messages afresh, even in a Redis cache kept between runs."""
    settings.RATELIMIT_CACHE_PREFIX = f"rl:{uuid.uuid4().hex}:"
