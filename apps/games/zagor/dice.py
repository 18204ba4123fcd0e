"""The game's dice: draws from the seeded splitmix64 stream (`apps.games.dicestream`), each
recorded as (purpose, n, result) for the replay's fairness check (docs/zagor/rules.md 17).

A d10 is `below(10)` with purpose "d10" and shows result + 1. Tests may force the next results
of any purpose (`forced={"d10": [7, 2]}` gives die faces 7 then 2; other purposes take the raw
result in [0, n)); forced numbers draw nothing from the stream and are not recorded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar

from apps.games.dicestream import below

Draw = tuple[str, int, int]
_T = TypeVar("_T")

PURPOSES = ("d10", "shuffle", "first", "monster", "voice", "chest", "teleport", "pick", "zagor")


class ForcedDiceExhausted(AssertionError):
    """A test forced fewer numbers of a purpose than the action drew."""


class Dice:
    def __init__(self, rng: int, forced: Mapping[str, Sequence[int]] | None = None) -> None:
        self.rng = rng
        self.draws: list[Draw] = []
        self._forced = {k: list(v) for k, v in (forced or {}).items()}

    def below(self, n: int, purpose: str) -> int:
        """A uniform int in [0, n); n == 1 draws nothing (there is no choice to make)."""
        if purpose in self._forced:
            queue = self._forced[purpose]
            if not queue:
                raise ForcedDiceExhausted(f"the test forced too few {purpose!r} numbers")
            value = queue.pop(0)
            if purpose == "d10":
                value -= 1
            if not 0 <= value < n:
                raise ValueError(f"forced {purpose} result out of range: {value} for n={n}")
            return value
        if n == 1:
            return 0
        self.rng, value = below(self.rng, n)
        self.draws.append((purpose, n, value))
        return value

    def d10(self) -> int:
        return self.below(10, "d10") + 1

    def shuffle(self, items: list[_T], purpose: str = "shuffle") -> None:
        """Fisher-Yates in place, as HeroQuest's dice shuffle."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1, purpose)
            items[i], items[j] = items[j], items[i]

    def forced_left(self) -> int:
        return sum(len(v) for v in self._forced.values())
