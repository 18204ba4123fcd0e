"""The seeded number stream every game on the site draws from (splitmix64), pure and tiny.

The same generator and the same rejection sampling as `apps/games/heroquest/engine/dice.py` and
`static/js/fairness.js`: anyone with a game's seed can walk the stream and check every draw.
A game keeps the stream's state as one int; `below(state, n)` returns the new state and a uniform
int in [0, n).
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def seed_rng(seed: int) -> int:
    """The initial stream state for a game seed (any int, negative and huge ones included)."""
    state, _ = next_u64(seed & MASK64)
    return state


def next_u64(state: int) -> tuple[int, int]:
    """Advance a splitmix64 state; returns (new_state, 64-bit output)."""
    state = (state + _GOLDEN) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """(new_state, a uniform int in [0, n)), rejecting the biased tail of the 64-bit output."""
    if n < 1:
        raise ValueError("below(n) needs n >= 1")
    limit = (MASK64 + 1) - ((MASK64 + 1) % n)
    while True:
        state, value = next_u64(state)
        if value < limit:
            return state, value % n
