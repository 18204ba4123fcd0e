"""Quest definitions in the database: the shipped quest files, and admins' edits."""

from django.db import transaction

from apps.quests.models import QuestDefinition
from apps.rules.quest import Quest
from apps.rules.questfile import QUESTS_DIR, QuestFileError, parse_quest_text


class QuestNotFound(Exception):
    pass


def quest_sync_shipped(*, overwrite_edits: bool = False) -> list[QuestDefinition]:
    """Load every shipped quest file into the database.

    A quest an admin has edited keeps the admin's version unless `overwrite_edits` is set, so
    `make run` (which syncs on every start) never throws away an admin's work.
    """
    synced = []
    for path in sorted(QUESTS_DIR.glob("*.yaml")):
        source = path.read_text(encoding="utf-8")
        quest = parse_quest_text(source, name=path.name)
        with transaction.atomic():
            definition, created = QuestDefinition.objects.select_for_update().get_or_create(
                slug=quest.slug,
                defaults={"name": quest.name, "source": source, "origin": "shipped"},
            )
            if not created and (definition.origin == "shipped" or overwrite_edits):
                definition.name, definition.source, definition.origin = (
                    quest.name,
                    source,
                    "shipped",
                )
                definition.save(update_fields=["name", "source", "origin", "updated"])
        synced.append(definition)
    return synced


def quest_save_edit(*, definition: QuestDefinition, source: str) -> QuestDefinition:
    """Store an admin's edit of a quest after validating it (raises QuestFileError)."""
    quest = parse_quest_text(source, name=f"{definition.slug}.yaml")
    definition.source, definition.name, definition.origin = source, quest.name, "admin"
    definition.save()
    return definition


def quest_load(*, slug: str) -> Quest:
    """The playable Quest for a slug, parsed from the database's source."""
    definition = QuestDefinition.objects.filter(slug=slug).first()
    if definition is None:
        raise QuestNotFound(f"No quest called {slug!r}.")
    return parse_quest_text(definition.source, name=f"{slug}.yaml")


__all__ = ["QuestFileError", "QuestNotFound", "quest_load", "quest_save_edit", "quest_sync_shipped"]
