"""Tiny readable test quests built from ASCII maps.

Each character of the map is one square: a lowercase letter is a square of the room with that
id, an uppercase letter a square of that passage, and '.' (or '#') solid rock. Everything else
(doors, monsters, traps, ...) is given by keyword, squares as (x, y).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from apps.games.heroquest.engine import Quest, State, apply, new_game
from apps.games.heroquest.engine.engine import Transition
from apps.games.heroquest.engine.quest import (
    Area,
    Door,
    Furniture,
    MonsterDef,
    SpecialTreasure,
    TrapDef,
)
from apps.games.heroquest.engine.state import MonsterTurn, TurnState

Square = tuple[int, int]

ZARGON = 1
HEROES = 2  # in a 2-seat game seat 2 plays every hero


def build_quest(
    ascii_map: str,
    *,
    doors: Iterable[tuple[Square, Square]] = (),
    secret_doors: Iterable[tuple[Square, Square]] = (),
    monsters: Iterable[tuple[str, Square]] = (),
    traps: Iterable[tuple[str, Any]] = (),
    furniture: Iterable[tuple[str, Sequence[Square]]] = (),
    blocked: Iterable[Square] = (),
    hero_starts: dict[str, Square] | None = None,
    stairway: Iterable[Square] | None = None,
    entrance: str = "a",
    villain: int | None = None,
    wandering: str = "goblin",
    special: dict[str, SpecialTreasure] | None = None,
    monster_extras: dict[int, dict[str, Any]] | None = None,
) -> Quest:
    """`monster_extras` gives the n-th monster (from 0) more MonsterDef fields: name, stats,
    dread_spells, escape_to."""
    rows = [r.strip() for r in ascii_map.strip("\n").splitlines() if r.strip()]
    width, height = max(len(r) for r in rows), len(rows)
    square_area: dict[Square, str] = {}
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch.isalpha():
                square_area[(x, y)] = ch
    areas = {
        a: Area(
            a,
            "room" if a.islower() else "passage",
            f"Area {a}",
            frozenset(sq for sq, v in square_area.items() if v == a),
        )
        for a in sorted(set(square_area.values()))
    }
    entrance_squares = sorted(areas[entrance].squares, key=lambda s: (s[1], s[0]))
    if hero_starts is None:
        # tiny entrances repeat squares; tests then place the heroes where they need them
        hero_starts = {
            h: entrance_squares[i % len(entrance_squares)]
            for i, h in enumerate(("barbarian", "dwarf", "elf", "wizard"))
        }
    door_list = [Door(f"door{i}", a, b) for i, (a, b) in enumerate(doors, 1)]
    door_list += [Door(f"secret{i}", a, b, secret=True) for i, (a, b) in enumerate(secret_doors, 1)]
    extras = monster_extras or {}
    monster_list = tuple(
        MonsterDef(f"mon{i}", kind, sq, **extras.get(i - 1, {}))
        for i, (kind, sq) in enumerate(monsters, 1)
    )
    trap_list = []
    for i, (kind, where) in enumerate(traps, 1):
        if kind == "chest":
            trap_list.append(TrapDef(f"trap{i}", "chest", furniture=where))
        else:
            trap_list.append(TrapDef(f"trap{i}", kind, square=where))  # type: ignore[arg-type]
    furniture_list = tuple(
        Furniture(f"fur{i}", kind, tuple(sqs)) for i, (kind, sqs) in enumerate(furniture, 1)
    )
    quest = Quest(
        slug="test",
        name="Test Quest",
        width=width,
        height=height,
        parchment="A test.",
        notes="Secret notes.",
        areas=areas,
        square_area=square_area,
        entrance=entrance,
        stairway=frozenset(stairway if stairway is not None else entrance_squares[:1]),
        hero_starts=hero_starts,
        doors=tuple(door_list),
        blocked=frozenset(blocked),
        furniture=furniture_list,
        traps=tuple(trap_list),
        monsters=monster_list,
        villain=monster_list[villain].id if villain is not None else "",
        wandering_monster=wandering,
        special_treasures=dict(special or {}),
    )
    digest = hashlib.sha1(repr(quest).encode()).hexdigest()[:10]
    return replace(quest, slug=f"test-{digest}")


def start(quest: Quest, seats: int = 2, seed: int = 1, **options: Any) -> State:
    return new_game(quest, seats, seed, options or None)


def place(state: State, **positions: Square | None) -> State:
    """Move heroes directly (test set-up); a None position takes the hero off the board."""
    for hero, sq in positions.items():
        h = state.heroes[hero]
        h.position = sq
        if sq is None:
            h.status = "escaped"
    return state


def set_turn(state: State, hero: str, movement: int | None = None) -> State:
    """Make it `hero`'s turn (test set-up), optionally with movement already rolled."""
    state.phase = "heroes"
    state.turn.hero = hero
    state.turn.has_moved = state.turn.has_acted = False
    state.turn.movement_rolled = movement is not None
    state.turn.movement_left = movement or 0
    return state


def zargon_turn(state: State) -> State:
    state.phase = "monsters"
    state.turn = TurnState()
    state.mturn = MonsterTurn()
    return state


def act(
    state: State, seat: int, action: Any, dice: Sequence[int | str] | None = None
) -> Transition:
    return apply(state, seat, action, dice=dice)


def texts(transition: Transition) -> str:
    return "\n".join(e["text"] for e in transition.events)


def monster(state: State, pub: str) -> Any:
    m = state.monster_by_pub(pub)
    assert m is not None, f"no living revealed monster {pub}"
    return m


OPEN_ROOM = """
aaaaaaaaaaaa
aaaaaaaaaaaa
"""


def monster_phase(monsters: list[tuple[str, Square]], **heroes: Square | None) -> State:
    """Zargon's phase in one open 12x2 room: the Barbarian at (0, 0) unless moved, the other
    heroes off the board unless placed, and the given monsters revealed."""
    s = start(build_quest(OPEN_ROOM, monsters=monsters))
    place(s, **{"barbarian": (0, 0), "dwarf": None, "elf": None, "wizard": None, **heroes})
    return zargon_turn(s)
