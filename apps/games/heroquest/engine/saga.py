"""Sagas: the shipped quests that make one campaign, in order (docs/quest-format.md, `saga`).

A quest file names its saga and its chapter; `saga_quests("cinder_saga")` loads every shipped
quest of that saga, chapter 1 first. The campaign layer plays them in this order.
"""

from __future__ import annotations

from .engine import QUESTS_DIR, load_quest
from .quest import Quest

CINDER_SAGA = "cinder_saga"


def saga_quests(saga: str = CINDER_SAGA) -> list[Quest]:
    """The shipped quests of `saga`, by chapter."""
    quests = [load_quest(path) for path in sorted(QUESTS_DIR.glob("*.yaml"))]
    return sorted((q for q in quests if q.saga == saga), key=lambda q: q.chapter)
