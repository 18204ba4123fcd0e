"""Revealing and applying corridor tiles (docs/zagor/rules.md section 6)."""

from __future__ import annotations

from .combat import start_corridor_fight
from .context import Ctx
from .data import HIRELINGS, ITEMS, TILES
from .heroes import blow_away, draw_spells, heal, hurt, take_gold
from .state import Hero, Hireling
from .voice import random_event


def reveal_and_apply(ctx: Ctx, hero: Hero) -> None:
    s = ctx.s
    tile = s.tiles.get(hero.space)
    if tile is None:
        return
    first = not tile.revealed
    tile.revealed = True
    ctx.emit(
        "tile",
        f"{hero.short} {'turns up' if first else 'meets'} {tile.face}: {TILES[tile.face].text}",
        hero=hero.hero,
        space=hero.space,
        face=tile.face,
    )
    used_up = _apply(ctx, hero, tile.face)
    if used_up:
        s.tiles.pop(hero.space, None)


def _take_item(ctx: Ctx, hero: Hero, item: str) -> bool:
    if item in hero.items:
        ctx.emit("tile", f"{hero.short} has one already and leaves it.")
        return False
    hero.items.append(item)
    hero.items.sort(key=ITEMS.index)
    ctx.emit("item", f"{hero.short} takes the {item}.", hero=hero.hero, item=item)
    return True


def _join(ctx: Ctx, hero: Hero, name: str) -> bool:
    if hero.hireling is not None:
        ctx.emit("tile", f"{hero.short} already has a hireling; {name} stays here.")
        return False
    strength, stamina = HIRELINGS[name]
    hero.hireling = Hireling(name, strength, stamina)
    ctx.emit("hireling", f"{name} joins {hero.short} (Strength {strength}, Stamina {stamina}).")
    return True


def _hurt(ctx: Ctx, hero: Hero, amount: int) -> None:
    lost = hurt(hero, amount, floor=1)
    ctx.emit("wound", f"{hero.short} loses {lost} Stamina.", hero=hero.hero)


def _heal(ctx: Ctx, hero: Hero, amount: int) -> None:
    gained = heal(hero, amount)
    ctx.emit("heal", f"{hero.short} regains {gained} Stamina.", hero=hero.hero)


def _gold(ctx: Ctx, hero: Hero, amount: int, dice: list[dict[str, object]] | None = None) -> None:
    hero.gold += amount
    ctx.emit("gold", f"{hero.short} gains {amount} gold.", hero=hero.hero, dice=dice)


def _apply(ctx: Ctx, hero: Hero, face: str) -> bool:
    """Apply a tile's effect; True when the tile is used up (rules 6.1)."""
    if face in ITEMS:
        return _take_item(ctx, hero, face)
    if face in ("Friendly Dwarf", "Wood Elf"):
        return _join(ctx, hero, face)
    if face == "Barrel":
        roll, die = ctx.roll("the unit")
        if roll <= 3:
            ctx.emit("tile", f"The unit rolls {roll}: the barrel is empty.", dice=[die])
        elif roll <= 7 or "Healing Potion" in hero.items:
            _gold(ctx, hero, 3, [die])
        else:
            ctx.emit("tile", f"The unit rolls {roll}: a Healing Potion inside!", dice=[die])
            _take_item(ctx, hero, "Healing Potion")
        return True
    if face == "Genie":
        _heal(ctx, hero, hero.stamina_max)
        _gold(ctx, hero, 3)
        return True
    if face == "Leather Pouch":
        _gold(ctx, hero, 3)
        return True
    if face == "Pool of Gold":
        roll, die = ctx.roll("the unit")
        _gold(ctx, hero, roll, [die])
        return True
    if face in ("Giant Spider", "Bone Guardian"):
        start_corridor_fight(ctx, hero, face)
        return False  # used up only when slain (combat.win_fight)
    _apply_standing(ctx, hero, face)
    return False


def _apply_standing(ctx: Ctx, hero: Hero, face: str) -> None:
    """Tiles that stay and apply to the next hero too."""
    s = ctx.s
    if face == "Giant Rats":
        _hurt(ctx, hero, 1)
    elif face == "Guard":
        if hero.gold >= 2:
            take_gold(hero, 2)
            ctx.emit("gold", f"{hero.short} pays the guard 2 gold.")
        else:
            _hurt(ctx, hero, 1)
    elif face == "Random":
        random_event(ctx)
    elif face == "Scout":
        s.turn.moves.append(0)
        ctx.emit("tile", f"{hero.short} may move again this turn.")
    elif face in ("Sorcerer", "Good Wizard"):
        if face == "Good Wizard":
            _heal(ctx, hero, 1)
        draw_spells(ctx, hero, 1)
    elif face == "Teleport":
        blow_away(ctx, hero, "Light flares.")
    elif face in ("Trap", "Pit"):
        _hurt(ctx, hero, 2)
        s.turn.trapped = True
    elif face == "Witch":
        if hero.spells:
            card = hero.spells.pop(ctx.dice.below(len(hero.spells), "pick"))
            s.discards.append(card)
            ctx.private(
                hero,
                "tile",
                f"The witch takes your {card}.",
                f"The witch takes one of {hero.short}'s spell cards.",
                hero=hero.hero,
            )
        else:
            _hurt(ctx, hero, 1)
    elif face == "Dark Elf":
        roll, die = ctx.roll("the dark elf")
        if roll > hero.defence:
            lost = hurt(hero, 2, floor=1)
            ctx.emit("wound", f"The arrow flies ({roll}): {hero.short} loses {lost}.", dice=[die])
        else:
            ctx.emit("tile", f"The arrow flies ({roll}) and misses.", dice=[die])
    elif face == "Druid":
        _heal(ctx, hero, 2)
    elif face == "Evil Wizard":
        if s.hero_at("steps") is None:
            hero.space = "steps"
            ctx.emit("moved", f"{hero.short} is flung back onto the Stone Steps.", to="steps")
        else:
            _hurt(ctx, hero, 2)
    elif face == "Fountain of Life":
        _heal(ctx, hero, hero.stamina_max)
    elif face == "Ghost":
        hero.miss_turns += 1
    elif face == "Hag":
        lost = take_gold(hero, hero.gold // 2)
        ctx.emit("gold", f"The hag takes {lost} gold.")
    elif face == "Flame Jet":
        _hurt(ctx, hero, 2)
    elif face == "Shrine of Valour":
        _heal(ctx, hero, 3)
    elif face == "Chasm":
        _hurt(ctx, hero, 1)
        if s.hero_at("rope_bridge") is None:
            hero.space = "rope_bridge"
            ctx.emit("moved", f"{hero.short} falls back onto the Rope Bridge.", to="rope_bridge")
    # Secret Passage: its face stays up and links to its twin (moves.passage_twin).
