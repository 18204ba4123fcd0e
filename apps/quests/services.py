"""Quest definitions in the database: the shipped quest files, and admins' edits.

Every change of a quest's source goes through here and is kept as a numbered `QuestRevision`
(who, when, how). An admin's upload, edit or restore marks the quest `origin="admin"`, which
`quest_sync_shipped` (the `load_quests` command, run by `make run` at every start) leaves alone;
but an edit or restore that brings back the shipped source (the newest revision loaded from the
shipped file, or the shipped file as it is now) hands the quest back to the shipped file:
`origin="shipped"` again, and `load_quests` updates it as before.
Games are not touched: each keeps the source it was launched with (`Game.quest_source`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Max

from apps.accounts.models import User
from apps.games.port import GameFace, Scenario, ScenarioError
from apps.games.registry import DEFAULT_GAME, game_face, game_faces
from apps.quests.models import QuestDefinition, QuestRevision

# The workshop's word for a scenario that cannot be played (the game's own error).
QuestFileError = ScenarioError


class QuestNotFound(Exception):
    pass


class QuestSlugTaken(Exception):
    pass


@dataclass(frozen=True)
class SyncResult:
    """What `quest_sync_shipped` did with one shipped file."""

    definition: QuestDefinition
    action: str  # "created", "updated", "unchanged" or "skipped" (an admin's edit is kept)


def _next_revision(
    definition: QuestDefinition,
    *,
    author: User | None,
    note: str,
    restored_from: int | None = None,
) -> QuestRevision:
    """Record the definition's current source as its next revision (the caller holds its lock)."""
    last = definition.revisions.aggregate(n=Max("number"))["n"] or 0
    return QuestRevision.objects.create(
        definition=definition,
        number=last + 1,
        source=definition.source,
        author=author,
        note=note,
        restored_from=restored_from,
    )


def quest_shipped_sources(*, definition: QuestDefinition) -> set[str]:
    """The sources that are the shipped quest: the newest revision loaded from its shipped file,
    and the shipped file as it is now (empty for a quest no file ships)."""
    sources = set()
    shipped = (
        definition.revisions.filter(note=QuestRevision.Note.SHIPPED).order_by("-number").first()
    )
    if shipped is not None:
        sources.add(shipped.source)
    for face in game_faces():
        if face.slug == definition.kind:
            sources.update(q.source for q in face.scenarios() if q.slug == definition.slug)
    return sources


def _origin_of(definition: QuestDefinition, source: str) -> str:
    """ "shipped" if `source` is the shipped quest's, else "admin"."""
    return "shipped" if source in quest_shipped_sources(definition=definition) else "admin"


def _parsed(face: GameFace, source: str, slug: str) -> Scenario:
    """The scenario `source` holds; raises QuestFileError listing every problem."""
    return face.scenario_read(source, f"{slug}.yaml")


def quest_sync_shipped(*, overwrite_edits: bool = False) -> list[SyncResult]:
    """Load every shipped quest file into the database.

    A quest an admin has uploaded, edited or restored keeps the admin's version (reported as
    "skipped") unless `overwrite_edits` is set, so `make run` never throws away an admin's work.
    """
    results = []
    shipped = [(face, scenario) for face in game_faces() for scenario in face.scenarios()]
    for face, quest in shipped:
        source = quest.source
        with transaction.atomic():
            definition, created = QuestDefinition.objects.select_for_update().get_or_create(
                slug=quest.slug,
                defaults={
                    "kind": face.slug,
                    "name": quest.name,
                    "source": source,
                    "origin": "shipped",
                },
            )
            if created:
                action = "created"
            elif definition.origin != "shipped" and not overwrite_edits:
                action = "skipped"
            elif definition.source == source and definition.origin == "shipped":
                action = "unchanged"
            else:
                definition.name, definition.source, definition.origin = (
                    quest.name,
                    source,
                    "shipped",
                )
                definition.save(update_fields=["name", "source", "origin", "updated"])
                action = "updated"
            if action in ("created", "updated"):
                _next_revision(definition, author=None, note=QuestRevision.Note.SHIPPED)
        results.append(SyncResult(definition, action))
    return results


