"""Benchmark the engine on the Ashen Vault: `make bench` [--quests N].

Prints full random quests per second, and median / p99 of legal_actions, apply and seat_view
over mid-game states.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from .engine import apply, legal_actions, load_quest, seats_to_move
from .playout import pick, random_playout
from .quest import Quest
from .seat_views import seat_view
from .state import State


def quests_per_second(quest: Quest, count: int) -> tuple[float, dict[str | None, int], int]:
    outcomes: dict[str | None, int] = {}
    actions = 0
    start = time.perf_counter()
    for seed in range(count):
        state, log = random_playout(quest, 2 + seed % 4, seed, max_actions=5000)
        outcomes[state.outcome] = outcomes.get(state.outcome, 0) + 1
        actions += len(log)
    return count / (time.perf_counter() - start), outcomes, actions


def mid_game_states(quest: Quest, count: int) -> list[State]:
    """States a few hundred actions into random quests that are still running."""
    states: list[State] = []
    seed = 1000
    while len(states) < count:
        seed += 1
        steps: list[State] = []

        def keep(before: State, *_: object, into: list[State] = steps) -> None:
            into.append(before)

        random_playout(quest, 2 + seed % 4, seed, max_actions=400, on_step=keep)
        states.extend(s for s in steps[150:400:25] if s.outcome is None)
    return states[:count]


def timings(fn: Callable[[State], object], states: list[State], repeat: int = 5) -> list[float]:
    out = []
    for s in states:
        for _ in range(repeat):
            t = time.perf_counter()
            fn(s)
            out.append((time.perf_counter() - t) * 1000)
    return out


def report(name: str, ms: list[float]) -> None:
    ms = sorted(ms)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    print(f"{name:14s} median {statistics.median(ms):6.3f} ms   p99 {p99:6.3f} ms   (n={len(ms)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quests", type=int, default=20)
    parser.add_argument("--states", type=int, default=60)
    args = parser.parse_args()
    quest = load_quest("ashen_vault")
    rate, outcomes, actions = quests_per_second(quest, args.quests)
    print(f"full random quests: {rate:.2f}/s ({actions} actions; outcomes {outcomes})")
    states = mid_game_states(quest, args.states)
    rnd = random.Random(0)
    chosen = {}
    for s in states:
        seat = seats_to_move(s)[0]
        chosen[id(s)] = (seat, pick(s, legal_actions(s, seat), rnd))

    def do_apply(s: State) -> None:
        seat, action = chosen[id(s)]
        apply(s, seat, action)

    def do_legal(s: State) -> None:
        legal_actions(s, seats_to_move(s)[0])

    def do_view(s: State) -> None:
        seat_view(s, seats_to_move(s)[0])

    report("legal_actions", timings(do_legal, states))
    report("apply", timings(do_apply, states))
    report("seat_view", timings(do_view, states))
    report("zargon view", timings(lambda s: seat_view(s, 1), states))


if __name__ == "__main__":
    main()
