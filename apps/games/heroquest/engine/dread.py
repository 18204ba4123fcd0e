"""Zargon's Dread spells (docs/rules.md 8b): cast by a monster a quest gives them, as that
monster's action during its activation, each spell once per quest.

Which monster holds which spells is Zargon's secret: only Zargon's `legal_actions` and view list
them; the heroes learn of a spell when it is cast (the event names it). Targets:

- a hero the caster sees: ball_of_flame, fear, sleep, tempest, command;
- the caster itself (its own public id): summon_undead, escape;
- a direction "N", "E", "S" or "W" with a hero on the line before the first wall: lightning_bolt.

Command lets Zargon move the commanded hero up to 4 squares this phase (`command_move`, one
orthogonal step at a time, by the hero's own movement rules; a trap the hero is moved onto
springs and ends the command; a falling block puts the hero back where they came from).
"""

from __future__ import annotations

from typing import Any

from . import actions as A
from .board import Board
from .combat import body_lost, damage_hero, damage_monster, villain_events
from .context import Ctx, cap, hero_name, monster_name, square_text
from .data import DREAD_SPELLS, HERO_ORDER
from .events import Event, combat_dice, make_event, red_dice
from .geometry import DIAGONAL, DIRECTIONS, ORTHOGONAL, is_orthogonal_neighbour, step
from .monsters import activation_problem, begin_activation, has_attacked, monster_of
from .options import stats_for_kind
from .quest import Square
from .reveal import show_monster
from .state import HeroState, MonsterState
from .traps import enter_square

COMMAND_SQUARES = 4
SUMMONED = ("skeleton", "zombie", "skeleton", "zombie")
SUMMON_COUNT = 4
HERO_SPELLS = ("ball_of_flame", "fear", "sleep", "tempest", "command")
SELF_SPELLS = ("summon_undead", "escape")
LOSE_TURN = {"sleep": "dread_sleep", "tempest": "dread_tempest"}
TITLES = {name: name.replace("_", " ").title() for name in DREAD_SPELLS}


# --- which casts are possible ------------------------------------------------------------------
def cast_targets(b: Board, m: MonsterState, spell: str) -> list[str]:
    """Every target of a Dread spell `m` could cast now (targets as in the action)."""
    pos = m.position
    if pos is None or m.pub is None:
        return []
    if spell in HERO_SPELLS:
        return [h.hero for h in b.visible_heroes(pos) if h.position != pos]
    if spell == "summon_undead":
        return [m.pub] if summon_squares(b, pos) else []
    if spell == "escape":
        dest = escape_square(b, m)
        return [m.pub] if dest is not None and b.free(dest) else []
    if spell == "lightning_bolt":
        return [
            side
            for side, d in DIRECTIONS.items()
            if any(sq in b.heroes_at for sq in bolt_squares(b, pos, d))
        ]
    return []


def cast_candidates(b: Board, m: MonsterState) -> list[A.MonsterCast]:
    assert m.pub is not None
    return [
        A.MonsterCast(m.pub, spell, target)
        for spell in m.dread_spells
        for target in cast_targets(b, m, spell)
    ]


def check_monster_cast(b: Board, a: A.MonsterCast) -> str | None:
    s = b.s
    m = monster_of(s, a.monster)
    reason = activation_problem(s, m)
    if reason:
        return reason
    assert m is not None
    if a.spell not in DREAD_SPELLS or a.spell not in m.dread_spells:
        return f"{cap(monster_name(m, b.s))} cannot cast that."
    if has_attacked(s, m):
        return f"{cap(monster_name(m, b.s))} has already used its action."
    if a.target not in cast_targets(b, m, a.spell):
        return f"{TITLES[a.spell]} cannot target that."
    return None


def summon_squares(b: Board, pos: Square) -> list[Square]:
    """Free squares next to the caster (sides first, then corners) that it can see."""
    out: list[Square] = []
    for d in (*ORTHOGONAL, *DIAGONAL):
        sq = step(pos, d)
        if b.free(sq) and b.revealed_square(sq) and b.sees(pos, sq):
            out.append(sq)
    return out[:SUMMON_COUNT]


def escape_square(b: Board, m: MonsterState) -> Square | None:
    quest_def = b.s.quest.monster_defs.get(m.key)
    return quest_def.escape_to if quest_def is not None else None


def bolt_squares(b: Board, pos: Square, d: tuple[int, int]) -> list[Square]:
    """The squares a lightning bolt crosses: straight on until a wall, a closed door, rock or a
    blocked square stops it (figures and furniture do not)."""
    out: list[Square] = []
    here = pos
    while True:
        nxt = step(here, d)
        if nxt not in b.geo.playable or not b.edge_open(here, nxt) or nxt in b.blocked:
            return out
        out.append(nxt)
        here = nxt


