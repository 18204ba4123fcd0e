import pytest
from django.test import Client

from apps.accounts.models import User
from apps.quests.models import QuestDefinition
from apps.rooms import services
from apps.rooms.models import Room
from tests.conftest import client_for

QUEST_SOURCE = "name: The Ashen Vault\n"


@pytest.fixture
def quest(db: None) -> QuestDefinition:
    return QuestDefinition.objects.create(
        slug="ashen_vault", name="The Ashen Vault", source=QUEST_SOURCE
    )


@pytest.fixture
def room(quest: QuestDefinition, host: User) -> Room:
    return services.room_create(host=host, name="Friday table", seat_count=3)


@pytest.fixture
def host_client(client: Client, host: User) -> Client:
    client.force_login(host)
    return client


@pytest.fixture
def alice_client(alice: User) -> Client:
    return client_for(alice)


def mark_playing(room: Room) -> None:
    """What the play app's launch does to the room (rooms never imports play)."""
    room.status = Room.Status.PLAYING
    room.save(update_fields=["status"])
