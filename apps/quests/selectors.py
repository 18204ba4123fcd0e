"""Reading quest definitions for the workshop: revisions with what each one changed."""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from apps.quests.models import QuestDefinition, QuestRevision


@dataclass(frozen=True)
class RevisionChange:
    revision: QuestRevision
    changes: str  # a unified diff against the revision before it ("" for the first one)


def quest_revision_changes(*, definition: QuestDefinition) -> list[RevisionChange]:
    """The quest's revisions, newest first, each with its diff against the one before it."""
    revisions = list(definition.revisions.select_related("author").order_by("number"))
    rows: list[RevisionChange] = []
    before: QuestRevision | None = None
    for revision in revisions:
        changes = ""
        if before is not None:
            changes = "".join(
                difflib.unified_diff(
                    before.source.splitlines(keepends=True),
                    revision.source.splitlines(keepends=True),
                    fromfile=f"revision {before.number}",
                    tofile=f"revision {revision.number}",
                    n=2,
                )
            )
        rows.append(RevisionChange(revision, changes))
        before = revision
    return rows[::-1]
