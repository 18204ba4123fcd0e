"""Fights: monsters (rules 7), the Flame Dragon (12.2), duels between heroes (8), Zagor (12.3)."""

from __future__ import annotations

from .board import board
from .context import Ctx
from .data import (
    CORRIDOR_MONSTERS,
    DRAGON_BONUS,
    LEVEL_BASE,
    MONSTERS,
    SCALING,
    SUMMONED_NAME,
    ZAGOR_FIGURES,
    ZAGOR_SPELLS,
)
from .heroes import (
    dearest_item,
    holds_orb,
    keep_chests,
    lose_one_thing,
    pick_chest,
    send_to_start,
)
from .state import Duel, Fight, Hero, Spoils, State


# --- the unit's announcement (rules 7.3) --------------------------------------------------------
def announce_figures(ctx: Ctx, base_strength: int, base_stamina: int) -> tuple[int, int]:
    swing = ctx.dice.below(3, "monster") - 1
    extra = ctx.dice.below(2, "monster")
    add_strength, add_stamina = SCALING[len(ctx.s.heroes)]
    return max(1, base_strength + swing + add_strength), base_stamina + extra + add_stamina


def _announce(ctx: Ctx, fight: Fight, hero: Hero) -> None:
    ctx.voice(
        f"{hero.name}! {fight.foe}: Strength {fight.strength}, Stamina {fight.stamina}.",
        hero=hero.hero,
        foe=fight.foe,
        strength=fight.strength,
        stamina=fight.stamina,
    )


def start_room_fight(ctx: Ctx, hero: Hero, room: str, came_from: str) -> None:
    monster = ctx.s.rooms[room].monster
    assert monster is not None
    _, base_strength, base_stamina = MONSTERS[monster]
    strength, stamina = announce_figures(ctx, base_strength, base_stamina)
    ctx.s.fight = Fight("room", monster, strength, stamina, room, came_from)
    _announce(ctx, ctx.s.fight, hero)


def start_dragon(ctx: Ctx, hero: Hero, came_from: str) -> None:
    strength, stamina = announce_figures(ctx, *LEVEL_BASE[2])
    ctx.s.fight = Fight(
        "dragon",
        "the Flame Dragon",
        strength + DRAGON_BONUS[0],
        stamina + DRAGON_BONUS[1],
        "cave",
        came_from,
    )
    _announce(ctx, ctx.s.fight, hero)


def start_corridor_fight(ctx: Ctx, hero: Hero, tile: str) -> None:
    strength, stamina = CORRIDOR_MONSTERS[tile]
    ctx.s.fight = Fight("corridor", f"the {tile}", strength, stamina, hero.space, hero.space)
    _announce(ctx, ctx.s.fight, hero)


def start_summoned(ctx: Ctx, hero: Hero) -> None:
    level = min(hero.level, 2)
    strength, stamina = announce_figures(ctx, *LEVEL_BASE[level])
    foe = SUMMONED_NAME[level]
    ctx.s.fight = Fight("summoned", foe, strength, stamina, hero.space, hero.space)
    _announce(ctx, ctx.s.fight, hero)


# --- exchanges with a monster (rules 7.1, 7.6) --------------------------------------------------
def monster_strike(ctx: Ctx, by: str) -> None:
    s = ctx.s
    fight = s.fight
    assert fight is not None
    hero = s.active
    hireling = hero.hireling if by == "hireling" else None
    fighter = hireling.name if hireling is not None else hero.short
    defence = hireling.strength if hireling is not None else hero.defence
    fight.exchanges += 1
    attack, die = ctx.roll(fight.foe)
    if attack <= defence:
        ctx.voice(f"{fight.foe} attacks with {attack}: a miss.", dice=[die], attack=attack)
    elif hireling is None and "Shield" in hero.items and not fight.shield_used:
        fight.shield_used = True
        ctx.voice(f"{fight.foe} attacks with {attack}: the Shield stops it.", dice=[die])
    else:
        ctx.voice(f"{fight.foe} attacks with {attack}: {fighter} loses 1 Stamina.", dice=[die])
        if hireling is not None:
            hireling.stamina -= 1
            if hireling.stamina <= 0:
                hero.hireling = None
                ctx.emit("hireling", f"{hireling.name} falls. {hero.short} fights on or flees.")
                return
        else:
            hero.stamina -= 1
            if hero.stamina <= 0:
                lose_fight(ctx)
                return
    bonus = fight.bonus + hero.roll_bonus if hireling is None else 0
    roll, die = ctx.roll(fighter)
    hit = (fight.sure_hit and hireling is None) or roll + bonus >= fight.strength
    if hireling is None:
        fight.sure_hit = False
    plus = f" (+{bonus})" if bonus else ""
    if hit:
        fight.stamina -= 1
        ctx.emit("strike", f"{fighter} rolls {roll}{plus}: a hit.", dice=[die], roll=roll)
    else:
        ctx.emit("strike", f"{fighter} rolls {roll}{plus}: a miss.", dice=[die], roll=roll)
    if fight.stamina <= 0:
        win_fight(ctx)


