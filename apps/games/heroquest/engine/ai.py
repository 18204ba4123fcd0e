"""The built-in monster AI: it plays Zargon in solo rooms, and Zargon's phase when his player runs
out of time.

Pure and deterministic (same state, same choice; ties go by monster id, hero order and square):
every action it returns is one of `legal_actions(state, 1)`. Its judgement, as a good Zargon's:

- **Hit where it hurts.** A hero is worth attacking by the chance that the attack defeats it,
  then by the Body it is expected to lose (docs/rules.md 5: skulls against white shields). So a
  wounded hero comes before a fresh one, and a hero in a pit (one defend die fewer) before one on
  firm ground; the monster avoids attacking from a pit itself (one attack die fewer).
- **Attack rather than wander.** A monster that can reach a hero this activation goes for the best
  target within its movement (the nearest square from which to strike it) and attacks. One that
  cannot walks toward the heroes it can reach (walking distance around walls, closed doors,
  furniture and figures; it leaps open pits as the rules allow), the nearest first and, among the
  equally near, the one it would hurt most.
- **Strike first with who can strike.** Monsters that can attack this phase are activated before
  those that only close in, the most damaging attack first.

A monster that can neither attack nor get closer to a hero stays where it is (it is not activated at
all). When no monster has anything left to do, the AI ends the phase.
"""

from __future__ import annotations

import heapq
from collections import deque
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb

from .actions import Action, EndActivation, EndPhase, MonsterAttack, MonsterMove
from .ai_dread import dread_choice
from .board import Board
from .combat import hero_defend_dice, with_pit
from .data import HERO_ORDER, ZARGON_SEAT
from .engine import apply, legal_actions
from .geometry import ORTHOGONAL, step
from .monsters import has_attacked, movement_left
from .options import monster_stats
from .quest import Square
from .state import HeroState, MonsterState, State

FAR = 1 << 30
SKULL = Fraction(1, 2)  # 3 of the combat die's 6 faces
WHITE_SHIELD = Fraction(1, 3)  # 2 of 6: a hero's block


@dataclass(frozen=True, order=True)
class Harm:
    """How much an attack is worth: the chance it defeats the hero, then the Body it costs."""

    defeat: Fraction
    damage: Fraction


@dataclass(frozen=True)
class Plan:
    """What one monster means to do now: `action` is its first step (or the attack itself)."""

    action: MonsterMove | MonsterAttack
    strikes: bool  # it attacks in this activation
    harm: Harm
    distance: int  # squares of movement before the attack (or to get within reach of one)

    def rank(self) -> tuple[bool, Harm, int]:
        """Bigger is better: striking now first, then the worse harm, then the shorter way."""
        return (self.strikes, self.harm, -self.distance)


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
        plan = _plan(board, legal, active)
        choice: Action = plan.action if plan is not None else EndActivation(active.pub)
        return choice if choice in legal else EndPhase()
    plans = [
        plan
        for m in sorted(state.monsters.values(), key=_pub_order)
        if m.pub is not None and m.alive and m.position is not None
        if (plan := _plan(board, legal, m)) is not None
    ]
    if not plans:
        return EndPhase()
    # max() keeps the first of equals: the lowest monster id wins a tie.
    return max(plans, key=Plan.rank).action


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


def attack_harm(board: Board, m: MonsterState, at: Square, hero: HeroState) -> Harm:
    """What an attack by `m` standing on `at` is worth against `hero` (pits counted)."""
    attack = with_pit(monster_stats(board.s, m).attack, board.in_pit(at))  # villains' own
    return _harm(attack, hero_defend_dice(board, hero), hero.body)


@cache
def _harm(attack_dice: int, defend_dice: int, body: int) -> Harm:
    defeat = damage = Fraction(0)
    for hits in range(attack_dice + 1):
        p_hits = comb(attack_dice, hits) * SKULL**attack_dice
        for blocks in range(defend_dice + 1):
            p_blocks = (
                comb(defend_dice, blocks)
                * WHITE_SHIELD**blocks
                * (1 - WHITE_SHIELD) ** (defend_dice - blocks)
            )
            lost = min(body, max(0, hits - blocks))
            damage += p_hits * p_blocks * lost
            if body and lost >= body:
                defeat += p_hits * p_blocks
    return Harm(defeat, damage)


def _pub_order(m: MonsterState) -> tuple[int, str]:
    digits = (m.pub or "")[1:]
    return (int(digits) if digits.isdigit() else FAR, m.pub or m.key)


def _hero_rank(hero: HeroState) -> int:
    return HERO_ORDER.index(hero.hero)


def _plan(board: Board, legal: list[Action], m: MonsterState) -> Plan | None:
    """The monster's best attack within its reach, else its best step toward a hero."""
    if m.position is None:
        return None
    attacks = {a.target for a in legal if isinstance(a, MonsterAttack) and a.monster == m.pub}
    moves = {a.to: a for a in legal if isinstance(a, MonsterMove) and a.monster == m.pub}
    if not attacks and not moves:
        return None
    strike = _best_strike(board, m, attacks, moves)
    if strike is not None:
        return strike
    return _approach(board, m, moves)


