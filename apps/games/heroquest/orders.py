"""HeroQuest's standing orders: a seat plays its next turn ahead of time (apps/games/port.py,
`StandingOrders`). Pure, and decided from the seat's own view only.

A hero seat queues, per hero, one plan for the hero's next turn:

    {"heroes": {"barbarian": {"to": [x, y] | None, "door": "d2" | None, "act": "end_turn"}}}

walk to a square (rolling movement first), open a door, then one action (`act`: search for
treasure, traps or secret doors, or just end the turn), and the turn ends. `to` and `door` both
None with `act: "end_turn"` is "end the turn where I stand". A walk that runs out of movement
ends the turn where the hero stands (the plan is for this turn; the player queues again).

Zargon's standing rules: `{"idle_ends_phase": true, "ai": "phase" | "always" | None}`:
monsters that see no hero do nothing (the phase ends by itself when no revealed monster can
reach or see a hero), and the monster AI plays the next phase (or every phase until revoked).

Every decision reads `seat_view(state, seat)` and nothing else of the state: the squares,
doors, figures and legal actions the seat is shown. So two games that differ only in what the
seat cannot see play the same steps (tests/games/heroquest/test_orders.py), and a queue can only
walk through squares the heroes have seen. Zargon sees everything, so his rules may look at the
whole state (which monster can reach whom is his to know).
"""

from __future__ import annotations

from collections import deque
from typing import Any

from apps.games.port import Json, OrderStep

from . import engine as rules
from .engine.ai import monster_reach, next_monster_action
from .engine.board import Board
from .engine.context import cap
from .engine.data import HERO_ORDER, ZARGON_SEAT, display_name, heroes_of_seat
from .engine.geometry import ORTHOGONAL
from .engine.options import monster_stats

THEN = {
    "end_turn": "end the turn",
    "search_treasure": "search for treasure",
    "search_traps": "search for traps",
    "search_secret_doors": "search for secret doors",
}
AI_MODES = ("phase", "always")
SIDES = {(0, -1): ("N", "S"), (1, 0): ("E", "W"), (0, 1): ("S", "N"), (-1, 0): ("W", "E")}
# Story lines of a recap: what changed the quest, not every step.
STORY_TYPES = frozenset(
    {
        "attack",
        "spell",
        "dread_spell",
        "dread_spell_hit",
        "reveal",
        "door_opened",
        "search",
        "trap",
        "potion",
        "hero_fallen",
        "villain_defeated",
        "wandering_monster",
        "escape",
        "turn_lost",
        "quest_over",
    }
)
STORY_LINES = 8

Sq = tuple[int, int]


# --- what a view shows ---------------------------------------------------------------------------


class ViewMap:
    """The walkable map of a seat view: squares shown, walls, doors, and what stands where."""

    def __init__(self, view: Json) -> None:
        m = view["map"]
        self.walls: dict[Sq, str] = {(s["x"], s["y"]): s["walls"] for s in m["squares"]}
        self.doors: dict[frozenset[Sq], Json] = {
            frozenset(tuple(sq) for sq in d["between"]): d for d in m["doors"]
        }
        self.door_by_id: dict[str, Json] = {d["id"]: d for d in m["doors"]}
        taken: set[Sq] = {tuple(sq) for sq in m["blocked"] if sq is not None}
        for f in m["furniture"]:
            taken |= {tuple(sq) for sq in f["squares"]}
        self.unstandable = frozenset(taken)
        # A detected, armed trap is walked round, as a player would.
        self.known_traps = frozenset(
            tuple(t["square"])
            for t in m["traps"]
            if t["square"] is not None and t["state"] == "armed"
        )
        self.monsters: frozenset[Sq] = frozenset(
            tuple(x["position"]) for x in view["monsters"] if x["position"] is not None
        )
        self.heroes: dict[str, Json] = {h["hero"]: h for h in view["heroes"]}

    def standable(self, sq: Sq) -> bool:
        return sq in self.walls and sq not in self.unstandable

    def edge_open(self, a: Sq, b: Sq) -> bool:
        side_a, side_b = SIDES[(b[0] - a[0], b[1] - a[1])]
        if side_a in self.walls[a] or side_b in self.walls[b]:
            return False
        door = self.doors.get(frozenset((a, b)))
        return door is None or bool(door["open"])

    def distances(self, goal: Sq, *, mover: str | None = None) -> dict[Sq, int]:
        """Steps from each shown square to `goal` through shown squares, round walls, closed
        doors, blocked squares, furniture, known traps and figures (other than `mover`)."""
        if not self.standable(goal):
            return {}
        figures = set(self.monsters) | {
            tuple(h["position"])
            for name, h in self.heroes.items()
            if h["position"] is not None and name != mover and h["status"] == "playing"
        }
        dist = {goal: 0}
        queue = deque([goal])
        while queue:
            sq = queue.popleft()
            for dx, dy in ORTHOGONAL:
                nb = (sq[0] + dx, sq[1] + dy)
                if nb in dist or not self.standable(nb) or not self.edge_open(sq, nb):
                    continue
                dist[nb] = dist[sq] + 1
                if nb in figures or nb in self.known_traps:
                    continue  # reached (the mover's own square), never walked through
                queue.append(nb)
        return dist


