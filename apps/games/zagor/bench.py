"""Benchmark the Zagor engine: `python -m apps.games.zagor.bench [--games N] [--states N]`.

Prints full goal-seeking games per second of the full game, and median / p99 of legal_actions,
apply, seat_view, state_to_json, and the text stored after each action (orjson writing the
state's dataclasses, `ZagorFace.state_for_text`) over mid-game states of every tale.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import orjson

from .engine import apply, legal_actions, seats_to_move
from .playout import goal_policy, playout, random_policy
from .scenarios import SLUGS
from .state import State, state_to_json
from .views import seat_view

Json = dict[str, Any]


def games_per_second(count: int) -> tuple[float, int]:
    actions = 0
    start = time.perf_counter()
    for seed in range(count):
        _, log = playout("crypt_of_zagor", 1 + seed % 4, seed, goal_policy)
        actions += len(log)
    return count / (time.perf_counter() - start), actions


def mid_game_states(count: int) -> list[tuple[State, int, Json]]:
    """(state, seat, the action played there) a few dozen actions into running games."""
    out: list[tuple[State, int, Json]] = []
    seed = 500
    while len(out) < count:
        seed += 1
        steps: list[tuple[State, int, Json]] = []

        def keep(s: State, seat: int, a: Json, into: list[tuple[State, int, Json]] = steps) -> None:
            into.append((s, seat, a))

        policy = goal_policy if seed % 2 else random_policy
        playout(SLUGS[seed % 3], 1 + seed % 4, seed, policy, max_actions=400, on_step=keep)
        out.extend(x for x in steps[40::20] if x[0].outcome is None)
    return out[:count]


def timings(
    fn: Callable[[State, int, Json], object], states: list[tuple[State, int, Json]], repeat: int = 5
) -> list[float]:
    out = []
    for s, seat, action in states:
        for _ in range(repeat):
            t = time.perf_counter()
            fn(s, seat, action)
            out.append((time.perf_counter() - t) * 1000)
    return out


def report(name: str, ms: list[float]) -> None:
    ms = sorted(ms)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    print(
        f"zagor {name:14s} median {statistics.median(ms):6.3f} ms   p99 {p99:6.3f} ms   "
        f"(n={len(ms)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--states", type=int, default=60)
    args = parser.parse_args()
    rate, actions = games_per_second(args.games)
    print(f"zagor full games (goal-seeking heroes): {rate:.2f}/s ({actions} actions)")
    states = mid_game_states(args.states)
    assert all(seats_to_move(s) == [seat] for s, seat, _ in states)
    report("legal_actions", timings(lambda s, seat, a: legal_actions(s, seat), states))
    report("apply", timings(lambda s, seat, a: apply(s, seat, a), states))
    report("seat_view", timings(lambda s, seat, a: seat_view(s, seat), states))
    report("state_to_json", timings(lambda s, seat, a: state_to_json(s), states))
    # As the platform writes it (apps/core/jsontext.py): string keys only, no key option.
    report("stored text", timings(lambda s, seat, a: orjson.dumps(s), states))


if __name__ == "__main__":
    main()
