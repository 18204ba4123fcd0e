"""A simple bot that plays any seat from its seat view alone, choosing among `legal_actions`.

Heroes: escape > attack > harmful spell at a monster > heal a badly hurt hero > open a door >
roll > step toward the nearest monster (then closed door; once the villain is down, the stairway)
> search for secret doors when there is nowhere to go > end the turn. Zargon: attack > step the
active monster toward the nearest hero > end its activation > start another monster that can
close in > end the phase. `randomness` makes some choices at random, so seeds play differently.
"""

from __future__ import annotations

import random
from collections import deque
from typing import Any

import orjson

Square = tuple[int, int]
Action = dict[str, Any]
STEPS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "E": "W", "S": "N", "W": "E"}
HARMFUL_SPELLS = {"ball_of_flame", "fire_of_wrath", "genie", "tempest", "sleep"}
HEALING_SPELLS = {"water_of_healing", "heal_body"}


def _sq(value: Any) -> Square:
    return (int(value[0]), int(value[1]))


class Map:
    """The squares a seat can see, and which steps between them are open."""

    def __init__(self, view: dict[str, Any]) -> None:
        m = view["map"]
        self.walls = {(s["x"], s["y"]): s["walls"] for s in m["squares"]}
        self.closed = {
            frozenset((_sq(d["between"][0]), _sq(d["between"][1])))
            for d in m["doors"]
            if not d["open"]
        }
        self.blocked = {_sq(b) for b in m["blocked"] if b is not None}
        for f in m["furniture"]:
            self.blocked |= {_sq(s) for s in f["squares"]}
        self.stairway = [_sq(s) for s in m["stairway"]]
        # Each square's open steps, worked out once: the searches below walk them many times.
        self.steps = {sq: self._open_steps(sq) for sq in self.walls}

    def neighbours(self, sq: Square) -> list[Square]:
        return self.steps.get(sq, [])

    def _open_steps(self, sq: Square) -> list[Square]:
        out = []
        for side, (dx, dy) in STEPS.items():
            nxt = (sq[0] + dx, sq[1] + dy)
            if (
                side in self.walls.get(sq, "NESW")
                or nxt not in self.walls
                or OPPOSITE[side] in self.walls[nxt]
                or nxt in self.blocked
                or frozenset((sq, nxt)) in self.closed
            ):
                continue
            out.append(nxt)
        return out

    def distances(self, goals: set[Square], obstacles: set[Square]) -> dict[Square, int]:
        """Steps from every reachable square to the nearest goal, around the obstacles."""
        dist = {g: 0 for g in goals if g in self.walls}
        queue = deque(dist)
        steps = self.steps
        while queue:
            sq = queue.popleft()
            for nxt in steps[sq]:
                if nxt not in dist and nxt not in obstacles:
                    dist[nxt] = dist[sq] + 1
                    queue.append(nxt)
        return dist

    def doors_unopened(self, view: dict[str, Any]) -> set[Square]:
        return {
            _sq(sq)
            for d in view["map"]["doors"]
            if not d["open"] and d.get("found", True)
            for sq in d["between"]
            if _sq(sq) in self.walls
        }


def _adjacent(squares: list[Square]) -> set[Square]:
    return {(x + dx, y + dy) for x, y in squares for dx, dy in STEPS.values()}