def _square(value: Any) -> Sq | None:
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return (value[0], value[1])
    return None


def _monsters_in_sight(view: Json, hero: str) -> list[Json]:
    return [m for m in view["monsters"] if hero in m.get("in_sight_of", [])]


def _monster_words(m: Json) -> str:
    return display_name(m["kind"])


# --- checking a queue ----------------------------------------------------------------------------


def order_problems(state: rules.State, seat: int, orders: Json) -> list[str]:
    if not isinstance(orders, dict):
        return ["Orders must be a JSON object."]
    if seat == ZARGON_SEAT:
        return _zargon_problems(orders)
    return _hero_problems(rules.seat_view(state, seat), orders)


def _zargon_problems(orders: Json) -> list[str]:
    problems = [f"Zargon has no order {k!r}." for k in orders if k not in ("idle_ends_phase", "ai")]
    if not isinstance(orders.get("idle_ends_phase", False), bool):
        problems.append("idle_ends_phase must be true or false.")
    if orders.get("ai") not in (None, *AI_MODES):
        problems.append('ai must be "phase", "always" or null.')
    return problems


def _hero_problems(view: Json, orders: Json) -> list[str]:
    if view["role"] != "hero":
        return ["Only a player's seat gives orders."]
    extra = set(orders) - {"heroes"}
    if extra:
        return [f"Unknown order field(s): {', '.join(sorted(extra))}."]
    plans = orders.get("heroes")
    if not isinstance(plans, dict) or not plans:
        return ["Queue a plan for at least one of your heroes."]
    vmap = ViewMap(view)
    problems: list[str] = []
    for hero, plan in plans.items():
        if hero not in view["heroes_owned"]:
            problems.append(f"{hero!r} is not one of your heroes.")
            continue
        who = cap(display_name(hero))
        problems += [f"{who}: {p}" for p in _plan_problems(vmap, hero, plan)]
    return problems


def _plan_problems(vmap: ViewMap, hero: str, plan: Any) -> list[str]:
    if not isinstance(plan, dict):
        return ["a plan must be a JSON object."]
    extra = set(plan) - {"to", "door", "act"}
    if extra:
        return [f"unknown field(s) {', '.join(sorted(extra))}."]
    me = vmap.heroes[hero]
    if me["status"] != "playing" or me["position"] is None:
        return ["this hero is no longer in play."]
    here: Sq = tuple(me["position"])
    problems = []
    if plan.get("act", "end_turn") not in THEN:
        problems.append(f"'act' must be one of {', '.join(THEN)}.")
    end = here
    if plan.get("to") is not None:
        to = _square(plan["to"])
        if to is None:
            return [*problems, "'to' must be a square [x, y]."]
        if not vmap.standable(to):
            seen = "is not a square your heroes have seen and can stand on"
            return [*problems, f"{list(to)} {seen}."]
        if here not in vmap.distances(to, mover=hero):
            return [*problems, f"no known way leads to {list(to)}."]
        end = to
    door_id = plan.get("door")
    if door_id is not None:
        door = vmap.door_by_id.get(door_id) if isinstance(door_id, str) else None
        if door is None:
            problems.append(f"there is no door {door_id!r} in sight.")
        elif door["open"]:
            problems.append(f"door {door_id} is already open.")
        elif list(end) not in door["between"]:
            problems.append(f"door {door_id} does not touch {list(end)}.")
    return problems


# --- playing a queue -----------------------------------------------------------------------------


def next_order_step(state: rules.State, seat: int, orders: Json) -> OrderStep:
    if seat == ZARGON_SEAT:
        return _zargon_step(state, orders)
    return _hero_step(rules.seat_view(state, seat), orders)


def _wait(orders: Json) -> OrderStep:
    return OrderStep(action=None, stop_reason=None, remaining=orders)


def _stop(reason: str) -> OrderStep:
    # The rest of the seat's turn is the player's: the whole queue goes (docs/design.md).
    return OrderStep(action=None, stop_reason=reason, remaining={})


