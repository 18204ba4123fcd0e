"""Quest fixtures: the shipped quests in the database, and workshop staff."""

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from apps.accounts.models import User
from apps.quests.models import QuestDefinition
from apps.quests.services import quest_sync_shipped

PASSWORD = "lantern-crypt-7781"


@pytest.fixture
def vault(db: None) -> QuestDefinition:
    """The shipped quests loaded as `make run` loads them; the Ashen Vault among them."""
    quest_sync_shipped()
    return QuestDefinition.objects.get(slug="ashen_vault")


def make_user(username: str, *, staff: bool = False, perms: tuple[str, ...] = ()) -> User:
    user: User = User.objects.create_user(
        username=username, email=f"{username}@example.com", password=PASSWORD, is_staff=staff
    )
    user.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="quests", codename__in=perms)
    )
    return user


@pytest.fixture
def editor(db: None) -> User:
    """A staff member allowed to add, change and view quests (not a superuser)."""
    return make_user(
        "editor",
        staff=True,
        perms=("add_questdefinition", "change_questdefinition", "view_questdefinition"),
    )


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client
