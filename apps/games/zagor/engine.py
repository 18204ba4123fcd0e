"""The rules engine: a new game, the legal actions, applying one action (docs/zagor/rules.md).

Pure: state in, action in, events and a new state out; every die from the seeded stream.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from apps.games.dicestream import seed_rng
from apps.games.port import Refusal, RefusalKind

from .actions import Action, parse
from .board import board, space_order
from .combat import (
    duel_exchange,
    duel_surrender,
    fighting,
    finish_spoils,
    monster_strike,
    retreat,
    spoils_options,
    start_dragon,
    start_duel,
    start_room_fight,
    start_zagor,
    wound_duel_foe,
    wound_monster,
    zagor_exchange,
)
from .context import Ctx
from .data import HEAL_ITEMS, HEROES, ITEMS, LEVEL_FIGURES, LEVEL_TILES, SPELL_DECK, price
from .dice import Draw
from .events import Event
from .heroes import (
    discard_all_spells,
    discard_spell,
    draw_spells,
    heal,
    holds_orb,
    keep_chests,
)
from .moves import destinations, doors_passed, neighbours
from .scenarios import Tale
from .spells import cast, castable
from .state import Hero, Room, State, Tile, Turn
from .tiles import reveal_and_apply
from .voice import carry_out_orders, maybe_command

Json = dict[str, Any]


@dataclass
class Result:
    state: State
    events: list[Event]
    draws: list[Draw] = field(default_factory=list)


# --- setup (rules 3) ----------------------------------------------------------------------------
def _deal_chests(ctx: Ctx, s: State) -> None:
    rooms = {
        lvl: [r for r in space_order(list(s.rooms)) if board().spaces[r].level == lvl]
        for lvl in (1, 2)
    }
    if s.chest_mode == "crypt":
        cards = list(range(1, 25))
        s.chest_contents = {str(c): "talisman" if c % 2 else "dagger" for c in cards}
        ctx.dice.shuffle(cards)
        for level, per_room in ((1, 1), (2, 2)):
            for room in rooms[level]:
                s.rooms[room].chests = [cards.pop() for _ in range(per_room)]
        s.chest_supply = cards
    elif s.chest_mode == "orb":
        cards = list(range(1, 10))
        orb = 1 + ctx.dice.below(9, "chest")
        s.chest_contents = {str(c): "orb" if c == orb else "gold" for c in cards}
        ctx.dice.shuffle(cards)
        for room in rooms[1]:
            s.rooms[room].chests = [cards.pop()]
    else:
        cards = list(range(1, 22))
        spirit = 1 + ctx.dice.below(9, "chest")
        s.chest_contents = {str(c): "spirit" if c == spirit else "gold" for c in cards}
        ctx.dice.shuffle(cards)
        s.chest_supply = cards


def new_game(
    tale: Tale, seats: int, seed: int, options: Mapping[str, Any], *, commitment: str | None
) -> Result:
    heroes: dict[str, Hero] = {}
    for seat, hd in enumerate(HEROES[:seats], start=1):
        heroes[hd.hero] = Hero(
            hd.hero, seat, hd.start, hd.strength, hd.stamina, hd.stamina, tale.gold
        )
    order = [h.hero for h in HEROES[:seats]]
    limit = options.get("round_limit") or tale.round_limit
    s = State(
        tale.slug,
        tale.chest_mode,
        list(tale.levels),
        heroes,
        order,
        {},
        {},
        {},
        [],
        [],
        [],
        [],
        seed_rng(seed),
        int(limit),
        Turn(order[0]),
        order[0],
    )
    ctx = Ctx(s)
    if commitment:
        ctx.emit("commitment", "The dice are sealed before the first roll.", commitment=commitment)
    for level in tale.levels:
        faces = list(LEVEL_TILES[level])
        ctx.dice.shuffle(faces)
        spaces = space_order([sp.id for sp in board().level_spaces(level, "corridor")])
        for space, face in zip(spaces, faces, strict=True):
            s.tiles[space] = Tile(face)
        if level in LEVEL_FIGURES:
            figures = list(LEVEL_FIGURES[level])
            ctx.dice.shuffle(figures)
            rooms = space_order([sp.id for sp in board().level_spaces(level, "room")])
            for room, figure in zip(rooms, figures, strict=True):
                s.rooms[room] = Room(figure)
    _deal_chests(ctx, s)
    s.deck = list(SPELL_DECK)
    ctx.dice.shuffle(s.deck)
    ctx.voice("Who dares challenge me?")
    for hero in (s.heroes[h] for h in order):
        ctx.voice(f"{hero.name}... I have been waiting for you.", hero=hero.hero)
        draw_spells(ctx, hero)
    first = order[ctx.dice.below(len(order), "first")]
    s.first = first
    s.turn = Turn(first, first=True)
    ctx.voice(f"{s.heroes[first].name} goes first.", hero=first)
    ctx.emit("turn", f"Round 1: {s.heroes[first].short}'s turn.", hero=first, round=1)
    ctx.finish()
    return Result(s, ctx.events, ctx.dice.draws)


# --- legal actions ------------------------------------------------------------------------------
def store_open(s: State, hero: Hero) -> bool:
    if fighting(s) or s.spoils is not None:
        return False
    return (s.turn.first and not s.turn.acted) or hero.space == "store" or s.turn.merchant


def move_allowance(s: State, hero: Hero) -> int:
    if not s.turn.moves or s.turn.fought or fighting(s) or s.spoils is not None:
        return 0
    return max(m or hero.move_length for m in s.turn.moves)


def duel_targets(s: State, hero: Hero) -> list[Hero]:
    if s.turn.dueled or s.turn.trapped or fighting(s) or s.spoils is not None:
        return []
    near = set(neighbours(s, hero.space))
    return [s.heroes[h] for h in s.order if s.heroes[h].space in near and not s.heroes[h].invisible]


def _use_options(s: State, hero: Hero) -> list[Action]:
    out: list[Action] = []
    for item in ITEMS:
        if item not in hero.items:
            continue
        if (item in HEAL_ITEMS and hero.stamina < hero.stamina_max) or (
            item == "Magic Arrow"
            and not hero.in_crypt
            and (s.fight is not None or (s.duel is not None and s.duel.defender is not None))
        ):
            out.append(Action("use", hero.hero, item=item))
        elif item == "Torch" and not fighting(s):
            for n in neighbours(s, hero.space):
                tile = s.tiles.get(n)
                if tile is not None and not tile.revealed and n not in hero.known:
                    out.append(Action("use", hero.hero, item=item, target=n))
    return out


def hero_actions(s: State, hero: Hero) -> list[Action]:
    h = hero.hero
    if s.spoils is not None:
        loser = s.heroes[s.spoils.loser]
        return [
            Action("spoils", h, take=k, item=i)
            for k, i in spoils_options(s, hero, loser, s.spoils.kind)
        ]
    out: list[Action] = []
    if s.fight is not None:
        out.append(Action("strike", h, by="hero"))
        if hero.hireling is not None:
            out.append(Action("strike", h, by="hireling"))
        out.append(Action("retreat", h))
    elif s.duel is not None:
        out.append(Action("strike", h, by="hero"))
        if s.duel.defender is not None:
            out.append(Action("surrender", h))
    else:
        length = move_allowance(s, hero)
        if length:
            out.extend(Action("move", h, to=d) for d in destinations(s, hero, length))
        if store_open(s, hero):
            out.extend(
                Action("buy", h, item=i)
                for i in ITEMS
                if i not in hero.items and hero.gold >= price(h, i)
            )
        out.extend(Action("attack_hero", h, target=t.hero) for t in duel_targets(s, hero))
    out.extend(Action("cast", h, spell=sp, target=t) for sp, t in castable(s, hero))
    out.extend(_use_options(s, hero))
    if not fighting(s):
        out.append(Action("end_turn", h))
        if hero.spells and not hero.in_crypt and (s.deck or s.discards):
            out.extend(Action("end_turn", h, swap=sp) for sp in dict.fromkeys(hero.spells))
    return out


def legal_actions(s: State, seat: int) -> list[Json]:
    if s.outcome is not None:
        return []
    hero = s.active
    if hero.seat != seat:
        return []
    return [a.to_json() for a in hero_actions(s, hero)]


def seats_to_move(s: State) -> list[int]:
    return [] if s.outcome is not None else [s.active.seat]


# --- applying -----------------------------------------------------------------------------------
def _refuse_reason(s: State, hero: Hero, action: Action) -> str:
    busy = fighting(s) or s.spoils is not None
    if s.spoils is not None and action.type != "spoils":
        return "Choose your spoils first."
    if action.type == "move":
        if busy:
            return "Finish the fight first."
        if s.turn.fought:
            return "No moving after a fight this turn."
        if not s.turn.moves:
            return "You have no move left this turn."
        return "You cannot reach that space with this move."
    if action.type == "buy":
        if action.item not in ITEMS:
            return "The Store sells no such thing."
        if not store_open(s, hero):
            return "The Store is not open to you here."
        if action.item in hero.items:
            return f"You already have the {action.item}."
        return f"The {action.item} costs {price(hero.hero, action.item)} gold."
    if action.type in ("strike", "retreat", "surrender"):
        return "There is no such fight to do that in."
    if action.type == "attack_hero":
        return "You cannot attack that hero now."
    if action.type == "cast":
        if action.spell not in hero.spells:
            return "You do not hold that spell."
        return "That spell cannot be cast like that now."
    if action.type == "use":
        return "You cannot use that now."
    if action.type == "end_turn":
        return "Finish the fight first." if busy else "You cannot swap that card."
    return "That is not possible now."


def apply(
    state: State, seat: int, data: Any, *, forced: Mapping[str, Sequence[int]] | None = None
) -> Result:
    action = parse(data)
    hero = state.heroes.get(action.hero)
    if hero is None or hero.seat != seat:
        raise Refusal(RefusalKind.NOT_YOURS, "That hero is not yours.")
    if state.outcome is not None:
        raise Refusal(RefusalKind.NOT_NOW, "The game is over.")
    if action.type == "set_surrender":
        return set_surrender(state, action)
    if state.turn.hero != hero.hero:
        raise Refusal(RefusalKind.NOT_NOW, f"It is {state.active.short}'s turn.")
    if action.to_json() not in legal_actions(state, seat):
        raise Refusal(RefusalKind.ILLEGAL, _refuse_reason(state, hero, action))
    ctx = Ctx(state.copy(), forced)
    _play(ctx, action)
    _after(ctx)
    ctx.finish()
    return Result(ctx.s, ctx.events, ctx.dice.draws)


def set_surrender(state: State, action: Action) -> Result:
    hero = state.heroes[action.hero]
    at = action.at if action.at is not None else 0
    if not 0 <= at <= hero.stamina_max:
        raise Refusal(RefusalKind.ILLEGAL, f"Choose 0 to {hero.stamina_max}.")
    s = state.copy()
    s.heroes[hero.hero].surrender_at = at
    return Result(s, [])


def _play(ctx: Ctx, a: Action) -> None:
    s = ctx.s
    hero = s.heroes[a.hero]
    if a.type == "move" and a.to is not None:
        _move(ctx, hero, a.to)
    elif a.type == "buy" and a.item is not None:
        cost = price(hero.hero, a.item)
        hero.gold -= cost
        hero.items.append(a.item)
        hero.items.sort(key=ITEMS.index)
        ctx.emit(
            "buy", f"{hero.short} buys the {a.item} for {cost} gold.", hero=hero.hero, item=a.item
        )
    elif a.type == "strike":
        s.turn.acted = True
        if s.fight is not None:
            monster_strike(ctx, a.by or "hero")
        elif s.duel is not None and s.duel.defender is None:
            zagor_exchange(ctx)
        else:
            duel_exchange(ctx)
    elif a.type == "retreat":
        retreat(ctx)
    elif a.type == "surrender":
        duel_surrender(ctx, hero)
    elif a.type == "attack_hero" and a.target is not None:
        s.turn.acted = True
        start_duel(ctx, hero, s.heroes[a.target])
    elif a.type == "spoils" and a.take is not None:
        finish_spoils(ctx, a.take, a.item)
    elif a.type == "cast" and a.spell is not None:
        cast(ctx, a.spell, a.target)
    elif a.type == "use" and a.item is not None:
        _use(ctx, hero, a.item, a.target)
    elif a.type == "end_turn":
        end_turn(ctx, a.swap)


def _move(ctx: Ctx, hero: Hero, to: str) -> None:
    s = ctx.s
    path = destinations(s, hero, move_allowance(s, hero))[to]
    lengths = sorted(s.turn.moves, key=lambda m: m or hero.move_length)
    use = next(m for m in lengths if (m or hero.move_length) >= len(path))
    s.turn.moves.remove(use)
    s.turn.moved = True
    s.turn.acted = True
    came_from = path[-2] if len(path) > 1 else hero.space
    was_in_crypt = hero.in_crypt
    avoided = doors_passed(s, path)
    hero.space = to
    hero.rooms_avoided += avoided
    space = board().spaces[to]
    tail = f" (passing {avoided} room(s) by)" if avoided else ""
    ctx.emit("move", f"{hero.short} moves to {space.name}{tail}.", hero=hero.hero, path=path)
    if hero.in_crypt and not was_in_crypt:
        count = discard_all_spells(ctx, hero)
        ctx.voice(
            f"{hero.name} enters my crypt. Your magic is worthless here"
            f"{f' ({count} spell card(s) discarded)' if count else ''}."
        )
    if space.kind == "room" and s.rooms[to].monster is not None:
        start_room_fight(ctx, hero, to, came_from)
    elif space.kind == "room" and s.rooms[to].chests:
        cards, s.rooms[to].chests = s.rooms[to].chests, []
        keep_chests(ctx, hero, cards, space.name)
    elif space.kind == "cave":
        start_dragon(ctx, hero, came_from)
    elif space.kind == "hall":
        start_zagor(ctx, hero)
    elif space.kind == "corridor":
        reveal_and_apply(ctx, hero)


def _use(ctx: Ctx, hero: Hero, item: str, target: str | None) -> None:
    s = ctx.s
    hero.items.remove(item)
    if item in HEAL_ITEMS:
        gained = heal(hero, HEAL_ITEMS[item])
        ctx.emit("use", f"{hero.short} drinks the {item}: +{gained} Stamina.", hero=hero.hero)
    elif item == "Magic Arrow":
        ctx.emit(
            "use", f"{hero.short} looses a Magic Arrow: the foe loses 1 Stamina.", hero=hero.hero
        )
        if s.fight is not None:
            wound_monster(ctx, 1)
        else:
            wound_duel_foe(ctx, 1)
    elif item == "Torch" and target is not None:
        face = s.tiles[target].face
        hero.known[target] = face
        ctx.private(
            hero,
            "torch",
            f"{hero.short} holds up the Torch: the tile shows {face}.",
            f"{hero.short} holds up a Torch and peers at a tile.",
            space=target,
            face=face,
        )


# --- the end of a turn and the next (rules 4.3) -------------------------------------------------
def end_turn(ctx: Ctx, swap: str | None) -> None:
    s = ctx.s
    hero = s.active
    if not s.turn.fought and heal(hero, 1):
        ctx.emit("rest", f"{hero.short} rests: +1 Stamina.", hero=hero.hero)
    if swap is not None and swap in hero.spells:
        discard_spell(ctx, hero, swap)
        ctx.private(
            hero, "swap", f"{hero.short} discards {swap}.", f"{hero.short} discards a spell card."
        )
    if not hero.in_crypt:
        draw_spells(ctx, hero)
    s.quiet_turns = 0 if s.turn.fought else s.quiet_turns + 1
    maybe_command(ctx)
    _next_turn(ctx)


def _next_turn(ctx: Ctx) -> None:
    s = ctx.s
    index = s.order.index(s.turn.hero)
    while True:
        index = (index + 1) % len(s.order)
        if s.order[index] == s.first:
            if s.round >= s.round_limit:
                _round_limit(ctx)
                return
            s.round += 1
        hero = s.heroes[s.order[index]]
        if hero.miss_turns > 0:
            hero.miss_turns -= 1
            s.turn = Turn(hero.hero, moves=[])
            ctx.voice(f"{hero.name} misses this turn.", hero=hero.hero)
            continue
        break
    _start_turn(ctx, hero)


def _start_turn(ctx: Ctx, hero: Hero) -> None:
    s = ctx.s
    s.turn = Turn(hero.hero, first=s.round == 1)
    hero.invisible = False
    if hero.no_move_next:
        hero.no_move_next = False
        s.turn.moves = []
    if hero.no_spell_next:
        hero.no_spell_next = False
        s.turn.spells_left = 0
    ctx.emit("turn", f"Round {s.round}: {hero.short}'s turn.", hero=hero.hero, round=s.round)
    carry_out_orders(ctx, hero)


def _round_limit(ctx: Ctx) -> None:
    s = ctx.s
    s.outcome = "zagor"
    ctx.voice(f"{s.round_limit} rounds, and none of you could beat me. The crypt stays mine!")


def _after(ctx: Ctx) -> None:
    """Checks after every action: the Orb's return (rules 15.1), a fallen hero's turn."""
    s = ctx.s
    if s.outcome is None and s.chest_mode == "orb":
        for hero in s.heroes.values():
            if hero.space == hero.start and holds_orb(s, hero):
                s.outcome = f"hero:{hero.hero}"
                ctx.voice(f"{hero.name} brings the Enchanted Orb home. The Orb is saved!")
    if s.outcome is not None:
        s.fight = s.duel = s.spoils = None
        ctx.emit("over", "The game is over.", outcome=s.outcome)
        return
    if s.turn.over and s.spoils is None and not fighting(s):
        end_turn(ctx, None)
        if s.outcome is not None:
            ctx.emit("over", "The game is over.", outcome=s.outcome)


def replay(state: State, actions: Sequence[tuple[int, Json]]) -> State:
    for seat, action in actions:
        state = apply(state, seat, action).state
    return state