def _hero_step(view: Json, orders: Json) -> OrderStep:
    turn = view["turn"]
    hero = turn["hero"]
    plans = dict(orders.get("heroes") or {})
    if turn["phase"] != "heroes" or turn["seat"] != view["seat"] or hero not in plans:
        return _wait(orders)
    plan = dict(plans[hero])
    name = cap(display_name(hero))
    legal = view["legal_actions"]

    def play(action: Json, new_plan: Json | None) -> OrderStep:
        rest = dict(plans)
        if new_plan is None:
            rest.pop(hero)
        else:
            rest[hero] = new_plan
        remaining = {"heroes": rest} if rest else {}
        return OrderStep(action=action, stop_reason=None, remaining=remaining)

    def legal_one(kind: str, **fields: Any) -> Json | None:
        return next(
            (
                a
                for a in legal
                if a["type"] == kind
                and a.get("hero") == hero
                and all(a.get(k) == v for k, v in fields.items())
            ),
            None,
        )

    end_turn = legal_one("end_turn")
    if end_turn is None:  # a pending choice (a falling block's) or anything unexpected
        return _stop(f"{name} has a choice to make: the rest of the turn is yours.")
    seen = _monsters_in_sight(view, hero)
    if seen:
        return _stop(f"{name} sees {_monster_words(seen[0])}: the rest of the turn is yours.")
    if plan.get("to") is not None:
        step = _walk(view, hero, plan, legal_one)
        if step is not None:
            return play(*step)
    if plan.get("door") is not None:
        door = ViewMap(view).door_by_id.get(plan["door"])
        if door is None or door["open"]:  # opened by another hero meanwhile: nothing to do
            plan["door"] = None
        else:
            action = legal_one("open_door", door=plan["door"])
            if action is None:
                return _stop(f"{name} cannot open door {plan['door']} from here.")
            return play(action, {**plan, "door": None})
    act = plan.get("act", "end_turn")
    if act != "end_turn" and not turn["has_acted"]:
        action = legal_one(act)
        if action is None:
            return _stop(f"{name} cannot {THEN[act]} here now: the rest of the turn is yours.")
        return play(action, {**plan, "act": "end_turn"})
    return play(end_turn, None)


Played = tuple[Json, Json | None]  # an action, and the hero's plan after it (None: done)


def _walk(view: Json, hero: str, plan: Json, legal_one: Any) -> Played | None:
    """The next step of a plan's walk: roll, a move, or (arrived) None; out of movement, the
    turn ends where the hero stands."""
    turn = view["turn"]
    to = _square(plan["to"])
    assert to is not None
    me = ViewMap(view).heroes[hero]
    here = tuple(me["position"])
    if here == to:
        return None
    if not turn["movement_rolled"]:
        roll = legal_one("roll_movement")
        if roll is not None:
            return roll, plan
    vmap = ViewMap(view)
    dist = vmap.distances(to, mover=hero)
    best, best_d = None, dist.get(here, 1 << 30)
    for a in view["legal_actions"]:
        if a["type"] == "move" and a.get("hero") == hero:
            d = dist.get(tuple(a["to"]))
            if d is not None and d < best_d:
                best, best_d = a, d
    if best is not None and turn["movement_left"] > 0:
        return best, plan
    # Out of movement, or the way is taken: the plan's turn ends here.
    return legal_one("end_turn"), None


def order_interruption(before: Json, after: Json) -> str | None:
    """What changed in a hero seat's view that a queue must not play through (Zargon's AI and
    idle rule are never interrupted: he asked for them knowing everything)."""
    if after.get("role") != "hero":
        return None
    sprung = _traps(after, "sprung") - _traps(before, "sprung")
    if sprung:
        kind = next(t["kind"] for t in after["map"]["traps"] if t["id"] in sprung)
        return f"A {kind.replace('_', ' ')} trap was sprung."
    body_before = {h["hero"]: h["body"] for h in before["heroes"]}
    for h in after["heroes"]:
        if h["body"] < body_before.get(h["hero"], h["body"]):
            return f"{cap(display_name(h['hero']))} lost Body."
    monsters_before = {m["id"] for m in before["monsters"]}
    for m in after["monsters"]:
        if m["id"] not in monsters_before:
            return f"A monster was revealed: {_monster_words(m)}."
    # A room, not a passage: walking a passage shows more of it at every bend, and what stands
    # in it is a monster (above) or in sight (below).
    areas_before = {a["id"] for a in before["map"]["areas"]}
    for area in after["map"]["areas"]:
        if area["id"] not in areas_before and area["kind"] == "room":
            return f"A room was revealed: {area['name']}."
    mine = set(after["heroes_owned"])
    sighted_before = {(m["id"], h) for m in before["monsters"] for h in m.get("in_sight_of", [])}
    for m in after["monsters"]:
        for h in m.get("in_sight_of", []):
            if h in mine and (m["id"], h) not in sighted_before:
                return f"{cap(display_name(h))} sees {_monster_words(m)}."
    return None