def wound_monster(ctx: Ctx, amount: int) -> None:
    fight = ctx.s.fight
    assert fight is not None
    fight.stamina -= amount
    if fight.stamina <= 0:
        win_fight(ctx)


def win_fight(ctx: Ctx) -> None:
    s = ctx.s
    fight = s.fight
    assert fight is not None
    hero = s.active
    s.fight = None
    s.turn.fought = True
    hero.fights_won += 1
    ctx.emit("fight_won", f"{hero.short} defeats {fight.foe}.", hero=hero.hero)
    if fight.kind == "room":
        room = s.rooms[fight.space]
        room.monster = None
        if s.chest_mode == "spectre":
            draws = 1 if hero.level == 1 else 2
            cards = [s.chest_supply.pop() for _ in range(min(draws, len(s.chest_supply)))]
        else:
            cards, room.chests = room.chests, []
        keep_chests(ctx, hero, cards, board().spaces[fight.space].name)
    elif fight.kind == "corridor":
        s.tiles.pop(fight.space, None)
    elif fight.kind == "dragon":
        cards = [s.chest_supply.pop() for _ in range(min(2, len(s.chest_supply)))]
        cards += s.chest_pile
        s.chest_pile = []
        keep_chests(ctx, hero, cards, "the Dragon's hoard")


def lose_fight(ctx: Ctx) -> None:
    s = ctx.s
    fight = s.fight
    assert fight is not None
    hero = s.active
    s.fight = None
    s.turn.fought = True
    ctx.emit("fight_lost", f"{fight.foe} strikes {hero.short} down.", hero=hero.hero)
    drop_orb(ctx, hero, fight)
    lose_one_thing(ctx, hero)
    send_to_start(ctx, hero, miss_turn=True)
    s.turn.moves = []
    s.turn.over = True


def drop_orb(ctx: Ctx, hero: Hero, fight: Fight) -> None:
    """A hero who falls holding the Orb drops it (rules 15.1): into the room he fell in, else
    into a room a monster still guards (drawn), else into the first room."""
    s = ctx.s
    orb = [c for c in hero.chests if s.chest(c) == "orb"]
    if not orb:
        return
    hero.chests.remove(orb[0])
    if fight.kind == "room":
        room = fight.space
    else:
        guarded = sorted(r for r, st in s.rooms.items() if st.monster is not None)
        rooms = guarded or sorted(s.rooms)
        room = rooms[ctx.dice.below(len(rooms), "chest")]
    s.rooms[room].chests.append(orb[0])
    ctx.voice(f"The Enchanted Orb slips from {hero.name}'s hands into {board().spaces[room].name}.")


def retreat(ctx: Ctx, *, with_loss: bool = True) -> None:
    s = ctx.s
    fight = s.fight
    assert fight is not None
    hero = s.active
    s.fight = None
    s.turn.fought = True
    if fight.kind in ("room", "dragon"):
        hero.space = fight.retreat_to
    where = board().spaces[hero.space].name
    ctx.emit("retreat", f"{hero.short} flees from {fight.foe} to {where}.", hero=hero.hero)
    if with_loss:
        lose_one_thing(ctx, hero)


# --- duels between heroes (rules 8) -------------------------------------------------------------
def _blow(ctx: Ctx, striker: Hero, target: Hero, duel: Duel, *, active: bool) -> bool:
    """One blow: roll, defence roll, shield; True when the target falls."""
    bonus = striker.roll_bonus + (duel.bonus if active else 0)
    roll, die = ctx.roll(striker.short)
    sure = active and duel.sure_hit
    if active:
        duel.sure_hit = False
    plus = f" (+{bonus})" if bonus else ""
    if not sure and roll + bonus <= target.defence:
        ctx.emit("duel_blow", f"{striker.short} strikes with {roll}{plus}: a miss.", dice=[die])
        return False
    guard, guard_die = ctx.roll(target.short)
    if guard > striker.defence:
        ctx.emit(
            "duel_blow",
            f"{striker.short} strikes with {roll}{plus}; {target.short} parries with {guard}.",
            dice=[die, guard_die],
        )
        return False
    if "Shield" in target.items and target.hero not in duel.shields_used:
        duel.shields_used.append(target.hero)
        ctx.emit(
            "duel_blow",
            f"{striker.short} strikes with {roll}{plus}; {target.short} defends with {guard}; "
            "his Shield stops the blow.",
            dice=[die, guard_die],
        )
        return False
    target.stamina -= 1
    ctx.emit(
        "duel_blow",
        f"{striker.short} strikes with {roll}{plus}; {target.short} defends with {guard} and "
        "loses 1 Stamina.",
        dice=[die, guard_die],
    )
    return target.stamina <= 0


