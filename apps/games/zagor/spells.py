"""Spells (docs/zagor/rules.md section 9): when each may be cast, its targets and its effect."""

from __future__ import annotations

from .board import board
from .combat import retreat, win_fight, wound_duel_foe, wound_monster
from .context import Ctx
from .data import HIRELINGS, ITEMS, SPELLS
from .heroes import (
    blow_away,
    discard_all_spells,
    draw_card,
    heal,
    hurt,
    keep_chests,
    pick_chest,
    take_gold,
)
from .moves import free_corridors, in_play, within
from .state import Hero, Hireling, State
from .voice import SUMMONED

Target = str | None
RUSTABLE = ("Axe", "Helmet", "Shield")


def moment(s: State) -> str:
    if s.fight is not None:
        return "fight"
    if s.duel is not None:
        return "duel" if s.duel.defender is not None else "zagor"
    return "turn"


def may_target(s: State, caster: Hero, target: Hero) -> bool:
    return target is not caster and not target.in_crypt and not target.invisible


def _hero_condition(s: State, caster: Hero, spell: str, t: Hero) -> bool:
    if spell == "Charisma":
        return t.hireling is not None and caster.hireling is None
    if spell == "Long Fingers":
        return any(i not in caster.items for i in t.items)
    if spell == "Rust":
        return any(i in t.items for i in RUSTABLE)
    if spell == "Steal":
        return bool(t.chests) and len(caster.chests) < caster.chest_limit
    if spell in ("Pickpocket", "Fools Gold"):
        return t.gold > 0
    if spell == "Drain Magic":
        return bool(t.spells)
    if spell == "Magnetism":
        return t.level == caster.level and _magnet_spot(s, caster) is not None
    if spell == "Summon Monster":
        return not t.orders
    return True


def _magnet_spot(s: State, caster: Hero) -> str | None:
    for n in board().links[caster.space]:
        if board().spaces[n].kind == "corridor" and in_play(s, n) and s.hero_at(n) is None:
            return n
    return None


def _none_condition(s: State, hero: Hero, spell: str) -> bool:
    fight = s.fight
    if spell in ("Healing", "Life"):
        return hero.stamina < hero.stamina_max
    if spell in ("Flying Carpet", "Jump"):
        return not s.turn.fought
    if spell == "Speed":
        return not s.turn.moved and not s.turn.fought and bool(s.turn.moves)
    if spell == "Summon Creature":
        return hero.hireling is None
    if spell == "Tunnel":
        gate = {1: "steps", 2: "portal"}.get(hero.level)
        return gate is not None and in_play(s, gate) and s.hero_at(gate) is None
    if spell == "Wings":
        return hero.space != hero.start and s.hero_at(hero.start) is None
    if spell == "Vision":
        return any(
            sp in s.tiles and not s.tiles[sp].revealed and sp not in hero.known
            for sp in within(s, hero.space, 2)
        )
    if spell == "Charm Monster":
        return fight is not None and fight.kind == "room"
    if spell in ("Death", "Transformation"):
        return fight is not None and fight.kind != "dragon"
    if spell == "Time Warp":
        return bool(s.deck or s.discards)
    return True


def castable(s: State, hero: Hero) -> list[tuple[str, Target]]:
    """Every (spell, target) `hero` may cast now."""
    if hero.in_crypt or not hero.spells:
        return []
    now = moment(s)
    out: list[tuple[str, Target]] = []
    for spell in dict.fromkeys(hero.spells):
        sd = SPELLS[spell]
        if now not in sd.when:
            continue
        if s.turn.spells_left <= 0 and spell != "Time Warp":
            continue
        if sd.target == "hero":
            for other in (s.heroes[h] for h in s.order):
                if may_target(s, hero, other) and _hero_condition(s, hero, spell, other):
                    out.append((spell, other.hero))
        elif sd.target == "space":
            out.extend((spell, sp) for sp in free_corridors(s, hero.level))
        elif sd.target == "item":
            out.extend((spell, i) for i in ITEMS if i not in hero.items)
        elif _none_condition(s, hero, spell):
            out.append((spell, None))
    return out


def cast(ctx: Ctx, spell: str, target: Target) -> None:
    s = ctx.s
    hero = s.active
    hero.spells.remove(spell)
    s.discards.append(spell)
    if spell != "Time Warp":
        s.turn.spells_left -= 1
    s.turn.acted = True
    if SPELLS[spell].target == "hero" and target is not None:
        victim = s.heroes[target]
        ctx.emit(
            "cast",
            f"{hero.short} casts {spell} on {victim.short}.",
            hero=hero.hero,
            spell=spell,
            target=target,
        )
        if "Magic Screen" in victim.spells:
            victim.spells.remove("Magic Screen")
            s.discards.append("Magic Screen")
            ctx.emit("cast", f"{victim.short}'s Magic Screen turns the spell aside.")
            return
        _on_hero(ctx, hero, victim, spell)
        return
    ctx.emit("cast", f"{hero.short} casts {spell}.", hero=hero.hero, spell=spell, target=target)
    _on_self(ctx, hero, spell, target)


