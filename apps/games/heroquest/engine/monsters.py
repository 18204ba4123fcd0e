"""Zargon's monster phase (docs/rules.md 9)."""

from __future__ import annotations

from . import actions as A
from .board import Board
from .combat import monster_attacks_hero
from .context import Ctx, cap, hero_name, monster_name, square_text
from .events import make_event
from .geometry import ORTHOGONAL, is_orthogonal_neighbour, step
from .options import monster_stats
from .quest import Square
from .state import MonsterState, MonsterTurn, State
from .turns import end_monster_phase


def monster_of(s: State, pub: str) -> MonsterState | None:
    m = s.monster_by_pub(pub)
    return m if m is not None and m.position is not None else None


def activation_problem(s: State, m: MonsterState | None) -> str | None:
    """Can this monster act now (its ongoing activation, or a new one)?"""
    if m is None:
        return "There is no such monster."
    if s.mturn.monster == m.key:
        return None
    if m.activated:
        return f"{cap(monster_name(m, s))} has already been activated this phase."
    if m.asleep:
        return f"{cap(monster_name(m, s))} is asleep."
    if m.tempest:
        return f"{cap(monster_name(m, s))} is caught in a tempest and loses this turn."
    return None


def movement_left(s: State, m: MonsterState) -> int:
    return s.mturn.movement_left if s.mturn.monster == m.key else monster_stats(s, m).move


def has_attacked(s: State, m: MonsterState) -> bool:
    return s.mturn.monster == m.key and s.mturn.has_attacked


def monster_step_cost(b: Board, m: MonsterState, to: Square) -> int | str:
    """1 for a step, 2 for clearing an open pit to the square beyond, or why not."""
    pos = m.position
    assert pos is not None
    if is_orthogonal_neighbour(pos, to):
        if not b.edge_open(pos, to):
            return "A wall or a closed door is in the way."
        if not b.free(to):
            return "That square is blocked or taken."
        return 1
    dx, dy = to[0] - pos[0], to[1] - pos[1]
    if (abs(dx), abs(dy)) in ((2, 0), (0, 2)):
        mid = (pos[0] + dx // 2, pos[1] + dy // 2)
        if (
            b.in_pit(mid)
            and not b.occupied(mid)
            and b.edge_open(pos, mid)
            and b.edge_open(mid, to)
            and b.free(to)
        ):
            return 2
    return "Monsters move one square at a time, orthogonally."


def check_monster_move(b: Board, a: A.MonsterMove) -> str | None:
    s = b.s
    m = monster_of(s, a.monster)
    reason = activation_problem(s, m)
    if reason:
        return reason
    assert m is not None
    cost = monster_step_cost(b, m, a.to)
    if isinstance(cost, str):
        return cost
    if cost > movement_left(s, m):
        return f"{cap(monster_name(m, s))} has not enough movement left."
    return None


def monster_move_candidates(b: Board, m: MonsterState) -> list[Square]:
    pos = m.position
    assert pos is not None
    out = []
    for d in ORTHOGONAL:
        nb = step(pos, d)
        out.append(nb)
        if b.in_pit(nb):
            out.append(step(nb, d))
    return out


def begin_activation(ctx: Ctx, m: MonsterState) -> None:
    """Start this monster's activation, ending any other one (each monster acts once)."""
    s = ctx.s
    if s.mturn.monster == m.key:
        return
    m.activated = True
    s.mturn = MonsterTurn(monster=m.key, movement_left=monster_stats(s, m).move)


def do_monster_move(ctx: Ctx, a: A.MonsterMove) -> None:
    s = ctx.s
    m = monster_of(s, a.monster)
    assert m is not None
    cost = monster_step_cost(ctx.board(), m, a.to)
    assert isinstance(cost, int)
    begin_activation(ctx, m)
    s.mturn.movement_left -= cost
    s.mturn.has_moved = True
    m.position = a.to
    verb = "leaps over the pit to" if cost == 2 else "moves to"
    ctx.emit(
        make_event(
            "monster_move",
            f"{cap(monster_name(m, s))} {verb} {square_text(a.to)}.",
            monster=m.pub,
            to=[a.to[0], a.to[1]],
        )
    )


def attack_targets(b: Board, m: MonsterState) -> list[str]:
    pos = m.position
    assert pos is not None
    return [
        h.hero
        for sq, h in b.heroes_at.items()
        if is_orthogonal_neighbour(pos, sq)
        and b.edge_open(pos, sq)
        and m.only_attacks in (None, h.hero)  # a new wandering monster: its searcher only
    ]


def check_monster_attack(b: Board, a: A.MonsterAttack) -> str | None:
    s = b.s
    m = monster_of(s, a.monster)
    reason = activation_problem(s, m)
    if reason:
        return reason
    assert m is not None
    if has_attacked(s, m):
        return f"{cap(monster_name(m, s))} has already attacked."
    if a.target not in attack_targets(b, m):
        if m.only_attacks is not None and a.target != m.only_attacks:
            # docs/rules.md 6: the round it appears, a wandering monster attacks its searcher only
            return (
                f"{cap(monster_name(m, s))} has just appeared: this round it may attack only "
                f"{hero_name(m.only_attacks)}, who searched."
            )
        return "That hero is not next to the monster."
    return None


def do_monster_attack(ctx: Ctx, a: A.MonsterAttack) -> None:
    s = ctx.s
    m = monster_of(s, a.monster)
    assert m is not None
    begin_activation(ctx, m)
    s.mturn.has_attacked = True
    if s.mturn.has_moved:  # never move-attack-move
        s.mturn.movement_left = 0
    monster_attacks_hero(ctx, m, s.heroes[a.target])


def check_end_activation(b: Board, a: A.EndActivation) -> str | None:
    m = monster_of(b.s, a.monster)
    if m is None or b.s.mturn.monster != m.key:
        return "That monster is not being activated."
    return None


def do_end_activation(ctx: Ctx, a: A.EndActivation) -> None:
    ctx.s.mturn = MonsterTurn()


def check_end_phase(b: Board, a: A.EndPhase) -> str | None:
    return None


def do_end_phase(ctx: Ctx, a: A.EndPhase) -> None:
    end_monster_phase(ctx)