def quest_create(
    *,
    source: str,
    author: User | None,
    enabled: bool = False,
    note: str = QuestRevision.Note.UPLOAD,
    game: str = DEFAULT_GAME,
) -> QuestDefinition:
    """A new scenario of `game` from an uploaded file (raises QuestFileError, or QuestSlugTaken
    if one with the file's slug exists: edit that one instead). Off until an admin enables it."""
    quest = _parsed(game_face(game), source, "quest")
    with transaction.atomic():
        if QuestDefinition.objects.filter(slug=quest.slug).exists():
            raise QuestSlugTaken(f"A quest with slug {quest.slug!r} already exists; edit it.")
        definition = QuestDefinition.objects.create(
            kind=game,
            slug=quest.slug,
            name=quest.name,
            source=source,
            enabled=enabled,
            origin="admin",
        )
        _next_revision(definition, author=author, note=note)
    return definition


def quest_save_edit(
    *,
    definition: QuestDefinition,
    source: str,
    author: User | None = None,
    note: str = QuestRevision.Note.EDIT,
    enabled: bool | None = None,
    restored_from: int | None = None,
) -> QuestDefinition:
    """Store an admin's edit of a quest after validating it (raises QuestFileError).

    A changed source becomes the next revision and marks the quest as the admin's, unless it is
    the shipped source again (`quest_shipped_sources`): then the quest is the shipped file's
    once more, and `load_quests` updates it. Saving the same source again changes nothing but
    `enabled` (when given) and, if the source is the shipped one, gives the quest back to it.
    """
    quest = _parsed(game_face(definition.kind), source, definition.slug)
    if quest.slug != definition.slug:
        raise QuestFileError(
            [
                f"{definition.slug}.yaml: slug: the file says {quest.slug!r} but this quest is "
                f"{definition.slug!r}; upload it as a new quest instead"
            ]
        )
    with transaction.atomic():
        locked = QuestDefinition.objects.select_for_update().get(pk=definition.pk)
        if enabled is not None:
            locked.enabled = enabled
        origin = _origin_of(locked, source)
        if locked.source != source:
            locked.source, locked.name, locked.origin = source, quest.name, origin
            locked.save()
            _next_revision(locked, author=author, note=note, restored_from=restored_from)
        else:
            fields = ["enabled", "updated"]
            if origin == "shipped" and locked.origin != origin:
                locked.origin = origin
                fields.append("origin")
            locked.save(update_fields=fields)
    definition.refresh_from_db()
    return definition


def quest_revision_restore(*, revision: QuestRevision, author: User | None) -> QuestDefinition:
    """Make an earlier revision's source the quest's source again, as a new revision. Restoring
    the shipped revision gives the quest back to its shipped file (`load_quests` updates it)."""
    return quest_save_edit(
        definition=revision.definition,
        source=revision.source,
        author=author,
        note=QuestRevision.Note.RESTORE,
        restored_from=revision.number,
    )


def quest_set_enabled(*, definition: QuestDefinition, enabled: bool) -> None:
    """Offer the quest to new rooms, or stop offering it (its source is untouched)."""
    QuestDefinition.objects.filter(pk=definition.pk).update(enabled=enabled)
    definition.enabled = enabled


def quest_load(*, slug: str) -> Any:
    """The playable scenario for a slug, parsed from the database's source."""
    definition = QuestDefinition.objects.filter(slug=slug).first()
    if definition is None:
        raise QuestNotFound(f"No quest called {slug!r}.")
    face = game_face(definition.kind)
    _parsed(face, definition.source, slug)
    return face.scenario_parse(slug, definition.source)


def quest_start_view(*, definition: QuestDefinition) -> dict[str, Any]:
    """The starting board as the game shows it to an admin (HeroQuest: Zargon's view), for
    the workshop's map preview: the game sets the scenario up for a stand-in table, so the
    preview is the board a host would see at launch, drawn by the game's own board code."""
    face = game_face(definition.kind)
    _parsed(face, definition.source, definition.slug)
    return face.scenario_preview(face.scenario_parse(definition.slug, definition.source))


__all__ = [
    "QuestFileError",
    "QuestNotFound",
    "QuestSlugTaken",
    "SyncResult",
    "quest_create",
    "quest_load",
    "quest_revision_restore",
    "quest_save_edit",
    "quest_set_enabled",
    "quest_shipped_sources",
    "quest_start_view",
    "quest_sync_shipped",
]