# --- casting -----------------------------------------------------------------------------------
def do_monster_cast(ctx: Ctx, a: A.MonsterCast) -> None:
    s = ctx.s
    m = monster_of(s, a.monster)
    assert m is not None
    begin_activation(ctx, m)
    s.mturn.has_attacked = True
    if s.mturn.has_moved:  # the cast is the monster's action: never move-act-move
        s.mturn.movement_left = 0
    m.dread_spells.remove(a.spell)
    caster = cap(monster_name(m, ctx.s))
    title = TITLES[a.spell]
    if a.spell in HERO_SPELLS:
        cast_at_hero(ctx, m, a.spell, s.heroes[a.target])
    elif a.spell == "summon_undead":
        summon_undead(ctx, m, caster, title)
    elif a.spell == "escape":
        escape(ctx, m, caster, title)
    else:
        lightning_bolt(ctx, m, DIRECTIONS[a.target], caster, title)


def _spell_event(m: MonsterState, spell: str, text: str, **extra: Any) -> Event:
    return make_event("dread_spell", text, monster=m.pub, spell=spell, **extra)


def _resists(ctx: Ctx, h: HeroState) -> tuple[bool, list[int]]:
    """The hero rolls one red die per Mind point; a 6 resists."""
    rolls = ctx.dice.reds(max(0, h.mind))
    return 6 in rolls, rolls


def cast_at_hero(ctx: Ctx, m: MonsterState, spell: str, h: HeroState) -> None:
    caster, title, name = cap(monster_name(m, ctx.s)), TITLES[spell], hero_name(h)
    head = f"{caster} casts the Dread spell {title} at {name}"
    if spell == "ball_of_flame":
        rolls = ctx.dice.reds(2)
        hits = max(0, 2 - sum(1 for r in rolls if r >= 5))
        lost = body_lost(h.body, hits)
        follow = damage_hero(ctx, h, hits)
        ctx.emit(
            _spell_event(
                m,
                spell,
                f"{head}: {name} rolls {', '.join(map(str, rolls))} and loses {lost} Body.",
                target=h.hero,
                dice=[red_dice(rolls, h.hero)],
                hits=hits,
                lost=lost,
            )
        )
        ctx.emit_all(follow)
        return
    if spell == "tempest":  # no roll: the hero loses its next turn
        add_effect(h, LOSE_TURN["tempest"])
        ctx.emit(
            _spell_event(m, spell, f"{head}: {name} will lose their next turn.", target=h.hero)
        )
        return
    resisted, rolls = _resists(ctx, h)
    outcome = {
        "fear": "will attack with 1 die until the end of their next turn",
        "sleep": "falls asleep and will lose their next turn",
        "command": f"is in Zargon's power: Zargon moves them up to {COMMAND_SQUARES} squares",
    }[spell]
    text = f"{head}: {name} rolls {', '.join(map(str, rolls)) or 'no dice'}"
    text += " and resists." if resisted else f" and {outcome}."
    if not resisted:
        if spell == "fear":
            add_effect(h, "fear")
        elif spell == "sleep":
            add_effect(h, LOSE_TURN["sleep"])
        else:
            ctx.s.commands[h.hero] = COMMAND_SQUARES
    ctx.emit(
        _spell_event(
            m,
            spell,
            text,
            target=h.hero,
            dice=[red_dice(rolls, h.hero)],
            resisted=resisted,
        )
    )


def add_effect(h: HeroState, effect: str) -> None:
    if effect not in h.effects:
        h.effects.append(effect)


def summon_undead(ctx: Ctx, m: MonsterState, caster: str, title: str) -> None:
    s = ctx.s
    assert m.position is not None
    names = []
    for kind, sq in zip(SUMMONED, summon_squares(ctx.board(), m.position), strict=False):
        stats = stats_for_kind(s, kind)
        key = f"summoned-{s.next_number('summoned')}"
        new = MonsterState(key=key, kind=kind, position=sq, body=stats.body, body_max=stats.body)
        new.activated = True  # they act from Zargon's next phase
        s.monsters[key] = new
        show_monster(s, new)
        names.append(f"{monster_name(new, ctx.s)} at {square_text(sq)}")
    ctx.emit(
        _spell_event(
            m,
            "summon_undead",
            f"{caster} casts the Dread spell {title}: {', '.join(names)} rise from the dust.",
        )
    )