def start_duel(ctx: Ctx, attacker: Hero, defender: Hero) -> None:
    s = ctx.s
    s.duel = Duel(attacker.hero, defender.hero)
    s.turn.dueled = True
    s.turn.fought = True
    ctx.emit("duel", f"{attacker.short} attacks {defender.short}!", hero=attacker.hero)
    duel_exchange(ctx)


def duel_exchange(ctx: Ctx) -> None:
    s = ctx.s
    duel = s.duel
    assert duel is not None and duel.defender is not None
    attacker, defender = s.heroes[duel.attacker], s.heroes[duel.defender]
    duel.exchanges += 1
    if _blow(ctx, attacker, defender, duel, active=True):
        duel_kill(ctx, attacker, defender)
        return
    if _blow(ctx, defender, attacker, duel, active=False):
        duel_kill(ctx, defender, attacker)
        return
    if 0 < defender.stamina <= defender.surrender_at:
        duel_surrender(ctx, defender)


def wound_duel_foe(ctx: Ctx, amount: int) -> None:
    duel = ctx.s.duel
    assert duel is not None and duel.defender is not None
    attacker, defender = ctx.s.heroes[duel.attacker], ctx.s.heroes[duel.defender]
    defender.stamina = max(0, defender.stamina - amount)
    if defender.stamina <= 0:
        duel_kill(ctx, attacker, defender)


def duel_surrender(ctx: Ctx, loser: Hero) -> None:
    s = ctx.s
    duel = s.duel
    assert duel is not None and duel.defender is not None
    winner = s.heroes[duel.defender if loser.hero == duel.attacker else duel.attacker]
    s.duel = None
    winner.fights_won += 1
    ctx.emit("surrender", f"{loser.short} surrenders to {winner.short}.", hero=loser.hero)
    if not spoils_options(s, winner, loser, "surrender"):
        ctx.emit("spoils", f"{loser.short} has nothing to give.")
        return
    if winner.hero == s.turn.hero:
        s.spoils = Spoils(winner.hero, loser.hero, "surrender")
    else:
        take_spoils(ctx, winner, loser, default_spoils(s, winner, loser))


def duel_kill(ctx: Ctx, winner: Hero, loser: Hero) -> None:
    s = ctx.s
    s.duel = None
    winner.fights_won += 1
    old_space = loser.space
    ctx.emit("duel_won", f"{winner.short} strikes {loser.short} down.", hero=winner.hero)
    gold, loser.gold = loser.gold, 0
    winner.gold += gold
    cards, loser.chests = loser.chests, []
    if gold:
        ctx.emit("spoils", f"{winner.short} takes {gold} gold.")
    if cards:
        ctx.emit("spoils", f"{winner.short} takes {len(cards)} chest card(s).")
        keep_chests(ctx, winner, cards, loser.short)
    send_to_start(ctx, loser, miss_turn=True)
    if loser.hero == s.turn.hero:
        s.turn.over = True
    elif s.outcome is None:
        s.spoils = Spoils(winner.hero, loser.hero, "kill", old_space)


def spoils_options(s: State, winner: Hero, loser: Hero, kind: str) -> list[tuple[str, str | None]]:
    if kind == "kill":
        return [("space", None), ("stay", None)]
    out: list[tuple[str, str | None]] = []
    if loser.gold:
        out.append(("gold", None))
    if loser.chests and len(winner.chests) < winner.chest_limit:
        out.append(("chest", None))
    out.extend(("item", i) for i in loser.items if i not in winner.items)
    return out


def default_spoils(s: State, winner: Hero, loser: Hero) -> tuple[str, str | None]:
    """The published default (rules 8.4): the Orb, a chest, the gold, the dearest item."""
    options = spoils_options(s, winner, loser, "surrender")
    if ("chest", None) in options and holds_orb(s, loser):
        return ("chest", None)
    for choice in (("chest", None), ("gold", None)):
        if choice in options:
            return choice
    items = [i for kind, i in options if kind == "item" and i is not None]
    best = dearest_item(Hero(loser.hero, 0, loser.space, 0, 0, 0, 0, items=items))
    return ("item", best)


