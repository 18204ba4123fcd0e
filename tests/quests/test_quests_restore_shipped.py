"""Restoring a shipped quest's shipped revision gives it back to its shipped file (issue 21):
`load_quests` updates it again, where an admin's own edit or restore is still left alone."""

import importlib
from io import StringIO

import pytest
from django.apps import apps
from django.core.management import call_command

from apps.accounts.models import User
from apps.quests.models import QuestDefinition, QuestRevision
from apps.quests.services import (
    quest_create,
    quest_revision_restore,
    quest_save_edit,
    quest_shipped_sources,
)
from tests.conftest import make_user

from .conftest import client_for

pytestmark = pytest.mark.django_db


def harder(source: str) -> str:
    return source.replace("name: The Ashen Vault", "name: The Ashen Vault (hard)")


def older(source: str) -> str:
    """The Ashen Vault as an earlier release of the site shipped it (a smaller reward)."""
    assert "reward_gold: 200" in source
    return source.replace("reward_gold: 200", "reward_gold: 150")


def load_quests() -> str:
    out = StringIO()
    call_command("load_quests", stdout=out)
    return out.getvalue()


def as_an_earlier_release_loaded_it(vault: QuestDefinition) -> str:
    """The database holds the Ashen Vault as an older shipped file loaded it (revision 1);
    the file shipped now is newer. Returns the older text."""
    text = older(vault.source)
    QuestRevision.objects.filter(definition=vault, number=1).update(source=text)
    QuestDefinition.objects.filter(pk=vault.pk).update(source=text)
    vault.refresh_from_db()
    return text


def test_restoring_the_shipped_revision_lets_load_quests_update_the_quest(
    vault: QuestDefinition,
) -> None:
    shipped_now = vault.source
    loaded = as_an_earlier_release_loaded_it(vault)
    quest_save_edit(definition=vault, source=harder(loaded), author=make_user())
    assert "ashen_vault: The Ashen Vault (hard) (skipped" in load_quests()
    vault.refresh_from_db()
    assert (vault.origin, vault.source) == ("admin", harder(loaded))

    quest_revision_restore(revision=vault.revisions.get(number=1), author=None)

    vault.refresh_from_db()
    assert (vault.origin, vault.source) == ("shipped", loaded)
    out = load_quests()
    assert "ashen_vault: The Ashen Vault (shipped)" in out and "skipped" not in out
    vault.refresh_from_db()
    assert (vault.origin, vault.source) == ("shipped", shipped_now)  # the newer file, loaded
    notes = list(vault.revisions.order_by("number").values_list("note", "restored_from"))
    assert notes == [("shipped", None), ("edit", None), ("restore", 1), ("shipped", None)]


def test_the_workshops_restore_button_does_the_same(editor: User, vault: QuestDefinition) -> None:
    client = client_for(editor)
    loaded = as_an_earlier_release_loaded_it(vault)
    quest_save_edit(definition=vault, source=harder(loaded), author=editor)

    response = client.post(f"/admin/quests/questdefinition/{vault.pk}/revisions/1/restore/")

    assert response.status_code == 302
    vault.refresh_from_db()
    assert vault.origin == "shipped"
    assert "skipped" not in load_quests()
    vault.refresh_from_db()
    assert vault.source != loaded and vault.origin == "shipped"


def test_restoring_an_admins_revision_keeps_the_quest_the_admins(vault: QuestDefinition) -> None:
    quest_save_edit(definition=vault, source=harder(vault.source))
    quest_save_edit(definition=vault, source=older(vault.source))

    quest_revision_restore(revision=vault.revisions.get(number=2), author=None)

    vault.refresh_from_db()
    assert vault.origin == "admin"
    assert "ashen_vault: The Ashen Vault (hard) (skipped" in load_quests()


def test_restoring_an_older_shipped_revision_than_the_newest_keeps_it_the_admins(
    vault: QuestDefinition,
) -> None:
    """An admin who goes back to what an earlier release shipped chose that text: load_quests
    would overwrite it with the newer file, so the quest stays the admin's."""
    loaded = as_an_earlier_release_loaded_it(vault)
    load_quests()  # the newer file: revision 2, shipped
    vault.refresh_from_db()
    assert vault.source != loaded and vault.revisions.count() == 2

    quest_revision_restore(revision=vault.revisions.get(number=1), author=None)

    vault.refresh_from_db()
    assert (vault.origin, vault.source) == ("admin", loaded)
    assert "skipped" in load_quests()


def test_an_edit_back_to_the_shipped_text_follows_the_file_again(vault: QuestDefinition) -> None:
    shipped = vault.source
    quest_save_edit(definition=vault, source=harder(shipped))

    quest_save_edit(definition=vault, source=shipped)

    vault.refresh_from_db()
    assert vault.origin == "shipped" and shipped in quest_shipped_sources(definition=vault)
    assert "skipped" not in load_quests()


def test_an_uploaded_quest_no_file_ships_stays_the_admins(vault: QuestDefinition) -> None:
    copy = quest_create(
        source=vault.source.replace("slug: ashen_vault", "slug: ember_copy"), author=None
    )

    assert quest_shipped_sources(definition=copy) == set()
    quest_save_edit(definition=copy, source=copy.source, enabled=True)
    copy.refresh_from_db()
    assert copy.origin == "admin"


def test_the_migration_gives_back_quests_restored_before_the_fix(vault: QuestDefinition) -> None:
    """Quests an admin restored to the shipped revision before this fix were left `admin`."""
    quest_save_edit(definition=vault, source=harder(vault.source))
    quest_save_edit(definition=vault, source=vault.revisions.get(number=1).source)
    QuestDefinition.objects.filter(pk=vault.pk).update(origin="admin")  # as the old code left it
    edited = QuestDefinition.objects.get(slug="smoke_warrens")
    quest_save_edit(definition=edited, source=edited.source + "\n# an admin's note\n")
    migration = importlib.import_module(
        "apps.quests.migrations.0005_restored_shipped_quests_follow_the_file"
    )

    migration.restored_shipped_quests_follow_the_file(apps, None)

    vault.refresh_from_db()
    edited.refresh_from_db()
    assert (vault.origin, edited.origin) == ("shipped", "admin")
