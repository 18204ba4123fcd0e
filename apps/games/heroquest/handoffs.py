"""How often a HeroQuest table waits for a person, with and without standing orders (issue 24).

    python -m apps.games.heroquest.handoffs [--games 20] [--rounds 25] [--seats 3 5]
                                            [--queue-in-sight]

Goal-seeking bots (`engine.playout.pick`) play the Ashen Vault. A *hand-off* is a seat's turn
(from the moment the seats to move become it until they change) in which a person had to act:
without orders every turn is one (the engine already skips a Zargon phase with no monster to
command). With orders the bots use them as a player would:

- a hero seat, as its turn ends, queues each of its heroes' next turns if no monster is in that
  hero's sight then: search the room it stands in if it has not, else walk into the nearest
  room the heroes have seen that it has not searched, with no monster known in it, within
  `ROOM_REACH` squares, and search it there ("a path, then one action"), else walk to the
  nearest closed door it knows of and open it, else end the turn where it stands ("nothing to
  do but wait for the others"); a hero with a monster in sight queues nothing (with
  `--queue-in-sight` it queues the same plan: the orders never start with a monster in sight,
  so it plays only if the monster is gone when the turn comes);
- Zargon keeps "monsters that see no hero do nothing" on for good (and, in the `--zargon-ai`
  figures, lets the AI play every phase).

When a turn comes the queue is played exactly as the site plays it (`next_order_step`, then
`order_interruption` on the seat's views before and after each step); a turn that the orders
play to its end is no hand-off, one they stop at (or one with no orders) is. Everything is
seeded: the same command prints the same figures.
"""

from __future__ import annotations

import argparse
import random
import statistics
from dataclasses import dataclass, field

from apps.games.port import Json

from . import orders as hq_orders
from .engine import action_to_json, apply, legal_actions, load_quest, new_game, seat_view
from .engine.data import ZARGON_SEAT, heroes_of_seat
from .engine.engine import seats_to_move
from .engine.playout import pick
from .engine.state import State

# How far a hero walks to search a room it has not searched: what a movement roll (2d6) reaches
# most of the time (6 or more: 26 times in 36), so the walk and the search are one turn's plan.
ROOM_REACH = 6


@dataclass
class Tally:
    rounds: int = 0
    handoffs: int = 0
    turns: int = 0  # seat turns in all
    by_orders: int = 0  # seat turns the orders played to their end
    unqueued: int = 0  # hero turns left unqueued (a monster in sight as the turn before ended)
    stops: dict[str, int] = field(default_factory=dict)

    @property
    def per_round(self) -> float:
        return self.handoffs / self.rounds if self.rounds else 0.0


def hero_plan(view: Json, hero: str, *, in_sight: bool = False) -> Json | None:
    """The plan a player queues for `hero` from the seat's view, or None (a monster in sight,
    unless `in_sight`: then the plan as if none were)."""
    if any(hero in m.get("in_sight_of", []) for m in view["monsters"]):
        if not in_sight:
            return None
        view = {**view, "monsters": [{**m, "in_sight_of": []} for m in view["monsters"]]}
    me = next(h for h in view["heroes"] if h["hero"] == hero)
    if me["status"] != "playing" or me["position"] is None:
        return None
    here = (me["position"][0], me["position"][1])
    vmap = hq_orders.ViewMap(view)
    area_of = {(s["x"], s["y"]): s["area"] for s in view["map"]["squares"]}
    areas = {a["id"]: a for a in view["map"]["areas"]}
    mine = areas.get(area_of.get(here, ""))
    if mine is not None and mine["kind"] == "room" and hero not in mine["searched"]:
        return {"to": None, "door": None, "act": "search_treasure"}
    room = _room_to_search(view, hero, here, vmap, area_of, areas)
    if room is not None:
        return {"to": room, "door": None, "act": "search_treasure"}
    best: tuple[int, list[int], str] | None = None
    for door in view["map"]["doors"]:
        if door["open"]:
            continue
        for side in door["between"]:
            sq = (side[0], side[1])
            if not vmap.standable(sq):
                continue
            d = vmap.distances(sq, mover=hero).get(here)
            if d is not None and (best is None or d < best[0]):
                best = (d, [sq[0], sq[1]], door["id"])
    if best is not None:
        return {"to": best[1] if best[0] else None, "door": best[2], "act": "end_turn"}
    return {"to": None, "door": None, "act": "end_turn"}


def _room_to_search(
    view: Json,
    hero: str,
    here: tuple[int, int],
    vmap: hq_orders.ViewMap,
    area_of: dict[tuple[int, int], str],
    areas: dict[str, Json],
) -> list[int] | None:
    """The nearest square, within ROOM_REACH, of a room the heroes have seen, that `hero` has not
    searched for treasure and where no monster is known: walk in and search it."""
    haunted = {area_of.get(sq) for sq in vmap.monsters}
    best: tuple[int, tuple[int, int]] | None = None
    for sq, area_id in area_of.items():
        area = areas.get(area_id)
        if area is None or area["kind"] != "room" or hero in area["searched"]:
            continue
        if area_id in haunted or not vmap.standable(sq) or sq in vmap.known_traps:
            continue
        d = vmap.distances(sq, mover=hero).get(here)
        if d is not None and d <= ROOM_REACH and (best is None or (d, sq) < best):
            best = (d, sq)
    return None if best is None else [best[1][0], best[1][1]]


