"""The load test's players, one kind a game: each chooses from its seat's view alone, as a page
does (the view's `legal_actions`), so the harness drives the public API and nothing else."""

from __future__ import annotations

import random
from typing import Any, Protocol

from tests.play.bot import Bot as HeroQuestBot

Action = dict[str, Any]


class LoadBot(Protocol):
    def choose(self, view: dict[str, Any]) -> Action | None: ...


class ZagorBot:
    """Legend of Zagor's heroes: mostly one of the moves, fights, buys and spells offered, now and
    then the end of the turn. A standing setting (`set_surrender`) is a page's preference, not a
    move of the game: never chosen."""

    SETTINGS = frozenset({"set_surrender"})

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any]) -> Action | None:
        legal = [a for a in view["legal_actions"] if a["type"] not in self.SETTINGS]
        if not legal:
            return None
        playing = [a for a in legal if a["type"] != "end_turn"]
        if playing and self.rng.random() >= 0.25:
            return self.rng.choice(playing)
        return self.rng.choice(legal)


GAME_NAMES = {"heroquest": "HeroQuest", "zagor": "Legend of Zagor"}
GAMES = tuple(GAME_NAMES)


def load_bot(game: str, seed: int) -> LoadBot:
    """A player of `game` (one of `GAMES`) for one seat."""
    if game == "zagor":
        return ZagorBot(seed)
    return HeroQuestBot(seed=seed, randomness=0.1)
