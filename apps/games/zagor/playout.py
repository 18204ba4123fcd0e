"""Balance, measured: `python -m apps.games.zagor.playout [--games N]`.

Plays seeded games of every tale with 1 to 4 heroes, by goal-seeking heroes (`ai.choose`) and by
random heroes (a random legal action; ending the turn is picked only one time in four when there
is something else to do), and prints how often a hero wins before the round limit and the rounds
it takes. The policies' own choices come from a splitmix64 stream too, so a run repeats exactly.
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable
from typing import Any

from apps.games.dicestream import below, seed_rng

from . import ai
from .engine import apply, legal_actions, new_game, seats_to_move
from .scenarios import SLUGS, shipped
from .state import State

Json = dict[str, Any]
Policy = Callable[[State, list[Json], list[int]], Json]


def goal_policy(state: State, actions: list[Json], rng: list[int]) -> Json:
    return ai.choose(state, actions)


def random_policy(state: State, actions: list[Json], rng: list[int]) -> Json:
    rng[0], roll = below(rng[0], 4)
    others = [a for a in actions if a["type"] != "end_turn"]
    pool = actions if roll == 0 or not others else others
    rng[0], index = below(rng[0], len(pool))
    return pool[index]


def playout(
    slug: str,
    heroes: int,
    seed: int,
    policy: Policy = goal_policy,
    *,
    max_actions: int = 20000,
    options: Json | None = None,
    on_step: Callable[[State, int, Json], None] | None = None,
) -> tuple[State, list[tuple[int, Json]]]:
    """One game to its end (or `max_actions`); returns the last state and the actions played."""
    state = new_game(shipped(slug), heroes, seed, options or {}, commitment=None).state
    rng = [seed_rng(seed ^ 0x5EED)]
    log: list[tuple[int, Json]] = []
    for _ in range(max_actions):
        seats = seats_to_move(state)
        if not seats:
            break
        seat = seats[0]
        action = policy(state, legal_actions(state, seat), rng)
        if on_step is not None:
            on_step(state, seat, action)
        state = apply(state, seat, action).state
        log.append((seat, action))
    return state, log


def measure(slug: str, heroes: int, games: int, policy: Policy) -> Json:
    wins = 0
    rounds: list[int] = []
    for seed in range(games):
        state, _ = playout(slug, heroes, 1000 * heroes + seed, policy)
        if state.outcome is not None and state.outcome.startswith("hero:"):
            wins += 1
            rounds.append(state.round)
    return {
        "wins": wins,
        "games": games,
        "rate": wins / games,
        "median_rounds": statistics.median(rounds) if rounds else None,
        "mean_rounds": statistics.mean(rounds) if rounds else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--tales", nargs="*", default=list(SLUGS))
    args = parser.parse_args()
    print("tale              heroes  policy  won before the limit   rounds (median / mean)")
    for slug in args.tales:
        for heroes in (1, 2, 3, 4):
            for name, policy in (("goal", goal_policy), ("random", random_policy)):
                m = measure(slug, heroes, args.games, policy)
                med = "-" if m["median_rounds"] is None else f"{m['median_rounds']:.0f}"
                mean = "-" if m["mean_rounds"] is None else f"{m['mean_rounds']:.1f}"
                print(
                    f"{slug:17s} {heroes:6d}  {name:6s}  {m['wins']:3d}/{m['games']:<3d} "
                    f"({m['rate']:4.0%})          {med:>4s} / {mean:>5s}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
