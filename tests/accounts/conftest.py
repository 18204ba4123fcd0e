import pytest
from django.test import Client

from apps.accounts.models import User
from tests.conftest import PASSWORD


@pytest.fixture
def password() -> str:
    return PASSWORD


@pytest.fixture
def player_client(client: Client, player: User) -> Client:
    client.force_login(player)
    return client
