"""Random playouts: every seat picks among its legal actions (used by tests and the bench).

The picks are weighted towards fighting and exploring so quests actually end; the weights only
change how often an action is picked, never which actions are allowed.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from typing import Any

from .actions import Action, MonsterMove, Move, action_to_json
from .board import Board
from .engine import Transition, apply, legal_actions, new_game, seats_to_move
from .quest import Quest, Square
from .state import State

WEIGHTS = {
    "attack": 30,
    "throw": 3,
    "monster_attack": 30,
    "monster_cast": 20,
    "command_move": 4,
    "leave_block": 5,
    "give": 1,
    "open_door": 12,
    "roll_movement": 20,
    "cast": 3,
    "move": 4,
    "monster_move": 4,
    "jump": 2,
    "escape": 50,
    "take_belongings": 5,
    "search_treasure": 2,
    "search_traps": 1,
    "search_secret_doors": 2,
    "disarm": 2,
    "drink_potion": 1,
    "end_turn": 1,
    "end_activation": 1,
    "end_phase": 1,
}


def pick(state: State, actions: list[Action], rnd: random.Random) -> Action:
    weights = [float(WEIGHTS.get(a.type, 1)) for a in actions]
    if not state.villain_defeated:  # a retreat is legal but rare, so most playouts are fought out
        weights = [0.05 if a.type == "escape" else w for a, w in zip(actions, weights, strict=True)]
    if any(isinstance(a, Move | MonsterMove) for a in actions):
        dist = distances_to_goals(state)
        for i, a in enumerate(actions):
            here = _position(state, a)
            if isinstance(a, Move | MonsterMove) and here is not None:
                closer = dist.get(a.to, 999) < dist.get(here, 999)
                weights[i] = 40.0 if closer else 0.5
    return rnd.choices(actions, weights=weights, k=1)[0]


def _position(state: State, a: Action) -> Square | None:
    if isinstance(a, Move):
        return state.heroes[a.hero].position
    if isinstance(a, MonsterMove):
        m = state.monster_by_pub(a.monster)
        return m.position if m else None
    return None


_DIST_CACHE: dict[tuple[Any, ...], dict[Square, int]] = {}


def distances_to_goals(state: State) -> dict[Square, int]:
    """Walking distance (ignoring figures) to what the side to move wants to reach."""
    board = Board(state)
    geo = board.geo
    goals: list[Square] = []
    if state.phase == "monsters":
        goals = list(board.heroes_at)
    else:
        goals = [sq for sq, m in board.monsters_at.items() if m.pub]
        for door_id, ds in state.doors.items():
            if ds.pub and not ds.open:
                door = geo.doors[door_id]
                goals += [sq for sq in (door.a, door.b) if board.revealed_square(sq)]
        if state.villain_defeated:
            goals = list(state.quest.stairway)
    key = (geo, tuple(goals), board.open_edges, tuple(state.fallen_blocks))
    cached = _DIST_CACHE.get(key)
    if cached is None:
        if len(_DIST_CACHE) > 20000:
            _DIST_CACHE.clear()
        cached = _DIST_CACHE[key] = _walk_distances(board, goals)
    return cached


def _walk_distances(board: Board, goals: list[Square]) -> dict[Square, int]:
    geo = board.geo
    dist = {sq: 0 for sq in goals}
    queue = deque(goals)
    while queue:
        sq = queue.popleft()
        for nb in geo.neighbours(sq):
            if nb not in dist and board.standable(nb) and board.edge_open(sq, nb):
                dist[nb] = dist[sq] + 1
                queue.append(nb)
    return dist


def random_playout(
    quest: Quest,
    seats: int,
    seed: int,
    *,
    max_actions: int = 2000,
    chooser: random.Random | None = None,
    on_step: Callable[[State, int, Action, Transition], None] | None = None,
) -> tuple[State, list[tuple[int, dict[str, Any]]]]:
    """Play until the quest ends or `max_actions`; returns the final state and the action log."""
    rnd = chooser or random.Random(seed)
    state = new_game(quest, seats, seed)
    log: list[tuple[int, dict[str, Any]]] = []
    for _ in range(max_actions):
        to_move = seats_to_move(state)
        if not to_move:
            break
        seat = to_move[0]
        action = pick(state, legal_actions(state, seat), rnd)
        transition = apply(state, seat, action)
        if on_step is not None:
            on_step(state, seat, action, transition)
        log.append((seat, action_to_json(action)))
        state = transition.state
    return state, log
