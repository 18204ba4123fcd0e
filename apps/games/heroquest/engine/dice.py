"""Seeded randomness carried in the game state as one plain int (splitmix64).

`random.Random` state is thousands of ints; splitmix64 is one 64-bit int, so the state stays
small, JSON-friendly and cheap to copy, and a replay from the same seed repeats every roll.
"""

from __future__ import annotations

from collections.abc import Sequence

MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15

# Combat die faces: 3 skulls, 2 white shields, 1 black shield. A d6 value v maps to face v-1.
COMBAT_FACES = ("skull", "skull", "skull", "white_shield", "white_shield", "black_shield")
FACE_NAMES = frozenset(COMBAT_FACES)

# One number drawn from the RNG: (what for: "red" | "combat" | "shuffle", n, the result in
# [0, n)). A red die shows result + 1, a combat die COMBAT_FACES[result]. Anyone with the seed
# can walk the splitmix64 stream and check every draw (static/js/fairness.js does).
Draw = tuple[str, int, int]


def seed_rng(seed: int) -> int:
    """The initial RNG state for a game seed (any int, negative and huge ones included)."""
    state, _ = next_u64(seed & MASK64)
    return state


def next_u64(state: int) -> tuple[int, int]:
    """Advance a splitmix64 state; returns (new_state, 64-bit output)."""
    state = (state + _GOLDEN) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


class ForcedDiceExhausted(AssertionError):
    """A test forced fewer dice than the action rolled."""


class Dice:
    """Rolls dice from the RNG state; tests may force the next die results.

    `forced` holds die results used before the RNG: ints 1..6 for red dice and ints or face names
    for combat dice. Once a forced list is given it must cover every die the action rolls, so a
    test never silently depends on the PRNG. Shuffles always use the RNG.

    `draws` records every number drawn from the RNG, in order (forced dice draw nothing).
    """

    def __init__(self, rng: int, forced: Sequence[int | str] | None = None) -> None:
        self.rng = rng
        self._forced = list(forced) if forced is not None else None
        self.draws: list[Draw] = []

    def below(self, n: int, purpose: str = "shuffle") -> int:
        """A uniform int in [0, n) from the RNG (never forced)."""
        limit = (MASK64 + 1) - ((MASK64 + 1) % n)  # reject the biased tail
        while True:
            self.rng, value = next_u64(self.rng)
            if value < limit:
                self.draws.append((purpose, n, value % n))
                return value % n

    def _forced_next(self) -> int | str | None:
        if self._forced is None:
            return None
        if not self._forced:
            raise ForcedDiceExhausted("the test forced fewer dice than were rolled")
        return self._forced.pop(0)

    def red(self) -> int:
        forced = self._forced_next()
        if forced is None:
            return self.below(6, "red") + 1
        if not isinstance(forced, int) or not 1 <= forced <= 6:
            raise ValueError(f"forced red die must be 1..6, got {forced!r}")
        return forced

    def reds(self, count: int) -> list[int]:
        return [self.red() for _ in range(count)]

    def combat(self) -> str:
        forced = self._forced_next()
        if forced is None:
            return COMBAT_FACES[self.below(6, "combat")]
        if isinstance(forced, str):
            if forced not in FACE_NAMES:
                raise ValueError(f"unknown combat face {forced!r}")
            return forced
        return COMBAT_FACES[forced - 1]

    def combats(self, count: int) -> list[str]:
        return [self.combat() for _ in range(count)]

    def shuffle(self, items: list[str]) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1, "shuffle")
            items[i], items[j] = items[j], items[i]

    @property
    def forced_left(self) -> int:
        return len(self._forced) if self._forced is not None else 0