def _traps(view: Json, state: str) -> set[str]:
    return {t["id"] for t in view["map"]["traps"] if t["state"] == state}


# --- Zargon --------------------------------------------------------------------------------------


def _zargon_step(state: rules.State, orders: Json) -> OrderStep:
    if state.phase != "monsters" or state.outcome is not None:
        return _wait(orders)
    ai = orders.get("ai")
    if ai in AI_MODES:
        action = next_monster_action(state)
        if action is None:
            return _wait(orders)
        rest = dict(orders)
        if ai == "phase" and isinstance(action, rules.EndPhase):
            rest.pop("ai")  # per phase: this one is played
        return OrderStep(action=rules.action_to_json(action), stop_reason=None, remaining=rest)
    idle = _phase_untouched(state) and not _any_monster_engaged(state)
    if orders.get("idle_ends_phase") and idle:
        return OrderStep(
            action=rules.action_to_json(rules.EndPhase()), stop_reason=None, remaining=orders
        )
    return _wait(orders)


def _phase_untouched(state: rules.State) -> bool:
    """No monster has been activated yet this phase (the rule only ends a phase it opens)."""
    return state.mturn.monster is None and not any(m.activated for m in state.monsters.values())


def _any_monster_engaged(state: rules.State) -> bool:
    """Some revealed living monster sees a hero or can reach a square next to one this phase."""
    board = Board(state)
    heroes = [h.position for h in state.heroes.values() if h.playing and h.position is not None]
    for m in state.monsters.values():
        if not m.alive or m.pub is None or m.position is None:
            continue
        if any(board.sees(m.position, pos) for pos in heroes):
            return True
        reach = monster_reach(board, m.position, monster_stats(state, m).move)  # the AI's reckoning
        beside = {(p[0] + dx, p[1] + dy) for p in heroes for dx, dy in ORTHOGONAL}
        if beside & set(reach):
            return True
    return False


# --- words ---------------------------------------------------------------------------------------


def order_lines(state: rules.State, seat: int, orders: Json) -> list[str]:
    if seat == ZARGON_SEAT:
        lines = []
        if orders.get("idle_ends_phase"):
            lines.append(
                "Monsters that see no hero do nothing: a phase with no monster able to "
                "reach or see a hero ends by itself."
            )
        if orders.get("ai") == "phase":
            lines.append("The monster AI plays the next phase.")
        elif orders.get("ai") == "always":
            lines.append("The monster AI plays every phase until you revoke it.")
        return lines
    plans = orders.get("heroes") or {}
    lines = []
    for hero in HERO_ORDER:
        plan = plans.get(hero)
        if plan is None or hero not in heroes_of_seat(state.seats, seat):
            continue
        parts = []
        if plan.get("to") is not None:
            parts.append(f"walk to {plan['to'][0]},{plan['to'][1]}")
        if plan.get("door") is not None:
            parts.append(f"open door {plan['door']}")
        act = plan.get("act", "end_turn")
        if act != "end_turn":
            parts.append(THEN[act])
        if not parts:
            parts.append("end the turn where the hero stands")
        else:
            parts.append("end the turn")
        lines.append(f"{cap(display_name(hero))}: {', then '.join(parts)}.")
    return lines


def recap_lines(entries: list[Json]) -> list[str]:
    """What mattered (fights, finds, traps, reveals, falls) in the log's own words, and each
    hero's walk in one line ("The Dwarf moved 5 squares."); the last few."""
    lines: list[str] = []
    walked: dict[str, int] = {}

    def walks_done() -> None:
        for hero, squares in walked.items():
            plural = "s" if squares != 1 else ""
            lines.append(f"{cap(display_name(hero))} moved {squares} square{plural}.")
        walked.clear()

    for e in entries:
        kind = e.get("type")
        if kind == "move" and isinstance(e.get("hero"), str):
            walked[e["hero"]] = walked.get(e["hero"], 0) + 1
            continue
        if kind in ("turn", "phase"):
            walks_done()
        elif kind in STORY_TYPES and e.get("text"):
            walks_done()
            lines.append(str(e["text"]))
    walks_done()
    return lines[-STORY_LINES:]
