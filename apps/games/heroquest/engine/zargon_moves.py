"""Every action Zargon may take now: each monster's moves, attacks and spells, his commands,
and ending the phase. Here, above both `monsters` and `dread`, so neither imports the other back."""

from __future__ import annotations

from . import actions as A
from .board import Board
from .dread import cast_candidates, command_candidates
from .monsters import activation_problem, attack_targets, monster_move_candidates


def zargon_candidates(b: Board) -> list[A.Action]:
    s = b.s
    out: list[A.Action] = []
    for m in s.monsters.values():
        if m.pub is None or not m.alive or activation_problem(s, m) is not None:
            continue
        out.extend(A.MonsterMove(m.pub, to) for to in monster_move_candidates(b, m))
        out.extend(A.MonsterAttack(m.pub, hero) for hero in attack_targets(b, m))
        out.extend(cast_candidates(b, m))
        if s.mturn.monster == m.key:
            out.append(A.EndActivation(m.pub))
    out.extend(command_candidates(b))
    out.append(A.EndPhase())
    return out
