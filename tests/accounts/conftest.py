import pytest
from django.test import Client

from apps.accounts.models import User

PASSWORD = "lantern-crypt-7781"


@pytest.fixture
def password() -> str:
    return PASSWORD


@pytest.fixture
def player(db: None) -> User:
    return User.objects.create_user(
        username="brenna", email="brenna@example.com", password=PASSWORD
    )


@pytest.fixture
def player_client(client: Client, player: User) -> Client:
    client.force_login(player)
    return client
