"""Quest fixtures: the shipped quests in the database, and workshop staff."""

import pytest
from django.test import Client

from apps.accounts.models import User
from apps.quests.models import QuestDefinition
from apps.quests.services import quest_sync_shipped
from tests.conftest import make_user


@pytest.fixture
def vault(db: None) -> QuestDefinition:
    """The shipped quests loaded as `make run` loads them; the Ashen Vault among them."""
    quest_sync_shipped()
    return QuestDefinition.objects.get(slug="ashen_vault")


@pytest.fixture
def editor(db: None) -> User:
    """A staff member allowed to add, change and view quests (not a superuser)."""
    return make_user(
        "editor",
        staff=True,
        perms=(
            "quests.add_questdefinition",
            "quests.change_questdefinition",
            "quests.view_questdefinition",
        ),
    )


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client
