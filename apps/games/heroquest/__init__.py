"""HeroQuest's wing: the pure rules engine (``engine/``), its quests (``quests/``) and its face.

The platform reaches HeroQuest only through ``GAME`` (apps/games/registry.py). The campaign app,
HeroQuest's own (the Cinder Saga between quests), also reads the armory's tables named here.
"""

from .engine.data import (
    ARMOUR,
    HERO_ORDER,
    HEROES,
    TOOL_KIT_PRICE,
    WEAPONS,
    campaign_hero_problems,
    equipment_problem,
    item_effect,
    seat_of_hero,
)
from .engine.saga import CINDER_SAGA, saga_quests
from .face import GAME, HeroQuest

__all__ = [
    "ARMOUR",
    "CINDER_SAGA",
    "GAME",
    "HEROES",
    "HERO_ORDER",
    "TOOL_KIT_PRICE",
    "WEAPONS",
    "HeroQuest",
    "campaign_hero_problems",
    "equipment_problem",
    "item_effect",
    "saga_quests",
    "seat_of_hero",
]
