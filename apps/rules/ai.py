"""The built-in monster AI: plays Zargon's phase when Zargon's player runs out of time.

Pure and deterministic (same state, same choice): every action it returns is one of
`legal_actions(state, 1)`. Each monster that can act, in order of public id:

1. attacks an adjacent hero if it can (the weakest one: least Body, then hero order);
2. otherwise walks toward the nearest hero it can see, one legal `monster_move` at a time, as long
   as a step brings it closer (walking distance by breadth-first search around walls, furniture and
   figures), and attacks once adjacent;
3. ends its activation.

A monster that can neither attack nor get closer to a hero it sees stays where it is (it is not
activated at all). When no monster has anything left to do, the AI ends the phase.
"""

from __future__ import annotations

from collections import deque

from .actions import Action, EndActivation, EndPhase, MonsterAttack, MonsterMove
from .ai_dread import dread_choice
from .board import Board
from .data import HERO_ORDER
from .engine import apply, legal_actions
from .events import ZARGON_SEAT
from .geometry import ORTHOGONAL, step
from .quest import Square
from .state import MonsterState, State

FAR = 1 << 30


def next_monster_action(state: State) -> Action | None:
    """Zargon's next action by the AI, or None when it is not Zargon's phase."""
    if state.outcome is not None or state.phase != "monsters":
        return None
    legal = legal_actions(state, ZARGON_SEAT)
    board = Board(state)
    spell = dread_choice(board, legal)  # a villain's Dread spells first (ai_dread.py)
    if spell is not None:
        return spell
    active = state.monsters.get(state.mturn.monster or "")
    if active is not None and active.pub is not None and active.alive:
        choice = _useful_step(board, legal, active) or EndActivation(active.pub)
        return choice if choice in legal else EndPhase()
    for m in sorted(state.monsters.values(), key=_pub_order):
        if m.pub is None or not m.alive or m.position is None:
            continue
        step_ = _useful_step(board, legal, m)
        if step_ is not None:
            return step_
    return EndPhase()


def monster_phase_actions(state: State, *, limit: int = 1000) -> list[Action]:
    """The AI's whole phase from `state` (applying each action in turn), ending with end_phase.

    Dice are rolled by the state's own RNG, so the list is what a real run would play.
    """
    actions: list[Action] = []
    for _ in range(limit):
        action = next_monster_action(state)
        if action is None:
            break
        actions.append(action)
        state = apply(state, ZARGON_SEAT, action).state
        if isinstance(action, EndPhase):
            break
    return actions


def _pub_order(m: MonsterState) -> tuple[int, str]:
    digits = (m.pub or "")[1:]
    return (int(digits) if digits.isdigit() else FAR, m.pub or m.key)


def _useful_step(board: Board, legal: list[Action], m: MonsterState) -> Action | None:
    """An attack of `m`, else a legal move of `m` that gets it closer to a hero it sees."""
    state = board.s
    attacks = [a for a in legal if isinstance(a, MonsterAttack) and a.monster == m.pub]
    if attacks:
        return min(
            attacks,
            key=lambda a: (state.heroes[a.target].body, HERO_ORDER.index(a.target)),
        )
    moves = [a for a in legal if isinstance(a, MonsterMove) and a.monster == m.pub]
    if not moves or m.position is None:
        return None
    targets = [h.position for h in board.visible_heroes(m.position) if h.position is not None]
    if not targets:
        return None
    distance = _distances_to_reach(board, m.position, targets)
    here = distance.get(m.position, FAR)
    best = min(moves, key=lambda a: (distance.get(a.to, FAR), a.to))
    return best if distance.get(best.to, FAR) < here else None


def _distances_to_reach(board: Board, start: Square, heroes: list[Square]) -> dict[Square, int]:
    """Steps from each square to a square from which a monster could attack one of `heroes`.

    Walkable: free squares (and the monster's own square), through open edges only.
    """

    def walkable(sq: Square) -> bool:
        return sq == start or board.free(sq)

    distance: dict[Square, int] = {}
    queue: deque[Square] = deque()
    for hero in heroes:
        for d in ORTHOGONAL:
            sq = step(hero, d)
            if sq not in distance and walkable(sq) and board.edge_open(sq, hero):
                distance[sq] = 0
                queue.append(sq)
    while queue:
        sq = queue.popleft()
        for d in ORTHOGONAL:
            nb = step(sq, d)
            if nb not in distance and walkable(nb) and board.edge_open(sq, nb):
                distance[nb] = distance[sq] + 1
                queue.append(nb)
    return distance
