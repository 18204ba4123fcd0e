from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from apps.accounts.models import User
from apps.quests.models import QuestDefinition
from apps.quests.services import (
    QuestFileError,
    QuestNotFound,
    SyncResult,
    quest_load,
    quest_revision_restore,
    quest_save_edit,
    quest_start_view,
    quest_sync_shipped,
)

pytestmark = pytest.mark.django_db


def test_sync_loads_the_ashen_vault_into_the_database() -> None:
    quest_sync_shipped()

    definition = QuestDefinition.objects.get(slug="ashen_vault")
    assert definition.name == "The Ashen Vault"
    assert definition.origin == "shipped"
    assert quest_load(slug="ashen_vault").villain


def test_sync_twice_keeps_one_row_per_quest() -> None:
    quest_sync_shipped()
    quest_sync_shipped()

    assert QuestDefinition.objects.filter(slug="ashen_vault").count() == 1


def vault(results: list[SyncResult]) -> QuestDefinition:
    return next(r.definition for r in results if r.definition.slug == "ashen_vault")


def test_sync_loads_every_quest_of_the_cinder_saga() -> None:
    quest_sync_shipped()
    assert set(QuestDefinition.objects.values_list("slug", flat=True)) >= {
        "ashen_vault",
        "smoke_warrens",
        "sealed_forge",
        "cinder_throne",
    }


def test_sync_keeps_an_admins_edit_unless_told_to_overwrite() -> None:
    definition = vault(quest_sync_shipped())
    edited = definition.source.replace("name: The Ashen Vault", "name: The Ashen Vault (hard)")
    quest_save_edit(definition=definition, source=edited)

    quest_sync_shipped()
    assert QuestDefinition.objects.get(slug="ashen_vault").name == "The Ashen Vault (hard)"

    quest_sync_shipped(overwrite_edits=True)
    assert QuestDefinition.objects.get(slug="ashen_vault").name == "The Ashen Vault"


def test_a_broken_edit_is_refused_and_the_old_source_kept() -> None:
    definition = vault(quest_sync_shipped())
    original = definition.source

    with pytest.raises(QuestFileError):
        quest_save_edit(definition=definition, source="name: [unclosed")

    assert QuestDefinition.objects.get(slug="ashen_vault").source == original


def test_loading_an_unknown_quest_says_so() -> None:
    with pytest.raises(QuestNotFound, match="No quest called 'nowhere'"):
        quest_load(slug="nowhere")


def test_load_quests_command_reports_each_quest(capsys: pytest.CaptureFixture[str]) -> None:
    call_command("load_quests")

    assert "ashen_vault: The Ashen Vault (shipped)" in capsys.readouterr().out


def test_validate_quest_command_accepts_the_shipped_quest(
    capsys: pytest.CaptureFixture[str],
) -> None:
    call_command("validate_quest", "ashen_vault")

    assert "ashen_vault.yaml: OK" in capsys.readouterr().out


def test_validate_quest_command_names_the_broken_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("name: Broken\nslug: broken\nmap: 7\n")

    with pytest.raises(CommandError, match="1 quest file"):
        call_command("validate_quest", str(broken))

    assert "broken.yaml line" in capsys.readouterr().out


# --- revisions and the shipped files ----------------------------------------------------------


def harder(source: str) -> str:
    return source.replace("name: The Ashen Vault", "name: The Ashen Vault (hard)")


def test_the_shipped_file_is_revision_1_and_an_edit_revision_2_by_its_author() -> None:
    admin = User.objects.create_user(username="zed", password="x")
    definition = vault(quest_sync_shipped())

    quest_save_edit(definition=definition, source=harder(definition.source), author=admin)

    first, second = definition.revisions.order_by("number")
    assert (first.number, first.note, first.author) == (1, "shipped", None)
    assert (second.number, second.note, second.author) == (2, "edit", admin)
    assert second.source == definition.source
    assert definition.origin == "admin"


def test_saving_the_same_source_again_adds_no_revision_and_keeps_it_shipped() -> None:
    definition = vault(quest_sync_shipped())

    quest_save_edit(definition=definition, source=definition.source, enabled=False)

    definition.refresh_from_db()
    assert (definition.origin, definition.enabled) == ("shipped", False)
    assert definition.revisions.count() == 1


def test_sync_reports_the_quest_an_admin_edited_as_skipped() -> None:
    definition = vault(quest_sync_shipped())
    quest_save_edit(definition=definition, source=harder(definition.source))

    actions = {r.definition.slug: r.action for r in quest_sync_shipped()}

    assert actions["ashen_vault"] == "skipped"
    assert actions["smoke_warrens"] == "unchanged"


def test_restoring_a_revision_makes_it_the_newest_one() -> None:
    definition = vault(quest_sync_shipped())
    shipped = definition.source
    quest_save_edit(definition=definition, source=harder(shipped))

    quest_revision_restore(revision=definition.revisions.get(number=1), author=None)

    newest = definition.revisions.order_by("-number").first()
    assert newest is not None
    assert (newest.number, newest.note, newest.restored_from) == (3, "restore", 1)
    assert QuestDefinition.objects.get(slug="ashen_vault").source == shipped


def test_an_edit_may_not_change_the_quests_slug() -> None:
    definition = vault(quest_sync_shipped())
    renamed = definition.source.replace("slug: ashen_vault", "slug: ashen_vault_two")

    with pytest.raises(QuestFileError, match="upload it as a new quest"):
        quest_save_edit(definition=definition, source=renamed)


def test_the_start_view_is_zargons_view_of_the_quests_first_board() -> None:
    definition = vault(quest_sync_shipped())

    view = quest_start_view(definition=definition)

    quest = quest_load(slug="ashen_vault")
    villain = next(m for m in quest.monsters if m.id == quest.villain)
    assert (view["role"], view["round"], view["turn"]["phase"]) == ("zargon", 1, "heroes")
    # Zargon sees the unrevealed villain where the file puts it, under its hidden id.
    shown = {m["id"]: m["position"] for m in view["monsters"]}
    assert shown[f"z-m-{villain.id}"] == list(villain.square)
    assert len(view["map"]["squares"]) == len(quest.square_area)
