from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from apps.quests.models import QuestDefinition
from apps.quests.services import (
    QuestFileError,
    QuestNotFound,
    quest_load,
    quest_save_edit,
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


def vault(definitions: list[QuestDefinition]) -> QuestDefinition:
    return next(d for d in definitions if d.slug == "ashen_vault")


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
