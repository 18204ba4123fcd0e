"""A hero's turn: movement, doors, potions, belongings, attack, escape (docs/rules.md 3, 5, 11).

Each action has a `check_*` (returns a player-readable reason, or None when legal) run on the
unchanged state, and a `do_*` that changes the cloned state.
"""

from __future__ import annotations

from . import actions as A
from .board import Board
from .combat import drink_potion, hero_attack_dice, roll_against_monster, weapon_attack_dice
from .context import Ctx, cap, hero_name, main_action_used, mark_acted, square_text
from .data import ARMOUR, WEAPONS, equipment_problem, seat_of_hero
from .draft import end_draft_turn
from .events import make_event, red_dice
from .geometry import ORTHOGONAL, is_orthogonal_neighbour, step
from .options import option, rules_revision
from .quest import Square
from .reveal import reveal_area
from .state import HeroState, State
from .traps import block_exits, block_pending, do_leave_block, enter_square


def hero_of(s: State, action: A.HeroAction) -> HeroState:
    return s.heroes[action.hero]


# --- roll movement -----------------------------------------------------------------------------
def check_roll(b: Board, a: A.RollMovement) -> str | None:
    if b.s.turn.movement_rolled:
        return "Movement has already been rolled this turn."
    if b.s.turn.has_moved:
        return "Movement must be rolled before moving."
    return None


def movement_dice(hero: HeroState) -> int:
    if "swift_wind" in hero.effects:
        return 4
    if any(ARMOUR[a].one_movement_die for a in hero.armour if a in ARMOUR):
        return 1
    return 2


def do_roll(ctx: Ctx, a: A.RollMovement) -> None:
    h = hero_of(ctx.s, a)
    count = movement_dice(h)
    if "swift_wind" in h.effects:
        h.effects.remove("swift_wind")
    values = ctx.dice.reds(count)
    ctx.s.turn.movement_rolled = True
    ctx.s.turn.movement_left = sum(values)
    ctx.emit(
        make_event(
            "roll_movement",
            f"{cap(hero_name(h))} rolls {', '.join(map(str, values))} for movement: "
            f"{sum(values)} squares.",
            dice=[red_dice(values, h.hero)],
            hero=h.hero,
            total=sum(values),
        )
    )


# --- move --------------------------------------------------------------------------------------
# Hidden stays hidden: whether a move is listed, and why one is refused, depend only on what the
# hero's seat can see (the board size, revealed squares and their walls and doors, known blocked
# squares, heroes and revealed monsters). Whatever lies on an unrevealed square (solid rock, a
# hidden monster, furniture, a blocked square) is found out by trying to enter it; see `do_move`.
def move_cost(b: Board, h: HeroState, to: Square) -> int | str:
    """Movement points a move costs, or why it is not allowed."""
    pos = h.position
    assert pos is not None
    if is_orthogonal_neighbour(pos, to):
        return _step_cost(b, h, pos, to)
    if "veil_of_mist" in h.effects or option(b.s, "heroes_pass_heroes"):
        return _veil_cost(b, h, pos, to)
    return "Heroes move one square at a time, and never diagonally."


def passable(b: Board, h: HeroState, sq: Square) -> bool:
    """May the hero pass through (not stop on) this square: a revealed monster's under Veil of
    Mist, another hero's when the room lets heroes pass heroes (docs/rules.md 3, 8)."""
    if not b.visible_figure(sq):
        return False
    if sq in b.monsters_at:
        return "veil_of_mist" in h.effects
    return bool(option(b.s, "heroes_pass_heroes"))


def _step_cost(b: Board, h: HeroState, pos: Square, to: Square) -> int | str:
    if not b.geo.in_grid(to):
        return "That is off the board."
    if not b.edge_open(pos, to) and "pass_through_rock" not in h.effects:
        return "A wall or a closed door is in the way."
    return _arrival_cost(b, h, to, 1)


