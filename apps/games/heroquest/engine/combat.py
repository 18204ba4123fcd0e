"""Combat and damage (docs/rules.md 5)."""

from __future__ import annotations

from .board import Board, melee_weapon, ranged_weapon
from .context import Ctx, cap, hero_name, monster_name
from .data import ARMOUR, HEAL_SPELL_AMOUNT, HEROES, WEAPONS, artifact_bonus
from .events import Event, combat_dice, faces_text, make_event, red_dice
from .options import monster_stats
from .state import Drop, HeroState, MonsterState, State

COURAGE_BONUS = 2
HEALING_SPELLS = ("heal_body", "water_of_healing")


def with_pit(dice: int, in_pit: bool) -> int:
    return max(1, dice - 1) if in_pit else dice


def hero_attack_dice(board: Board, hero: HeroState, mode: str = "melee") -> int:
    weapon = melee_weapon(hero) if mode == "melee" else ranged_weapon(hero)
    return weapon_attack_dice(board, hero, weapon)


def weapon_attack_dice(board: Board, hero: HeroState, weapon: str | None) -> int:
    """Attack dice with this weapon (None: bare-handed, one die), Courage and a pit counted."""
    if "fear" in hero.effects:  # Dread Fear: one die, whatever the weapon (docs/rules.md 8b)
        return 1
    dice = (WEAPONS[weapon].attack if weapon else 1) + artifact_bonus(hero.artifacts, "attack")
    if "courage" in hero.effects:
        dice += COURAGE_BONUS
    return with_pit(dice, board.in_pit(hero.position))


def hero_defend_dice(board: Board, hero: HeroState) -> int:
    dice = HEROES[hero.hero].defend + sum(ARMOUR[a].defend for a in hero.armour if a in ARMOUR)
    dice += artifact_bonus(hero.artifacts, "defend")
    if "rock_skin" in hero.effects:
        dice += 1
    return with_pit(dice, board.in_pit(hero.position))


def monster_attack_dice(board: Board, m: MonsterState) -> int:
    return with_pit(monster_stats(board.s, m).attack, board.in_pit(m.position))


def monster_defend_dice(board: Board, m: MonsterState) -> int:
    if m.asleep:
        return 0  # a sleeping monster rolls no defence dice until it wakes
    return with_pit(monster_stats(board.s, m).defend, board.in_pit(m.position))


# --- damage ------------------------------------------------------------------------------------
def damage_hero(ctx: Ctx, hero: HeroState, amount: int) -> list[Event]:
    """Remove Body from a hero; returns follow-up events (potion drunk, hero fallen)."""
    if amount <= 0 or not hero.playing:
        return []
    if "rock_skin" in hero.effects:
        hero.effects.remove("rock_skin")  # Rock Skin lasts until the hero next loses Body
    hero.body = max(0, hero.body - amount)
    if hero.body > 0:
        if hero.auto_drink and hero.potions > 0 and hero.body <= hero.drink_at:
            return [drink_potion(ctx, hero, automatic=True)]  # the hero's standing rule
        return []
    if hero.potions > 0 and hero.auto_drink:
        return [drink_potion(ctx, hero, automatic=True)]
    spell = self_healing_spell(ctx, hero)
    if spell is not None and hero.auto_drink:
        return [heal_self(ctx, hero, spell)]
    return [hero_falls(ctx, hero)]


def self_healing_spell(ctx: Ctx, hero: HeroState) -> str | None:
    """A healing spell a hero at 0 Body may still cast on themself: held, and no action taken
    yet this round (docs/rules.md 5; 000, Dead Heroes)."""
    if hero.acted_round == ctx.s.round:
        return None
    return next((sp for sp in HEALING_SPELLS if sp in hero.spells), None)


def heal_self(ctx: Ctx, hero: HeroState, spell: str) -> Event:
    """Cast the healing spell at death's door; it is the hero's action for this round."""
    s = ctx.s
    hero.spells.remove(spell)
    hero.body = min(hero.body_max, HEAL_SPELL_AMOUNT)
    hero.acted_round = s.round
    if s.phase == "heroes" and s.turn.hero == hero.hero:
        s.turn.has_acted = True
        if s.turn.has_moved:
            s.turn.movement_left = 0
    title = spell.replace("_", " ").title()
    return make_event(
        "spell",
        f"{cap(hero_name(hero))} casts {title} on themself at death's door and regains "
        f"{hero.body} Body.",
        hero=hero.hero,
        spell=spell,
        target=hero.hero,
    )


def drink_potion(ctx: Ctx, hero: HeroState, automatic: bool = False) -> Event:
    hero.potions -= 1
    roll = ctx.dice.red()
    before = hero.body
    hero.body = min(hero.body_max, hero.body + roll)
    when = ""
    if automatic:
        when = " at death's door" if before == 0 else f" at {before} Body, as ordered"
    return make_event(
        "potion",
        f"{cap(hero_name(hero))} drinks a healing potion{when}: rolls {roll}, "
        f"regains {hero.body - before} Body ({hero.body}/{hero.body_max}).",
        dice=[red_dice([roll], hero.hero)],
        hero=hero.hero,
    )


