"""The twelve spells (docs/rules.md 8)."""

from __future__ import annotations

from typing import Any

from . import actions as A
from .board import Board
from .combat import (
    body_lost,
    damage_monster,
    monster_loss_text,
    roll_against_monster,
    villain_events,
)
from .context import Ctx, cap, hero_name, main_action_used, mark_acted, monster_name
from .data import HEAL_SPELL_AMOUNT, SPELLS
from .events import make_event, red_dice
from .hero_turn import door_by_pub, open_door
from .options import monster_stats
from .state import HeroState, MonsterState

GENIE_DICE = 5
SPELL_TITLES = {name: name.replace("_", " ").title() for name in SPELLS}


def door_visible(b: Board, caster: HeroState, door_id: str) -> bool:
    """The caster can see a door when standing at it or seeing a square on either side."""
    door = b.geo.doors[door_id]
    pos = caster.position
    assert pos is not None
    return any(pos == sq or b.sees(pos, sq) for sq in (door.a, door.b))


def spell_targets(b: Board, caster: HeroState, spell: str) -> list[str]:
    """Every legal target of a spell, as action target strings."""
    pos = caster.position
    assert pos is not None
    if SPELLS[spell].helpful:
        return [h.hero for h in b.visible_heroes(pos)]
    targets = [m.pub for m in b.visible_monsters(pos) if m.pub]
    if spell == "genie":
        targets += [
            ds.pub
            for d, ds in b.s.doors.items()
            if ds.pub
            and not ds.open
            and b.geo.doors[d].locked_by is None  # a locked door holds against the genie
            and door_visible(b, caster, d)
        ]
    return targets


def check_cast(b: Board, a: A.CastSpell) -> str | None:
    s = b.s
    h = s.heroes[a.hero]
    reason = main_action_used(s, h)
    if reason:
        return reason
    if a.spell not in SPELLS:
        return "There is no such spell."
    if a.spell not in h.spells:
        return f"{cap(hero_name(h))} does not hold {SPELL_TITLES[a.spell]}."
    if a.target not in spell_targets(b, h, a.spell):
        return f"{SPELL_TITLES[a.spell]} cannot target that."
    return None


def cast_candidates(b: Board, h: HeroState) -> list[A.CastSpell]:
    return [
        A.CastSpell(h.hero, spell, target)
        for spell in h.spells
        for target in spell_targets(b, h, spell)
    ]


def do_cast(ctx: Ctx, a: A.CastSpell) -> None:
    s = ctx.s
    h = s.heroes[a.hero]
    mark_acted(s)
    h.spells.remove(a.spell)
    title = SPELL_TITLES[a.spell]
    caster = cap(hero_name(h))
    if SPELLS[a.spell].helpful:
        cast_helpful(ctx, h, title, a.spell, s.heroes[a.target])
        return
    m = s.monster_by_pub(a.target)
    if m is None:  # Genie opening a door
        door_id = door_by_pub(s, a.target)
        assert door_id is not None
        ctx.emit(
            make_event(
                "spell",
                f"{caster} casts {title}: the genie flings a door open.",
                hero=h.hero,
                spell=a.spell,
                target=a.target,
            )
        )
        open_door(ctx, door_id, "the genie")
        return
    cast_harmful(ctx, h, title, a.spell, m)


def cast_helpful(ctx: Ctx, h: HeroState, title: str, spell: str, target: HeroState) -> None:
    caster = cap(hero_name(h))
    name = "themself" if target is h else hero_name(target)
    if spell in ("water_of_healing", "heal_body"):
        before = target.body
        target.body = min(target.body_max, target.body + HEAL_SPELL_AMOUNT)
        text = f"{caster} casts {title} on {name}, who regains {target.body - before} Body."
    else:
        if spell not in target.effects:
            target.effects.append(spell)
        text = f"{caster} casts {title} on {name}."
    ctx.emit(make_event("spell", text, hero=h.hero, spell=spell, target=target.hero))


def cast_harmful(ctx: Ctx, h: HeroState, title: str, spell: str, m: MonsterState) -> None:
    caster = cap(hero_name(h))
    name = monster_name(m, ctx.s)
    base: dict[str, Any] = {"hero": h.hero, "spell": spell, "target": m.pub}
    if spell == "genie":
        roll_against_monster(ctx, f"{caster}'s genie", h.hero, GENIE_DICE, m)
        return
    if spell == "tempest":
        m.tempest = True
        ctx.emit(
            make_event(
                "spell",
                f"{caster} casts {title}: a whirlwind engulfs {name}, "
                "which will lose its next turn.",
                **base,
            )
        )
        return
    if spell == "sleep":
        cast_sleep(ctx, caster, title, m, base)
        return
    # ball_of_flame: 2 damage, each red 5-6 cancels one; fire_of_wrath: 1 damage unless 5-6
    damage, dice_n = (2, 2) if spell == "ball_of_flame" else (1, 1)
    rolls = ctx.dice.reds(dice_n)
    saved = sum(1 for r in rolls if r >= 5)
    hits = max(0, damage - saved)
    before = m.body
    defeated = damage_monster(ctx, m, hits)
    lost = body_lost(before, hits)
    ctx.emit(
        make_event(
            "spell",
            f"{caster} casts {title} at {name}: {name} rolls {', '.join(map(str, rolls))}; "
            f"{monster_loss_text(m, lost, defeated, ctx.s)}.",
            dice=[red_dice(rolls, m.pub or "monster")],
            hits=hits,
            lost=lost,
            defeated=defeated,
            **base,
        )
    )
    ctx.emit_all(villain_events(ctx, m))


def cast_sleep(ctx: Ctx, caster: str, title: str, m: MonsterState, base: dict[str, Any]) -> None:
    name = monster_name(m, ctx.s)
    stats = monster_stats(ctx.s, m)
    if stats.undead:
        ctx.emit(
            make_event(
                "spell",
                f"{caster} casts {title} at {name}, but the undead never sleep.",
                resisted=True,
                **base,
            )
        )
        return
    rolls = ctx.dice.reds(stats.mind)
    resisted = 6 in rolls
    if not resisted:
        m.asleep = True
    outcome = "resists the spell" if resisted else "falls asleep"
    ctx.emit(
        make_event(
            "spell",
            f"{caster} casts {title} at {name}: {name} rolls {', '.join(map(str, rolls))} and "
            f"{outcome}.",
            dice=[red_dice(rolls, m.pub or "monster")],
            resisted=resisted,
            **base,
        )
    )
