"""Searching for treasure, traps and secret doors; the treasure deck (docs/rules.md 6)."""

from __future__ import annotations

from collections import deque

from . import actions as A
from .board import Board
from .combat import damage_hero, monster_attacks_hero
from .context import Ctx, cap, hero_name, main_action_used, mark_acted, monster_name
from .data import HAZARD_DAMAGE, TREASURE_CARDS
from .events import count_text, make_event
from .geometry import ORTHOGONAL, is_orthogonal_neighbour, step
from .options import stats_for_kind
from .quest import Square
from .reveal import show_door, show_monster, show_trap
from .state import HeroState, MonsterState, State
from .traps import spring_trap


def _search_blocked(b: Board, h: HeroState) -> str | None:
    reason = main_action_used(b.s, h)
    if reason:
        return reason
    assert h.position is not None
    if b.visible_monsters(h.position):
        return "No one can search while a monster is in sight."
    return None


def hero_area(b: Board, h: HeroState) -> str:
    assert h.position is not None
    return b.geo.area_of[h.position]


# --- treasure ----------------------------------------------------------------------------------
def check_search_treasure(b: Board, a: A.SearchTreasure) -> str | None:
    h = b.s.heroes[a.hero]
    reason = _search_blocked(b, h)
    if reason:
        return reason
    pit = pit_of(b, h)
    if pit is None and b.s.quest.areas[hero_area(b, h)].kind != "room":
        return "Treasure can only be searched for inside a room (or a pit)."
    if search_key(b, h) in b.s.searched:
        place = "pit" if pit is not None else "room"
        return f"{cap(hero_name(h))} has already searched this {place} for treasure."
    return None


def pit_of(b: Board, h: HeroState) -> str | None:
    """The sprung pit the hero is in: searched as a separate room (docs/rules.md 4; 000)."""
    if not b.in_pit(h.position):
        return None
    assert h.position is not None
    return b.geo.trap_at[h.position]


def search_key(b: Board, h: HeroState) -> str:
    """What a treasure search is counted against: "hero:area", or "hero:pit:trap" in a pit."""
    pit = pit_of(b, h)
    return f"{h.hero}:pit:{pit}" if pit is not None else f"{h.hero}:{hero_area(b, h)}"


def armed_chest_traps(s: State, b: Board, area: str) -> list[str]:
    """The room's undetected chest/furniture traps: a treasure search springs every one."""
    return [
        trap_id
        for trap_id in b.geo.area_traps[area]
        if b.geo.traps[trap_id].kind == "chest"
        and s.traps[trap_id].state == "armed"
        and not s.traps[trap_id].detected
    ]


def do_search_treasure(ctx: Ctx, a: A.SearchTreasure) -> None:
    s = ctx.s
    h = s.heroes[a.hero]
    board = ctx.board()
    area = hero_area(board, h)
    mark_acted(s)
    in_pit = pit_of(board, h) is not None
    trap_ids = [] if in_pit else armed_chest_traps(s, board, area)
    if trap_ids:  # the search does not count: the hero may search again later
        ctx.emit(
            make_event(
                "search",
                f"{cap(hero_name(h))} searches the room for treasure...",
                hero=h.hero,
                search="treasure",
            )
        )
        for trap_id in trap_ids:
            if h.playing:
                spring_trap(ctx, trap_id, h, on_square=False)
        ctx.end_turn = True
        return
    s.searched.append(search_key(board, h))
    special = None if in_pit else s.quest.special_treasures.get(area)
    if special is not None and area not in s.special_found:
        s.special_found.append(area)
        h.gold += special.gold
        h.potions += special.potions
        if special.artifact is not None:  # kept on the character sheet (docs/rules.md 12)
            h.artifacts.append(special.artifact)
        emit_find(ctx, h, f"finds {special.name}! {special.text}", special.name)
        return
    draw_treasure_card(ctx, h, area)


def emit_find(ctx: Ctx, h: HeroState, what: str, find: str) -> None:
    """The finder's seat sees the find; every other seat only that treasure was searched for."""
    name = cap(hero_name(h))
    ctx.emit(
        make_event(
            "search",
            f"{name} searches the room for treasure and {what}",
            audience=[ctx.hero_seat(h.hero)],
            hero=h.hero,
            search="treasure",
            find=find,
            redacted={
                "type": "search",
                "text": f"{name} searches the room for treasure.",
                "hero": h.hero,
                "search": "treasure",
                "find": "treasure",
            },
        )
    )