def escape(ctx: Ctx, m: MonsterState, caster: str, title: str) -> None:
    """The caster vanishes and reappears at its escape square; if the heroes have not seen that
    square it is off their board again, until they find it (a new public id then)."""
    s = ctx.s
    dest = escape_square(ctx.board(), m)
    assert dest is not None
    ctx.emit(
        _spell_event(
            m, "escape", f"{caster} casts the Dread spell {title} and vanishes in a gout of smoke!"
        )
    )
    m.position = dest
    s.mturn.monster = None
    m.activated = True
    if not ctx.board().revealed_square(dest):
        m.pub = None
        return
    ctx.emit(
        make_event(
            "monster_move",
            f"{caster} reappears at {square_text(dest)}.",
            monster=m.pub,
            to=[dest[0], dest[1]],
        )
    )


def lightning_bolt(ctx: Ctx, m: MonsterState, d: tuple[int, int], caster: str, title: str) -> None:
    assert m.position is not None
    board = ctx.board()
    struck = [sq for sq in bolt_squares(board, m.position, d) if board.occupied(sq)]
    ctx.emit(
        _spell_event(
            m, "lightning_bolt", f"{caster} casts the Dread spell {title}: lightning crackles out!"
        )
    )
    for sq in struck:
        hero = board.heroes_at.get(sq)
        if hero is not None:
            face = ctx.dice.combat()
            hits = 1 if face == "white_shield" else 2
            lost = body_lost(hero.body, hits)
            follow = damage_hero(ctx, hero, hits)
            ctx.emit(
                make_event(
                    "dread_spell_hit",
                    f"The bolt strikes {hero_name(hero)}: rolls a {face.replace('_', ' ')}; "
                    f"{lost} Body lost.",
                    dice=[combat_dice([face], hero.hero)],
                    target=hero.hero,
                    hits=hits,
                    lost=lost,
                )
            )
            ctx.emit_all(follow)
            continue
        other = board.monsters_at[sq]
        face = ctx.dice.combat()
        hits = 1 if face == "black_shield" else 2
        before = other.body
        # A monster the heroes have not seen (no public id: on a square no hero has seen) is
        # struck in Zargon's log only: the heroes' log must not learn that it, or anything, is
        # there (docs/rules.md 13).
        seen = other.pub is not None
        defeated = damage_monster(ctx, other, hits)
        lost = body_lost(before, hits)
        ctx.emit(
            make_event(
                "dread_spell_hit",
                f"The bolt strikes {monster_name(other, ctx.s)}: rolls a {face.replace('_', ' ')}; "
                f"{lost} Body lost{' and it is defeated' if defeated else ''}.",
                audience="all" if seen else "zargon",
                dice=[combat_dice([face], other.pub or "monster")],
                target=other.pub,
                hits=hits,
                lost=lost,
            )
        )
        ctx.emit_all(villain_events(ctx, other))


# --- Command: Zargon moves the hero ------------------------------------------------------------
def command_candidates(b: Board) -> list[A.CommandMove]:
    out: list[A.CommandMove] = []
    for hero in HERO_ORDER:
        if b.s.commands.get(hero, 0) <= 0:
            continue
        h = b.s.heroes[hero]
        if h.playing and h.position is not None:
            out += [A.CommandMove(hero, step(h.position, d)) for d in ORTHOGONAL]
    return out


def check_command_move(b: Board, a: A.CommandMove) -> str | None:
    h = b.s.heroes.get(a.target)
    if h is None or not h.playing or b.s.commands.get(a.target, 0) <= 0:
        return "That hero is not under Zargon's command."
    pos = h.position
    assert pos is not None
    if not is_orthogonal_neighbour(pos, a.to) or not b.geo.in_grid(a.to):
        return "A commanded hero moves one square at a time, orthogonally."
    if not b.edge_open(pos, a.to):
        return "A wall or a closed door is in the way."
    if not b.free(a.to):
        return "That square is blocked or taken."
    return None


def do_command_move(ctx: Ctx, a: A.CommandMove) -> None:
    s = ctx.s
    h = s.heroes[a.target]
    origin = h.position
    assert origin is not None
    s.commands[a.target] -= 1
    h.position = a.to
    ctx.emit(
        make_event(
            "command_move",
            f"Zargon moves {hero_name(h)} to {square_text(a.to)}.",
            hero=h.hero,
            to=[a.to[0], a.to[1]],
        )
    )
    before = s.seq
    enter_square(ctx, h, a.to, origin)
    if s.seq != before:  # a trap: the command ends there
        s.commands[a.target] = 0
    if h.playing and h.position in s.fallen_blocks:  # Zargon's move: straight back off the block
        h.position = origin
        s.turn.block_from = None
