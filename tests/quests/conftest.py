"""Quest fixtures: the shipped quests in the database, and workshop staff."""

import pytest

from apps.quests.models import QuestDefinition
from apps.quests.services import quest_sync_shipped
from tests.conftest import client_for as client_for  # the tests here import it from here


@pytest.fixture
def vault(db: None) -> QuestDefinition:
    """The shipped quests loaded as `make run` loads them; the Ashen Vault among them."""
    quest_sync_shipped()
    return QuestDefinition.objects.get(slug="ashen_vault")