def hero_falls(ctx: Ctx, hero: HeroState) -> Event:
    s = ctx.s
    square = hero.position
    hero.status = "fallen"
    hero.effects.clear()
    hero.position = None
    text = f"{cap(hero_name(hero))} has fallen!"
    area = ctx.geo.area_of.get(square) if square else None
    witnesses = [
        h
        for h in s.heroes.values()
        if h.playing and h.position is not None and ctx.geo.area_of.get(h.position) == area
    ]
    has_belongings = (
        hero.gold
        or hero.potions
        or hero.tool_kit
        or hero.artifacts
        or hero.items
        or hero.weapon
        or hero.armour
    )
    if square is not None and area is not None and witnesses and has_belongings:
        s.drops.append(
            Drop(
                hero.hero,
                square,
                area,
                hero.gold,
                hero.potions,
                hero.tool_kit,
                list(hero.artifacts),
                list(hero.items),
                hero.weapon,
                list(hero.armour),
            )
        )
        text += " Their belongings lie on the floor."
    elif has_belongings:
        text += " The monsters claim their belongings."
    hero.gold, hero.potions, hero.tool_kit = 0, 0, False
    hero.artifacts, hero.items, hero.weapon, hero.armour = [], [], "", []
    if s.phase == "heroes" and s.turn.hero == hero.hero:
        ctx.end_turn = True
    return make_event("hero_fallen", text, hero=hero.hero)


def damage_monster(ctx: Ctx, m: MonsterState, amount: int) -> bool:
    """Remove Body from a monster; True when it is defeated."""
    if amount <= 0:
        return False
    m.body = max(0, m.body - amount)
    if m.body > 0:
        return False
    m.alive = False
    m.position = None
    if ctx.s.mturn.monster == m.key:
        ctx.s.mturn.monster = None
    if m.key == ctx.s.quest.villain:
        ctx.s.villain_defeated = True
    return True


def monster_loss_text(m: MonsterState, lost: int, defeated: bool, s: State) -> str:
    """'the orc loses 1 Body and is defeated': `lost` is what it lost, never more than it had."""
    name = monster_name(m, s)
    if lost <= 0:
        return f"{name} takes no damage"
    text = f"{name} loses {lost} Body"
    return text + (" and is defeated" if defeated else "")


def body_lost(before: int, hits: int) -> int:
    """The Body a figure with `before` Body loses to `hits`: no more than it had."""
    return max(0, min(before, hits))


def villain_events(ctx: Ctx, m: MonsterState) -> list[Event]:
    if m.key != ctx.s.quest.villain or m.alive:
        return []
    return [
        make_event(
            "villain_defeated",
            f"{cap(monster_name(m, ctx.s))} is defeated! Every surviving hero must now escape "
            "by the stairway.",
        )
    ]


# --- attacks -----------------------------------------------------------------------------------
def roll_against_monster(
    ctx: Ctx,
    attacker_text: str,
    attacker_id: str,
    attack_dice: int,
    m: MonsterState,
    verb: str = "attacks",
) -> None:
    """Roll attack dice at a monster, let it defend with black shields, apply the damage."""
    board = ctx.board()
    attack = ctx.dice.combats(attack_dice)
    # no skull, no defence roll (docs/rules.md 5: "your opponent need not defend")
    defend_n = monster_defend_dice(board, m) if "skull" in attack else 0
    defend = ctx.dice.combats(defend_n)
    hits = max(0, attack.count("skull") - defend.count("black_shield"))
    short = monster_name(m, ctx.s)
    before = m.body
    defeated = damage_monster(ctx, m, hits)
    lost = body_lost(before, hits)
    if defend_n:
        defence = f"{short} rolls {faces_text(defend)}"
    elif "skull" not in attack:
        defence = f"{short} need not defend"
    else:
        defence = f"{short} cannot defend"
    text = (
        f"{cap(attacker_text)} {verb} {monster_name(m, ctx.s)}: {faces_text(attack)}; {defence}; "
        f"{monster_loss_text(m, lost, defeated, ctx.s)}."
    )
    ctx.emit(
        make_event(
            "attack",
            text,
            dice=[combat_dice(attack, attacker_id), combat_dice(defend, m.pub or "monster")],
            attacker=attacker_id,
            target=m.pub,
            hits=hits,
            lost=lost,
            defeated=defeated,
        )
    )
    ctx.emit_all(villain_events(ctx, m))


def monster_attacks_hero(ctx: Ctx, m: MonsterState, hero: HeroState) -> None:
    board = ctx.board()
    attack = ctx.dice.combats(monster_attack_dice(board, m))
    scored = "skull" in attack  # no skull, no defence roll (docs/rules.md 5)
    defend = ctx.dice.combats(hero_defend_dice(board, hero) if scored else 0)
    hits = max(0, attack.count("skull") - defend.count("white_shield"))
    lost = body_lost(hero.body, hits)
    follow = damage_hero(ctx, hero, hits)
    loss = f"loses {lost} Body" if lost else "takes no damage"
    defence = f"rolls {faces_text(defend)}" if scored else "need not defend"
    text = (
        f"{cap(monster_name(m, ctx.s))} attacks {hero_name(hero)}: {faces_text(attack)}; "
        f"{hero_name(hero)} {defence}; {hero_name(hero)} {loss}."
    )
    ctx.emit(
        make_event(
            "attack",
            text,
            dice=[combat_dice(attack, m.pub or "monster"), combat_dice(defend, hero.hero)],
            attacker=m.pub,
            target=hero.hero,
            hits=hits,
            lost=lost,
        )
    )
    ctx.emit_all(follow)