def _best_strike(
    board: Board, m: MonsterState, attacks: set[str], moves: dict[Square, MonsterMove]
) -> Plan | None:
    """The most harmful attack `m` can make this activation, and how it begins."""
    assert m.position is not None and m.pub is not None
    if has_attacked(board.s, m):
        return None
    reach = _reach(board, m.position, movement_left(board.s, m) if moves else 0)
    best: tuple[tuple[Harm, int, int], Plan] | None = None
    for sq, (cost, first) in sorted(reach.items()):
        for hero in _heroes_next_to(board, sq):
            if sq == m.position and hero.hero not in attacks:
                continue
            harm = attack_harm(board, m, sq, hero)
            if sq == m.position:
                action: MonsterMove | MonsterAttack = MonsterAttack(m.pub, hero.hero)
            elif first in moves:
                action = moves[first]
            else:  # the engine refuses that way in (should not happen): find another
                continue
            key = (harm, -cost, -_hero_rank(hero))
            if best is None or key > best[0]:  # of equals, the first square (sorted) stays
                best = (key, Plan(action, True, harm, cost))
    return None if best is None else best[1]


def _approach(board: Board, m: MonsterState, moves: dict[Square, MonsterMove]) -> Plan | None:
    """A step toward the heroes `m` can reach: the nearest, then the one it would hurt most."""
    assert m.position is not None
    if not moves:
        return None
    heroes = [h for h in board.heroes_at.values() if h.position is not None]
    for monsters_block in (True, False):  # if others block the way, queue up behind them
        best: tuple[tuple[int, Harm, int], Plan] | None = None
        for hero in sorted(heroes, key=_hero_rank):
            distance = _distances_to_strike(board, m.position, [hero], monsters_block)
            here = distance.get(m.position, FAR)
            if here >= FAR:
                continue
            closer = [a for to, a in sorted(moves.items()) if distance.get(to, FAR) < here]
            if not closer:
                continue
            step_ = min(closer, key=lambda a: distance.get(a.to, FAR))
            harm = attack_harm(board, m, m.position, hero)
            key = (-here, harm, -_hero_rank(hero))
            if best is None or key > best[0]:
                best = (key, Plan(step_, False, harm, here))
        if best is not None:
            return best[1]
    return None


def _heroes_next_to(board: Board, sq: Square) -> list[HeroState]:
    """The heroes a monster on `sq` could attack (orthogonally, through an open edge)."""
    out = []
    for d in ORTHOGONAL:
        hero = board.heroes_at.get(step(sq, d))
        if hero is not None and board.edge_open(sq, step(sq, d)):
            out.append(hero)
    return out


def _monster_steps(board: Board, sq: Square) -> list[tuple[Square, int]]:
    """Where a monster on `sq` may go next and at what cost: a step, or a leap over an open pit."""
    out = []
    for d in ORTHOGONAL:
        nb = step(sq, d)
        if not board.edge_open(sq, nb):
            continue
        if board.free(nb):
            out.append((nb, 1))
        beyond = step(nb, d)
        if (
            board.in_pit(nb)
            and not board.occupied(nb)
            and board.edge_open(nb, beyond)
            and board.free(beyond)
        ):
            out.append((beyond, 2))
    return out


def monster_reach(board: Board, start: Square, movement: int) -> dict[Square, tuple[int, Square]]:
    """Squares a monster on `start` reaches with `movement`, as the AI reckons its moves."""
    return _reach(board, start, movement)


def _reach(board: Board, start: Square, movement: int) -> dict[Square, tuple[int, Square]]:
    """Squares within `movement` of `start`: (cost, the first square on the cheapest way)."""
    best: dict[Square, tuple[int, Square]] = {start: (0, start)}
    queue: list[tuple[int, Square, Square]] = [(0, start, start)]
    while queue:
        cost, sq, first = heapq.heappop(queue)
        if best.get(sq, (FAR, sq)) < (cost, first):
            continue
        for nb, price in _monster_steps(board, sq):
            total = cost + price
            via = nb if sq == start else first
            if total <= movement and (total, via) < best.get(nb, (FAR, nb)):
                best[nb] = (total, via)
                heapq.heappush(queue, (total, nb, via))
    return best


def _distances_to_strike(
    board: Board, start: Square, heroes: list[HeroState], monsters_block: bool
) -> dict[Square, int]:
    """Steps from each square to a square from which a monster could attack one of `heroes`.

    Walkable: free squares and the monster's own, through open edges; with `monsters_block`
    false, squares of other monsters too (they may move out of the way).
    """

    def walkable(sq: Square) -> bool:
        if sq == start or board.free(sq):
            return True
        return (
            not monsters_block
            and board.standable(sq)
            and sq in board.monsters_at
            and sq not in board.heroes_at
        )

    distance: dict[Square, int] = {}
    queue: deque[Square] = deque()
    for hero in heroes:
        assert hero.position is not None
        for d in ORTHOGONAL:
            sq = step(hero.position, d)
            if sq not in distance and walkable(sq) and board.edge_open(sq, hero.position):
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