def seat_orders(state: State, seat: int, zargon_ai: bool, in_sight: bool = False) -> Json:
    if seat == ZARGON_SEAT:
        return {"idle_ends_phase": True, **({"ai": "always"} if zargon_ai else {})}
    view = seat_view(state, seat)
    plans = {}
    for hero in heroes_of_seat(state.seats, seat):
        plan = hero_plan(view, hero, in_sight=in_sight)
        if plan is not None:
            plans[hero] = plan
    return {"heroes": plans} if plans else {}


def play(
    seats: int,
    seed: int,
    rounds: int,
    *,
    use_orders: bool,
    zargon_ai: bool = False,
    in_sight: bool = False,
) -> Tally:
    quest = load_quest("ashen_vault")
    state = new_game(quest, seats, seed)
    rnd = random.Random(seed)
    tally = Tally()
    queued: dict[int, Json] = {}
    if use_orders:
        queued[ZARGON_SEAT] = seat_orders(state, ZARGON_SEAT, zargon_ai)
    while state.outcome is None and state.round <= rounds:
        to_move = seats_to_move(state)
        if not to_move:
            break
        seat = to_move[0]
        tally.turns += 1
        person = False
        orders = queued.get(seat, {})
        while seats_to_move(state) == [seat] and state.outcome is None:
            if orders and not person:
                step = hq_orders.next_order_step(state, seat, orders)
                if step.action is not None:
                    before = seat_view(state, seat)
                    state = apply(state, seat, step.action).state
                    reason = hq_orders.order_interruption(before, seat_view(state, seat))
                    orders = {} if reason else step.remaining
                    if reason:
                        key = reason.split(":")[0].split(" was ")[0]
                        tally.stops[key] = tally.stops.get(key, 0) + 1
                    continue
                if step.stop_reason:
                    key = "at the start: " + step.stop_reason.split(":")[0].split(" sees ")[-1]
                    tally.stops[key] = tally.stops.get(key, 0) + 1
                orders = step.remaining if not step.stop_reason else {}
            person = True
            action = pick(state, legal_actions(state, seat), rnd)
            state = apply(state, seat, action_to_json(action)).state
        if person:
            tally.handoffs += 1
        else:
            tally.by_orders += 1
        if use_orders:
            if seat != ZARGON_SEAT:
                wanted = len(heroes_of_seat(state.seats, seat))
                tally.unqueued += wanted - len(
                    seat_orders(state, seat, zargon_ai).get("heroes", {})
                )
            if seat == ZARGON_SEAT:
                queued[seat] = orders or seat_orders(state, seat, zargon_ai)
            else:  # the turn is over: the player queues the next one
                queued[seat] = seat_orders(state, seat, zargon_ai, in_sight)
    tally.rounds = min(state.round, rounds) if state.outcome is None else state.round
    return tally


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=25)
    parser.add_argument("--seats", type=int, nargs="+", default=[3, 5])
    parser.add_argument(
        "--queue-in-sight",
        action="store_true",
        help="hero seats queue their plan with a monster in sight too (it plays if it is gone)",
    )
    args = parser.parse_args(argv)
    print(f"Ashen Vault, {args.games} seeded games of up to {args.rounds} rounds each")
    print("seats | orders            | hand-offs/round (mean, min-max over games) | rounds")
    for seats in args.seats:
        for label, use, ai in (
            ("none", False, False),
            ("heroes + idle rule", True, False),
            ("heroes + Zargon AI", True, True),
        ):
            tallies = [
                play(
                    seats,
                    seed,
                    args.rounds,
                    use_orders=use,
                    zargon_ai=ai,
                    in_sight=args.queue_in_sight,
                )
                for seed in range(1, args.games + 1)
            ]
            per = [t.per_round for t in tallies]
            total = sum(t.handoffs for t in tallies) / sum(t.rounds for t in tallies)
            stops: dict[str, int] = {}
            for t in tallies:
                for k, v in t.stops.items():
                    stops[k] = stops.get(k, 0) + v
            print(
                f"{seats:5} | {label:17} | {total:4.2f} ({min(per):.2f}-{max(per):.2f})"
                f"{'':26}| {statistics.mean(t.rounds for t in tallies):.1f}"
            )
            if use:
                played = sum(t.by_orders for t in tallies)
                turns = sum(t.turns for t in tallies)
                top = sorted(stops.items(), key=lambda kv: -kv[1])[:6]
                unqueued = sum(t.unqueued for t in tallies)
                print(f"      | seat turns played whole by orders: {played}/{turns}; hero turns")
                what = "queued anyway" if args.queue_in_sight else "not queued"
                print(f"      | {what} (a monster in sight): {unqueued}; stops: {top}")


if __name__ == "__main__":
    main()
