"""The monster AI's Dread spells (docs/rules.md 8b): which spell a caster uses, and where Zargon
walks a hero under Command. Kept apart from the AI's movement and attack judgement (`ai.py`),
which asks `dread_choice` first.

Pure and deterministic. A caster spends its spells early, as a villain should:

- **Escape** when it is down to its last Body with a hero next to it;
- **Ball of Flame** at the hero with the least Body (it may finish them);
- **Lightning Bolt** along the line that strikes the most heroes and no more monsters than heroes;
- **Summon Undead** when two or more heroes are in sight;
- **Sleep**, **Tempest**, **Fear** and **Command** at the hero who hits hardest.

A hero under Command is walked onto a trap Zargon knows of if one is a step away, else a step
toward the nearest monster, else left where they stand.
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import Action, CommandMove, MonsterCast
from .board import Board
from .combat import hero_attack_dice
from .data import HERO_ORDER
from .dread import bolt_squares
from .geometry import DIRECTIONS, is_orthogonal_neighbour

HINDER = {"sleep": 24, "tempest": 26, "fear": 20, "command": 18}


def dread_choice(board: Board, legal: Sequence[Action]) -> Action | None:
    """A Dread spell worth casting now, or a Command step; None when there is none."""
    s = board.s

    def may_act(a: MonsterCast) -> bool:  # while a monster is activated, only that one casts
        m = s.monster_by_pub(a.monster)
        return m is not None and s.mturn.monster in (None, m.key)

    casts = [a for a in legal if isinstance(a, MonsterCast) and may_act(a)]
    scored = [(score, a) for a in casts if (score := _cast_score(board, a)) > 0]
    if scored:
        return max(scored, key=lambda sa: (sa[0], -casts.index(sa[1])))[1]
    steps = [a for a in legal if isinstance(a, CommandMove)]
    return _command_step(board, steps)


def _cast_score(board: Board, a: MonsterCast) -> int:
    s = board.s
    m = s.monster_by_pub(a.monster)
    if m is None or m.position is None:
        return 0
    if a.spell == "escape":
        beset = any(is_orthogonal_neighbour(m.position, sq) for sq in board.heroes_at)
        return 100 if m.body <= 1 and beset else 0
    if a.spell == "ball_of_flame":
        return 50 + max(0, 10 - s.heroes[a.target].body)
    if a.spell == "lightning_bolt":
        line = bolt_squares(board, m.position, DIRECTIONS[a.target])
        heroes = sum(1 for sq in line if sq in board.heroes_at)
        monsters = sum(1 for sq in line if sq in board.monsters_at)
        return 30 * heroes - 20 * monsters if heroes >= monsters else 0
    if a.spell == "summon_undead":
        return 40 if len(board.visible_heroes(m.position)) >= 2 else 0
    if a.spell in HINDER:
        hero = s.heroes[a.target]
        strength = hero_attack_dice(board, hero) if hero.playing else 0
        return HINDER[a.spell] + strength - HERO_ORDER.index(hero.hero)
    return 0


def _command_step(board: Board, steps: list[CommandMove]) -> CommandMove | None:
    if not steps:
        return None
    geo = board.geo
    trapped = [
        a
        for a in steps
        if (trap := geo.trap_at.get(a.to)) is not None and board.s.traps[trap].state == "armed"
    ]
    if trapped:
        return trapped[0]
    monsters = [sq for sq, m in board.monsters_at.items() if m.pub is not None]
    if not monsters:
        return None

    def nearest(sq: tuple[int, int]) -> int:
        return min(abs(sq[0] - x) + abs(sq[1] - y) for x, y in monsters)

    best = min(steps, key=lambda a: (nearest(a.to), a.to))
    here = board.s.heroes[best.target].position
    return best if here is not None and nearest(best.to) < nearest(here) else None