def _arrival_cost(b: Board, h: HeroState, to: Square, cost: int) -> int | str:
    """Judge the destination by what the heroes can see of it; an unrevealed square (only
    reachable through rock, or past a line of monsters) shows what it holds on arrival."""
    if to in b.known_blocked or (b.revealed_square(to) and not b.standable(to)):
        return "That square is blocked."
    if b.visible_figure(to):
        if passable(b, h, to):
            return "The hero may pass through that figure but not stop on its square."
        return "Another figure stands on that square."
    return cost


def _veil_cost(b: Board, h: HeroState, pos: Square, to: Square) -> int | str:
    """Straight on through squares of figures the hero may pass (Veil of Mist: revealed
    monsters; the heroes_pass_heroes room option: heroes) to the next square."""
    dx, dy = to[0] - pos[0], to[1] - pos[1]
    if dx and dy:
        return "Heroes move one square at a time, and never diagonally."
    dist = abs(dx + dy)
    d = (dx // dist, dy // dist)
    here = pos
    for _ in range(dist - 1):
        nxt = step(here, d)
        if not b.edge_open(here, nxt) or not passable(b, h, nxt):
            return "Heroes move one square at a time, and never diagonally."
        here = nxt
    if not b.geo.in_grid(to):
        return "That is off the board."
    if not b.edge_open(here, to):
        return "A wall or a closed door is in the way."
    return _arrival_cost(b, h, to, dist)


def check_move(b: Board, a: A.Move) -> str | None:
    s = b.s
    h = hero_of(s, a)
    if not s.turn.movement_rolled:
        return "Roll for movement first."
    if s.turn.movement_left <= 0:
        return "No movement left this turn."
    cost = move_cost(b, h, a.to)
    if isinstance(cost, str):
        return cost
    if cost > s.turn.movement_left:
        return "Not enough movement left."
    return None


def move_candidates(b: Board, h: HeroState) -> list[Square]:
    """Squares worth checking; `check_move` decides (the four neighbours, and with Veil of Mist
    the square past each line of revealed monsters)."""
    pos = h.position
    assert pos is not None
    out = [step(pos, d) for d in ORTHOGONAL]
    if "veil_of_mist" not in h.effects and not option(b.s, "heroes_pass_heroes"):
        return out
    for d in ORTHOGONAL:  # past a line of figures the hero may pass through
        here = step(pos, d)
        while passable(b, h, here):
            here = step(here, d)
            if not passable(b, h, here):
                out.append(here)
    return out


def sealed_by_a_lock(b: Board, origin: Square, to: Square) -> bool:
    """Does a step through rock from `origin` to `to` cross into or out of a room that a still
    locked door seals (the room on the door's room side)?"""
    geo = b.geo
    areas = {geo.area_of.get(origin), geo.area_of.get(to)}
    for door_id, door in geo.doors.items():
        if door.locked_by is None or b.s.doors[door_id].open:
            continue
        for side in (door.a, door.b):
            room = geo.area_of.get(side)
            if room is not None and room in areas and b.s.quest.areas[room].kind == "room":
                return True
    return False


def do_move(ctx: Ctx, a: A.Move) -> None:
    s = ctx.s
    h = hero_of(s, a)
    origin = h.position
    assert origin is not None
    cost = move_cost(ctx.board(), h, a.to)
    assert isinstance(cost, int)
    s.turn.movement_left -= cost
    s.turn.has_moved = True
    name = cap(hero_name(h))
    through_rock = is_orthogonal_neighbour(origin, a.to) and not ctx.board().edge_open(origin, a.to)
    if a.to not in ctx.geo.playable:  # Pass Through Rock into solid rock: the point is lost
        ctx.emit(
            make_event(
                "move_blocked",
                f"{name} presses into the wall and finds only solid rock.",
                hero=h.hero,
                to=[a.to[0], a.to[1]],
                reason="rock",
            )
        )
        return
    sealed = rules_revision(s) >= 2 and sealed_by_a_lock(ctx.board(), origin, a.to)
    if through_rock and sealed:
        # docs/rules.md 8: a locked room is sealed, its walls as much as its door; the move is
        # listed like any other through rock (nothing hidden shows), and its point is lost.
        ctx.emit(
            make_event(
                "move_blocked",
                f"{name} presses into the wall, but a seal holds it fast: "
                "what lies beyond opens only to its key.",
                hero=h.hero,
                to=[a.to[0], a.to[1]],
                reason="sealed",
            )
        )
        return
    area = ctx.geo.area_of[a.to]
    if area not in s.areas or area in s.glimpsed:  # standing in an area reveals it whole
        reveal_area(ctx, area)
    if not ctx.board().free(a.to):
        text = (
            f"{name} passes through the rock but finds the way beyond blocked, and steps back."
            if through_rock
            else f"{name} finds {square_text(a.to)} taken and stays where they are."
        )
        ctx.emit(
            make_event("move_blocked", text, hero=h.hero, to=[a.to[0], a.to[1]], reason="blocked")
        )
        return
    h.position = a.to
    ctx.emit(
        make_event(
            "move",
            f"{name} moves to {square_text(a.to)}.",
            hero=h.hero,
            to=[a.to[0], a.to[1]],
        )
    )
    enter_square(ctx, h, a.to, origin)


# --- doors -------------------------------------------------------------------------------------
def door_by_pub(s: State, pub: str) -> str | None:
    return next((d for d, ds in s.doors.items() if ds.pub == pub), None)


def check_open_door(b: Board, a: A.OpenDoor) -> str | None:
    door_id = door_by_pub(b.s, a.door)
    if door_id is None:
        return "There is no such door."
    if b.s.doors[door_id].open:
        return "That door is already open."
    door = b.geo.doors[door_id]
    h = hero_of(b.s, a)
    if h.position not in (door.a, door.b):
        return "The hero must stand next to the door to open it."
    if door.locked_by is not None and door.locked_by not in h.artifacts:
        return f"The door is locked: it opens only to the {door.locked_by}."
    return None


def door_candidates(b: Board, h: HeroState) -> list[str]:
    pos = h.position
    out = []
    for door_id, ds in b.s.doors.items():
        door = b.geo.doors[door_id]
        if ds.pub and not ds.open and pos in (door.a, door.b):
            out.append(ds.pub)
    return out


def open_door(ctx: Ctx, door_id: str, opener: str) -> None:
    s = ctx.s
    s.doors[door_id].open = True
    ctx.emit(
        make_event(
            "door_opened",
            f"{cap(opener)} opens a door.",
            door=s.doors[door_id].pub,
        )
    )
    door = ctx.geo.doors[door_id]
    for sq in (door.a, door.b):
        reveal_area(ctx, ctx.geo.area_of[sq])


def do_open_door(ctx: Ctx, a: A.OpenDoor) -> None:
    door_id = door_by_pub(ctx.s, a.door)
    assert door_id is not None
    open_door(ctx, door_id, hero_name(a.hero))


# --- free actions ------------------------------------------------------------------------------
def check_drink(b: Board, a: A.DrinkPotion) -> str | None:
    """A potion may be drunk at any time, also outside the hero's turn (docs/rules.md 3)."""
    h = hero_of(b.s, a)
    if not h.playing:
        return f"{cap(hero_name(a.hero))} is no longer in the dungeon."
    if h.potions <= 0:
        return f"{cap(hero_name(a.hero))} has no healing potion."
    return None


def do_drink(ctx: Ctx, a: A.DrinkPotion) -> None:
    ctx.emit(drink_potion(ctx, hero_of(ctx.s, a)))


def drink_candidates(s: State, seat: int) -> list[A.DrinkPotion]:
    return [
        A.DrinkPotion(h.hero)
        for h in s.heroes.values()
        if h.playing and h.potions > 0 and seat_of_hero(s.seats, h.hero) == seat
    ]


def check_give(b: Board, a: A.Give) -> str | None:
    """Potions, gold and artifacts change hands on the giver's own turn (docs/rules.md 3)."""
    s = b.s
    giver = hero_of(s, a)
    taker = s.heroes.get(a.recipient)
    if taker is None or taker is giver or not taker.playing:
        return "Give to another hero still in the dungeon."
    if a.item == "potion":
        held = giver.potions
    elif a.item == "gold":
        held = giver.gold
    elif a.item in giver.artifacts:
        held = 1
    else:
        return f"{cap(hero_name(giver))} has no {a.item.replace('_', ' ')} to give."
    if a.amount > held:
        return f"{cap(hero_name(giver))} does not have that many to give."
    return None


def give_candidates(s: State, h: HeroState) -> list[A.Give]:
    """One of each: a potion, all the gold (any smaller amount is legal too), each artifact."""
    out: list[A.Give] = []
    for other in s.heroes.values():
        if other is h or not other.playing:
            continue
        if h.potions:
            out.append(A.Give(h.hero, other.hero, "potion", 1))
        if h.gold:
            out.append(A.Give(h.hero, other.hero, "gold", h.gold))
        out += [A.Give(h.hero, other.hero, art, 1) for art in dict.fromkeys(h.artifacts)]
    return out


def do_give(ctx: Ctx, a: A.Give) -> None:
    s = ctx.s
    giver, taker = hero_of(s, a), s.heroes[a.recipient]
    if a.item == "potion":
        giver.potions -= a.amount
        taker.potions += a.amount
        what = "a healing potion" if a.amount == 1 else f"{a.amount} healing potions"
    elif a.item == "gold":
        giver.gold -= a.amount
        taker.gold += a.amount
        what = f"{a.amount} gold coins"
    else:
        giver.artifacts.remove(a.item)
        taker.artifacts.append(a.item)
        what = a.item
    seats = sorted({ctx.hero_seat(giver.hero), ctx.hero_seat(taker.hero)})
    who = f"{cap(hero_name(giver))} gives"
    ctx.emit(
        make_event(
            "give",
            f"{who} {what} to {hero_name(taker)}.",
            audience=seats,  # what a hero carries is private to its seat (docs/rules.md 13)
            hero=giver.hero,
            recipient=taker.hero,
            item=a.item,
            amount=a.amount,
            redacted={
                "text": f"{who} something to {hero_name(taker)}.",
                "hero": giver.hero,
                "recipient": taker.hero,
            },
        )
    )


def check_take(b: Board, a: A.TakeBelongings) -> str | None:
    h = hero_of(b.s, a)
    drop = next((d for d in b.s.drops if d.hero == a.from_hero), None)
    if drop is None:
        return "There is nothing of theirs to take."
    if h.position is None or b.geo.area_of.get(h.position) != drop.area:
        return "The hero must be in the same area as the belongings."
    return None


def do_take(ctx: Ctx, a: A.TakeBelongings) -> None:
    s = ctx.s
    h = hero_of(s, a)
    drop = next(d for d in s.drops if d.hero == a.from_hero)
    s.drops.remove(drop)
    h.gold += drop.gold
    h.potions += drop.potions
    h.tool_kit = h.tool_kit or drop.tool_kit
    h.artifacts.extend(drop.artifacts)
    h.items.extend(drop.items)
    for piece in drop.armour:
        take_armour(h, piece)
    if drop.weapon:
        take_weapon(h, drop.weapon)
    ctx.emit(
        make_event(
            "belongings_taken",
            f"{cap(hero_name(h))} takes {hero_name(drop.hero)}'s belongings.",
            hero=h.hero,
            source=drop.hero,
        )
    )


def take_weapon(h: HeroState, weapon: str) -> None:
    """A taken weapon is wielded when the hero may use it and it beats the wielded one;
    otherwise it is carried, unwielded (docs/rules.md 5)."""
    current = WEAPONS.get(h.weapon)
    usable = weapon in WEAPONS and equipment_problem(h.hero, weapon, h.armour) is None
    better = current is None or WEAPONS[weapon].attack > current.attack
    if usable and better and not WEAPONS[weapon].ranged:
        if h.weapon:
            h.items.append(h.weapon)
        h.weapon = weapon
    else:
        h.items.append(weapon)


def take_armour(h: HeroState, piece: str) -> None:
    """Taken armour is worn when the hero may wear it and wears none of the kind; else carried."""
    wearable = equipment_problem(h.hero, h.weapon, [*h.armour, piece]) is None
    if wearable and piece not in h.armour:
        h.armour.append(piece)
    else:
        h.items.append(piece)


def do_set_auto_drink(ctx: Ctx, a: A.SetAutoDrink) -> None:
    hero_of(ctx.s, a).auto_drink = a.on
    state = "on" if a.on else "off"
    ctx.emit(
        make_event(
            "setting",
            f"Auto-drink is {state} for {hero_name(a.hero)}.",
            audience=[ctx.hero_seat(a.hero)],
            hero=a.hero,
        )
    )


def do_set_drink_at(ctx: Ctx, a: A.SetDrinkAt) -> None:
    hero_of(ctx.s, a).drink_at = a.body
    rule = f"at {a.body} Body or less" if a.body else "only at death's door"
    ctx.emit(
        make_event(
            "setting",
            f"{cap(hero_name(a.hero))} drinks a healing potion {rule}.",
            audience=[ctx.hero_seat(a.hero)],
            hero=a.hero,
        )
    )


TIMEOUT_TEXTS = {
    "end_turn": "ends its turn where it stands",
    "search_treasure": "searches for treasure if it may, then ends its turn",
    "search_traps": "searches for traps if it may, then ends its turn",
    "search_secret_doors": "searches for secret doors if it may, then ends its turn",
}


def do_set_on_timeout(ctx: Ctx, a: A.SetOnTimeout) -> None:
    hero_of(ctx.s, a).on_timeout = a.act
    ctx.emit(
        make_event(
            "setting",
            f"On a timeout, {hero_name(a.hero)} {TIMEOUT_TEXTS[a.act]}.",
            audience=[ctx.hero_seat(a.hero)],
            hero=a.hero,
        )
    )


def do_end_turn(ctx: Ctx, a: A.EndTurn) -> None:
    """End the turn; one that must still step off a falling block steps back first, and one
    that ends a spell draft turn takes the first element left (a timed-out turn never stalls)."""
    if ctx.s.phase == "draft":
        end_draft_turn(ctx)
        return
    if block_pending(ctx.s):
        exits = block_exits(ctx.board(), hero_of(ctx.s, a))
        if exits:
            do_leave_block(ctx, A.LeaveBlock(a.hero, exits[-1]))  # back where they came from
    ctx.end_turn = True


# --- main actions ------------------------------------------------------------------------------
def check_attack(b: Board, a: A.Attack) -> str | None:
    h = hero_of(b.s, a)
    reason = main_action_used(b.s, h)
    if reason:
        return reason
    m = b.s.monster_by_pub(a.target)
    if m is None or m.position is None:
        return "There is no such monster."
    if b.hero_attack_modes(h, m.position) is None:
        return "That monster is out of reach."
    return None


def do_attack(ctx: Ctx, a: A.Attack) -> None:
    s = ctx.s
    h = hero_of(s, a)
    m = s.monster_by_pub(a.target)
    assert m is not None and m.position is not None
    board = ctx.board()
    mode = board.hero_attack_modes(h, m.position)
    assert mode is not None
    mark_acted(s)
    verb = "shoots at" if mode == "ranged" else "attacks"
    roll_against_monster(ctx, hero_name(h), h.hero, hero_attack_dice(board, h, mode), m, verb)


# --- thrown weapons (docs/rules.md 10) ------------------------------------------------------------
def may_use(h: HeroState, weapon: str) -> bool:
    return h.hero != "wizard" or WEAPONS[weapon].wizard_may_use


def throwable(h: HeroState) -> list[str]:
    """The thrown weapons (dagger, spear, handaxe) the hero carries and may use, wielded first."""
    out = []
    for w in [h.weapon, *h.items]:
        if w in WEAPONS and WEAPONS[w].thrown and may_use(h, w) and w not in out:
            out.append(w)
    return out


def check_throw(b: Board, a: A.Throw) -> str | None:
    h = hero_of(b.s, a)
    reason = main_action_used(b.s, h)
    if reason:
        return reason
    weapon = WEAPONS.get(a.weapon)
    if weapon is None or not weapon.thrown:
        return "Only a dagger, a spear or a handaxe can be thrown."
    if a.weapon not in (h.weapon, *h.items):
        return f"{cap(hero_name(h))} has no {a.weapon}."
    if not may_use(h, a.weapon):
        return f"{cap(hero_name(h))} cannot use a {a.weapon}."
    m = b.s.monster_by_pub(a.target)
    if m is None or m.position is None:
        return "There is no such monster."
    assert h.position is not None
    if not b.sees(h.position, m.position):
        return "That monster is not in sight."
    if not b.distance_attacks and not b.adjacent_target(h.position, m.position):
        return "Under the UK rules a weapon is thrown only at a monster in an adjacent square."
    return None


def throw_candidates(b: Board, h: HeroState) -> list[A.Throw]:
    weapons = throwable(h)
    if not weapons:
        return []
    assert h.position is not None
    pos = h.position
    targets = [
        m.pub
        for m in b.visible_monsters(pos)
        if m.pub
        and m.position is not None
        and (b.distance_attacks or b.adjacent_target(pos, m.position))
    ]
    return [A.Throw(h.hero, w, t) for w in weapons for t in targets]


def lose_weapon(h: HeroState, weapon: str) -> None:
    """The thrown weapon is gone; a hero who threw the wielded one wields the next best."""
    if weapon in h.items:  # a carried spare goes first; the hero keeps wielding
        h.items.remove(weapon)
        return
    usable = [w for w in h.items if w in WEAPONS and equipment_problem(h.hero, w, h.armour) is None]
    best = max(usable, key=lambda w: (not WEAPONS[w].ranged, WEAPONS[w].attack), default=None)
    h.weapon = best or ""
    if best is not None:
        h.items.remove(best)


def do_throw(ctx: Ctx, a: A.Throw) -> None:
    s = ctx.s
    h = hero_of(s, a)
    m = s.monster_by_pub(a.target)
    assert m is not None
    mark_acted(s)
    dice = weapon_attack_dice(ctx.board(), h, a.weapon)
    lose_weapon(h, a.weapon)
    roll_against_monster(ctx, hero_name(h), h.hero, dice, m, f"throws a {a.weapon} at")
    now = f"now wields the {h.weapon.replace('_', ' ')}" if h.weapon else "now fights bare-handed"
    ctx.emit(
        make_event(
            "weapon_lost",
            f"The {a.weapon} is lost; {hero_name(h)} {now}.",
            hero=h.hero,
            weapon=a.weapon,
            wielding=h.weapon or None,
        )
    )


def check_escape(b: Board, a: A.Escape) -> str | None:
    h = hero_of(b.s, a)
    reason = main_action_used(b.s, h)
    if reason:
        return reason
    if h.position not in b.s.quest.stairway:
        return "The hero must stand on the stairway to escape."
    return None


def do_escape(ctx: Ctx, a: A.Escape) -> None:
    """Leave by the stairway: after the villain falls, to win; before, to retreat (docs/rules.md
    11: the quest ends as a retreat once every surviving hero has left with the villain alive)."""
    h = hero_of(ctx.s, a)
    mark_acted(ctx.s)
    h.status = "escaped"
    h.position = None
    ctx.end_turn = True
    text = (
        f"{cap(hero_name(h))} climbs the stairway to safety."
        if ctx.s.villain_defeated
        else f"{cap(hero_name(h))} retreats up the stairway, leaving the quest unfinished."
    )
    ctx.emit(make_event("escape", text, hero=h.hero, retreat=not ctx.s.villain_defeated))