class Bot:
    def __init__(self, seed: int, randomness: float = 0.1) -> None:
        self.rng = random.Random(seed)
        self.randomness = randomness
        self.villain_defeated = False
        # The last map seen and its text: most actions change nothing on it (monsters and heroes
        # are obstacles given apart), so its steps are worked out again only when it changes.
        self._map: tuple[bytes, Map] | None = None

    def observe(self, entries: list[dict[str, Any]]) -> None:
        if not self.villain_defeated and any(e.get("type") == "villain_defeated" for e in entries):
            self.villain_defeated = True

    def choose(self, view: dict[str, Any]) -> Action | None:
        legal: list[Action] = view["legal_actions"]
        if not legal:
            return None
        self.observe(view.get("log", []))
        if self.rng.random() < self.randomness / 4:
            return self.rng.choice(legal)
        if view["role"] == "zargon":
            return self._zargon(view, legal)
        return self._hero(view, legal)

    def _board(self, view: dict[str, Any]) -> Map:
        text = orjson.dumps(view["map"])
        if self._map is None or self._map[0] != text:
            self._map = (text, Map(view))
        return self._map[1]

    # --- heroes --------------------------------------------------------------------------------
    def _hero(self, view: dict[str, Any], legal: list[Action]) -> Action:
        by_type: dict[str, list[Action]] = {}
        for a in legal:
            by_type.setdefault(a["type"], []).append(a)
        turn = view["turn"]
        me = next(h for h in view["heroes"] if h["hero"] == turn["hero"])
        monsters = {m["id"]: m for m in view["monsters"]}
        if "escape" in by_type:
            return by_type["escape"][0]
        if "attack" in by_type:
            return min(by_type["attack"], key=lambda a: monsters[a["target"]]["body"])
        casts = by_type.get("cast", [])
        if me["body"] * 3 <= me["body_max"]:
            if "drink_potion" in by_type:
                return by_type["drink_potion"][0]
            heals = [a for a in casts if a["spell"] in HEALING_SPELLS and a["target"] == me["hero"]]
            if heals:
                return heals[0]
        harmful = [a for a in casts if a["spell"] in HARMFUL_SPELLS and a["target"] in monsters]
        if harmful and self.rng.random() < 0.7:
            return self.rng.choice(harmful)
        if "open_door" in by_type:
            return self.rng.choice(by_type["open_door"])
        if "roll_movement" in by_type and not turn["movement_rolled"]:
            return by_type["roll_movement"][0]
        step = self._hero_step(view, me, by_type.get("move", []), monsters)
        if step is not None:
            return step
        if "search_secret_doors" in by_type and not turn["has_acted"] and self.rng.random() < 0.5:
            return by_type["search_secret_doors"][0]
        if "search_treasure" in by_type and not turn["has_acted"] and self.rng.random() < 0.3:
            return by_type["search_treasure"][0]
        return by_type.get("end_turn", legal)[-1]

    def _hero_step(
        self,
        view: dict[str, Any],
        me: dict[str, Any],
        moves: list[Action],
        monsters: dict[str, dict[str, Any]],
    ) -> Action | None:
        if not moves or me["position"] is None:
            return None
        board = self._board(view)
        here = _sq(me["position"])
        figures = {_sq(h["position"]) for h in view["heroes"] if h["position"] and h is not me}
        figures |= {_sq(m["position"]) for m in monsters.values() if m["position"]}
        if self.villain_defeated:
            goal_sets = [set(board.stairway)]
        else:
            monster_squares = [_sq(m["position"]) for m in monsters.values() if m["position"]]
            goal_sets = [_adjacent(monster_squares) - figures, board.doors_unopened(view)]
        for goals in goal_sets:
            dist = board.distances(goals, figures)
            if here not in dist:
                continue
            best = min(moves, key=lambda a: dist.get(_sq(a["to"]), 10_000))
            if dist.get(_sq(best["to"]), 10_000) < dist[here]:
                return best
            if dist[here] == 0:
                return None
        return None

    # --- Zargon --------------------------------------------------------------------------------
    def _zargon(self, view: dict[str, Any], legal: list[Action]) -> Action:
        attacks = [a for a in legal if a["type"] == "monster_attack"]
        if attacks:
            return self.rng.choice(attacks)
        board = self._board(view)
        heroes = [_sq(h["position"]) for h in view["heroes"] if h["status"] == "playing"]
        monsters = {m["id"]: _sq(m["position"]) for m in view["monsters"] if m["position"]}
        figures = set(heroes) | set(monsters.values())
        dist = board.distances(_adjacent(heroes) - figures, figures - set(heroes))
        moves: dict[str, list[Action]] = {}
        for a in legal:
            if a["type"] == "monster_move":
                moves.setdefault(a["monster"], []).append(a)

        def closer(monster: str) -> Action | None:
            here = dist.get(monsters[monster], 10_000)
            options = [a for a in moves.get(monster, []) if dist.get(_sq(a["to"]), 10_000) < here]
            return min(options, key=lambda a: dist[_sq(a["to"])]) if options else None

        active = view["turn"]["active_monster"]
        if active is not None:
            step = closer(active) if active in monsters else None
            if step is not None:
                return step
            ends = [a for a in legal if a["type"] == "end_activation"]
            if ends:
                return ends[0]
        starters = [step for m in moves if m != active and (step := closer(m)) is not None]
        if starters:
            return self.rng.choice(starters)
        return next(a for a in legal if a["type"] == "end_phase")