def draw_treasure_card(ctx: Ctx, h: HeroState, area: str) -> None:
    s = ctx.s
    card = s.deck.pop(0)
    if TREASURE_CARDS[card][1]:  # cards that go back: back in and reshuffle
        s.deck.append(card)
        ctx.dice.shuffle(s.deck)
    if card.startswith("gold_"):
        gold = int(card.removeprefix("gold_"))
        h.gold += gold
        emit_find(ctx, h, f"finds {gold} gold coins.", card)
    elif card == "potion_of_healing":
        h.potions += 1
        emit_find(ctx, h, "finds a Potion of Healing.", card)
    elif card == "nothing":
        emit_find(ctx, h, "finds nothing.", card)
    elif card == "hazard":
        follow = damage_hero(ctx, h, HAZARD_DAMAGE)
        ctx.emit(
            make_event(
                "search",
                f"{cap(hero_name(h))} searches the room for treasure and triggers a "
                f"hidden hazard: {HAZARD_DAMAGE} Body lost. The turn ends.",
                hero=h.hero,
                search="treasure",
                find=card,
            )
        )
        ctx.emit_all(follow)
        ctx.end_turn = True
    else:
        wandering_monster(ctx, h, area)


def wandering_monster(ctx: Ctx, h: HeroState, area: str) -> None:
    """The quest's wandering monster appears next to the searcher and attacks at once; with no
    free square next to the searcher it appears as close as possible and waits for Zargon's
    phase. In the round it appears it may attack only the searcher (docs/rules.md 6)."""
    s = ctx.s
    kind = s.quest.wandering_monster
    board = ctx.board()
    square = wandering_square(board, h, area)
    name = cap(hero_name(h))
    if square is None:
        ctx.emit(
            make_event(
                "search",
                f"{name} searches the room for treasure and hears "
                "something prowling, but nothing comes.",
                hero=h.hero,
                search="treasure",
                find="wandering_monster",
            )
        )
        return
    stats = stats_for_kind(s, kind)
    key = f"wandering-{s.next_number('wandering')}"
    m = MonsterState(key=key, kind=kind, position=square, body=stats.body, body_max=stats.body)
    m.only_attacks = h.hero
    s.monsters[key] = m
    show_monster(s, m)
    m.activated = False
    assert h.position is not None
    beside = is_orthogonal_neighbour(h.position, square) and board.edge_open(h.position, square)
    then = "appears and attacks!" if beside else "appears nearby, waiting for Zargon's turn."
    ctx.emit(
        make_event(
            "wandering_monster",
            f"{name} searches the room for treasure and disturbs a wandering monster: "
            f"{monster_name(m, ctx.s)} {then}",
            hero=h.hero,
            search="treasure",
            find="wandering_monster",
            monster=m.pub,
            square=[square[0], square[1]],
        )
    )
    if beside:
        monster_attacks_hero(ctx, m, h)


def wandering_square(b: Board, h: HeroState, area: str) -> Square | None:
    """A free square next to the hero, else the nearest free square of the area (by steps)."""
    start = h.position
    assert start is not None
    squares = set(b.geo.area_squares[area])
    seen = {start}
    queue: deque[Square] = deque([start])
    while queue:
        sq = queue.popleft()
        for d in ORTHOGONAL:
            nb = step(sq, d)
            if nb in seen or nb not in squares or not b.edge_open(sq, nb):
                continue
            seen.add(nb)
            if b.free(nb):
                return nb
            queue.append(nb)
    return None


# --- traps and secret doors --------------------------------------------------------------------
def check_search_traps(b: Board, a: A.SearchTraps) -> str | None:
    return _search_blocked(b, b.s.heroes[a.hero])


def do_search_traps(ctx: Ctx, a: A.SearchTraps) -> None:
    s = ctx.s
    h = s.heroes[a.hero]
    area = hero_area(ctx.board(), h)
    mark_acted(s)
    found = []
    for trap_id in ctx.geo.area_traps[area]:
        ts = s.traps[trap_id]
        if ts.state == "armed" and not ts.detected:
            show_trap(s, trap_id)
            found.append(ts.pub)
    what = f"finds {count_text(len(found), 'trap')}" if found else "finds no traps"
    ctx.emit(
        make_event(
            "search",
            f"{cap(hero_name(h))} searches for traps and {what}.",
            hero=h.hero,
            search="traps",
            traps=found,
        )
    )


def check_search_secret_doors(b: Board, a: A.SearchSecretDoors) -> str | None:
    return _search_blocked(b, b.s.heroes[a.hero])


def do_search_secret_doors(ctx: Ctx, a: A.SearchSecretDoors) -> None:
    s = ctx.s
    h = s.heroes[a.hero]
    board = ctx.board()
    area = hero_area(board, h)
    mark_acted(s)
    found = []
    doors = ctx.geo.area_doors[area]
    if pit_of(board, h) is not None:  # a pit is searched as a room of its own: its own edges
        doors = [d for d in doors if h.position in (ctx.geo.doors[d].a, ctx.geo.doors[d].b)]
    for door_id in doors:
        ds = s.doors[door_id]
        if ctx.geo.doors[door_id].secret and not ds.found:
            ds.found = True
            show_door(s, door_id)
            found.append(ds.pub)
    what = (
        ("finds a secret door" if len(found) == 1 else f"finds {len(found)} secret doors")
        if found
        else "finds no secret door"
    )
    ctx.emit(
        make_event(
            "search",
            f"{cap(hero_name(h))} searches for secret doors and {what}.",
            hero=h.hero,
            search="secret_doors",
            doors=found,
        )
    )