def _on_hero(ctx: Ctx, hero: Hero, victim: Hero, spell: str) -> None:
    s = ctx.s
    if spell == "Charisma" and victim.hireling is not None:
        hero.hireling, victim.hireling = victim.hireling, None
        ctx.emit("hireling", f"{hero.hireling.name} now follows {hero.short}.")
    elif spell == "Drain Magic":
        count = discard_all_spells(ctx, victim)
        ctx.emit("cast", f"{victim.short} loses {count} spell card(s).")
    elif spell == "Fools Gold":
        lost = take_gold(victim, victim.gold // 2)
        ctx.emit("gold", f"{lost} of {victim.short}'s gold turns to dust.")
    elif spell == "Freeze":
        victim.no_move_next = True
    elif spell == "Ghost":
        lost = hurt(victim, 2, floor=1)
        ctx.emit("wound", f"{victim.short} loses {lost} Stamina.")
    elif spell == "Hurricane":
        blow_away(ctx, victim, "The storm drops.")
    elif spell == "Long Fingers":
        items = [i for i in victim.items if i not in hero.items]
        item = items[ctx.dice.below(len(items), "pick")]
        victim.items.remove(item)
        hero.items.append(item)
        hero.items.sort(key=ITEMS.index)
        ctx.emit("item", f"{hero.short} takes {victim.short}'s {item}.")
    elif spell == "Magnetism":
        spot = _magnet_spot(s, hero)
        if spot is not None:
            victim.space = spot
            ctx.emit("moved", f"{victim.short} is pulled next to {hero.short}.", to=spot)
    elif spell == "Mind Blank":
        victim.no_spell_next = True
    elif spell == "Pickpocket":
        got = take_gold(victim, 5)
        hero.gold += got
        ctx.emit("gold", f"{hero.short} lifts {got} gold from {victim.short}.")
    elif spell == "Rust":
        items = [i for i in RUSTABLE if i in victim.items]
        item = items[ctx.dice.below(len(items), "pick")]
        victim.items.remove(item)
        ctx.emit("item", f"{victim.short}'s {item} rusts away.")
    elif spell == "Sleep":
        victim.miss_turns += 1
        ctx.emit("cast", f"{victim.short} will sleep through his next turn.")
    elif spell == "Steal":
        card = pick_chest(ctx, victim, spare_orb=False)
        if card is not None:
            victim.chests.remove(card)
            ctx.emit("spoils", f"{hero.short} steals a chest card from {victim.short}.")
            keep_chests(ctx, hero, [card], victim.short)
    elif spell == "Summon Monster":
        victim.orders.append(SUMMONED)
        ctx.emit("cast", f"A monster will attack {victim.short} at his next turn.")
    elif spell == "Switch":
        hero.space, victim.space = victim.space, hero.space
        ctx.emit("moved", f"{hero.short} and {victim.short} change places.")


def _on_self(ctx: Ctx, hero: Hero, spell: str, target: Target) -> None:
    s = ctx.s
    if spell == "Alchemy":
        hero.gold += 5
    elif spell in ("Arrow", "Fireball"):
        amount = 1 if spell == "Arrow" else 2
        if s.fight is not None:
            wound_monster(ctx, amount)
        elif s.duel is not None:
            wound_duel_foe(ctx, amount)
    elif spell == "Charm Monster" and s.fight is not None:
        fight = s.fight
        hero.hireling = Hireling(fight.foe, fight.strength, fight.stamina)
        win_fight(ctx)
        ctx.emit("hireling", f"The {fight.foe} follows {hero.short} now.")
    elif spell == "Death":
        win_fight(ctx)
    elif spell == "Destiny":
        if s.fight is not None:
            s.fight.sure_hit = True
        elif s.duel is not None:
            s.duel.sure_hit = True
    elif spell == "Escape":
        retreat(ctx, with_loss=False)
    elif spell == "Evolution":
        hero.strength += 1
    elif spell == "Flying Carpet":
        s.turn.moves.append(4)
    elif spell == "Jump":
        s.turn.moves.append(2)
    elif spell == "Speed":
        s.turn.moves[0] = 4
    elif spell == "Healing":
        heal(hero, hero.stamina_max)
    elif spell == "Life":
        heal(hero, 2)
    elif spell == "Invisibility":
        hero.invisible = True
    elif spell == "Magic Charge":
        if s.fight is not None:
            s.fight.bonus += 2
        elif s.duel is not None:
            s.duel.bonus += 2
    elif spell == "Merchant":
        s.turn.merchant = True
    elif spell == "Summon Creature":
        strength, stamina = HIRELINGS["Familiar"]
        hero.hireling = Hireling("Familiar", strength, stamina)
    elif spell == "Teleport" and target is not None:
        hero.space = target
    elif spell == "Time Warp":
        card = draw_card(ctx)
        if card is not None:
            hero.spells.append(card)
            ctx.private(
                hero,
                "spell_drawn",
                f"{hero.short} draws {card}.",
                f"{hero.short} draws a spell card.",
                spells=[card],
            )
    elif spell == "Transformation" and s.fight is not None:
        s.fight.strength = max(1, s.fight.strength - 2)
    elif spell == "Tunnel":
        hero.space = "steps" if hero.level == 1 else "portal"
    elif spell == "Vision":
        seen = {
            sp: s.tiles[sp].face
            for sp in within(s, hero.space, 2)
            if sp in s.tiles and not s.tiles[sp].revealed
        }
        hero.known.update(seen)
        listing = ", ".join(seen.values())
        ctx.private(
            hero,
            "vision",
            f"{hero.short} sees the tiles around him: {listing}.",
            f"{hero.short} peers into the dark.",
            seen=seen,
        )
    elif spell == "Weapons" and target is not None:
        hero.items.append(target)
        hero.items.sort(key=ITEMS.index)
    elif spell == "Wings":
        hero.space = hero.start