def take_spoils(ctx: Ctx, winner: Hero, loser: Hero, choice: tuple[str, str | None]) -> None:
    kind, item = choice
    if kind == "gold":
        gold, loser.gold = loser.gold, 0
        winner.gold += gold
        ctx.emit("spoils", f"{winner.short} takes {loser.short}'s {gold} gold.")
    elif kind == "chest":
        card = pick_chest(ctx, loser, spare_orb=False)
        assert card is not None
        loser.chests.remove(card)
        ctx.emit("spoils", f"{winner.short} takes a chest card from {loser.short}.")
        keep_chests(ctx, winner, [card], loser.short)
    elif kind == "item" and item is not None:
        loser.items.remove(item)
        winner.items.append(item)
        ctx.emit("spoils", f"{winner.short} takes {loser.short}'s {item}.")


def finish_spoils(ctx: Ctx, take: str, item: str | None) -> None:
    s = ctx.s
    spoils = s.spoils
    assert spoils is not None
    winner, loser = s.heroes[spoils.winner], s.heroes[spoils.loser]
    s.spoils = None
    if spoils.kind == "kill":
        if take == "space" and spoils.space is not None and s.hero_at(spoils.space) is None:
            winner.space = spoils.space
            ctx.emit("spoils", f"{winner.short} steps into {loser.short}'s place.")
        return
    take_spoils(ctx, winner, loser, (take, item))


# --- Zagor (rules 12.3, 12.4) -------------------------------------------------------------------
def start_zagor(ctx: Ctx, hero: Hero) -> None:
    figures = max(1, ZAGOR_FIGURES - len(hero.chests))
    ctx.s.duel = Duel(hero.hero, None, figures, figures, figures)
    ctx.s.turn.fought = True
    ctx.voice(
        f"So, {hero.name}, you dare enter Skull Hall! {len(hero.chests)} chest(s) weaken me: "
        f"Strength {figures}, Stamina {figures}.",
        hero=hero.hero,
        foe="Zagor",
        strength=figures,
        stamina=figures,
    )


def zagor_exchange(ctx: Ctx) -> None:
    s = ctx.s
    duel = s.duel
    assert duel is not None
    hero = s.heroes[duel.attacker]
    duel.exchanges += 1
    if ctx.dice.below(4, "zagor") == 0:
        name, loss, regain = ZAGOR_SPELLS[ctx.dice.below(len(ZAGOR_SPELLS), "zagor")]
        hero.stamina = max(0, hero.stamina - loss)
        duel.zagor_stamina = min(duel.zagor_start, duel.zagor_stamina + regain)
        tail = " and I grow stronger" if regain else ""
        ctx.voice(f"{name}! Lose {loss} Stamina{tail}.", spell=name)
    else:
        attack, die = ctx.roll("Zagor")
        if attack <= hero.defence:
            ctx.voice(f"I strike with {attack}: you are spared.", dice=[die])
        elif "Shield" in hero.items and hero.hero not in duel.shields_used:
            duel.shields_used.append(hero.hero)
            ctx.voice(f"I strike with {attack}: your Shield holds.", dice=[die])
        else:
            hero.stamina -= 1
            ctx.voice(f"I strike with {attack}: lose 1 Stamina.", dice=[die])
    if hero.stamina <= 0:
        zagor_wins(ctx, hero)
        return
    bonus = hero.roll_bonus + duel.bonus
    roll, die = ctx.roll(hero.short)
    plus = f" (+{bonus})" if bonus else ""
    if roll + bonus >= duel.zagor_strength:
        duel.zagor_stamina -= 1
        ctx.emit("strike", f"{hero.short} rolls {roll}{plus}: Zagor is hit.", dice=[die])
    else:
        ctx.emit("strike", f"{hero.short} rolls {roll}{plus}: a miss.", dice=[die])
    if duel.zagor_stamina <= 0:
        s.duel = None
        hero.fights_won += 1
        s.outcome = f"hero:{hero.hero}"
        ctx.voice(f"No! {hero.name} has defeated me... the crypt is yours.", hero=hero.hero)


def zagor_wins(ctx: Ctx, hero: Hero) -> None:
    s = ctx.s
    s.duel = None
    ctx.voice(f"Ha! Crawl back to your start, {hero.name}, and leave my treasure.")
    s.chest_pile.extend(hero.chests)
    hero.chests = []
    send_to_start(ctx, hero, miss_turn=False)
    s.turn.over = True


def fighting(s: State) -> bool:
    return s.fight is not None or s.duel is not None
