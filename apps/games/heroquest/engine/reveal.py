"""Revealing areas and assigning public ids (docs/rules.md 4 and 13).

Public ids are handed out in the order things become visible to the heroes, so they say
nothing about what is still hidden.
"""

from __future__ import annotations

from typing import Any

from .context import Ctx, monster_name
from .events import make_event
from .quest import Square
from .state import MonsterState, State


def new_pub(s: State, prefix: str) -> str:
    return f"{prefix}{s.next_number('pub_' + prefix)}"


def show_door(s: State, door_id: str) -> None:
    ds = s.doors[door_id]
    if ds.pub is None:
        ds.pub = new_pub(s, "d")


def show_trap(s: State, trap_id: str) -> None:
    ts = s.traps[trap_id]
    ts.detected = True
    if ts.pub is None:
        ts.pub = new_pub(s, "t")


def show_monster(s: State, m: MonsterState) -> None:
    if m.pub is None:
        m.pub = new_pub(s, "m")


def reveal_area(ctx: Ctx, area: str) -> None:
    """Reveal one area whole: its squares, furniture, visible doors and monsters (a passage
    seen only in part until now shows the rest)."""
    s, geo = ctx.s, ctx.geo
    if area in s.areas and area not in s.glimpsed:
        return
    if area not in s.areas:
        s.areas[area] = new_pub(s, "a")
    already = set(s.glimpsed.pop(area, ()))
    for fid in geo.area_furniture[area]:
        s.furniture.setdefault(fid, new_pub(s, "f"))
    for door_id in geo.area_doors[area]:
        if not geo.doors[door_id].secret or s.doors[door_id].found:
            show_door(s, door_id)
    squares = set(geo.area_squares[area]) - already
    found = show_monsters_on(s, squares)
    name = ctx.s.quest.areas[area].name
    text = f"{name} is revealed."
    if found:
        text += " Inside: " + ", ".join(found) + "."
    ctx.emit(
        make_event(
            "reveal",
            text,
            area=s.areas[area],
            monsters=[
                m.pub for m in s.monsters.values() if m.pub and m.alive and m.position in squares
            ],
        )
    )


def show_monsters_on(s: State, squares: set[Square]) -> list[str]:
    """Give the hidden monsters standing on `squares` their public ids; their names."""
    found = []
    for m in s.monsters.values():
        if m.alive and m.pub is None and m.position in squares:
            show_monster(s, m)
            found.append(monster_name(m, s))
    return found


def glimpse_squares(ctx: Ctx, area: str, squares: set[Square]) -> None:
    """A passage seen from elsewhere shows only the squares in sight and what stands on them
    (docs/rules.md 4): the doors on their edges and the monsters on them."""
    s, geo = ctx.s, ctx.geo
    if area in s.areas and area not in s.glimpsed:
        return
    seen = s.glimpsed.setdefault(area, [])
    new = squares - set(seen)
    if not new:
        return
    if area not in s.areas:
        s.areas[area] = new_pub(s, "a")
    seen.extend(sorted(new, key=lambda sq: (sq[1], sq[0])))
    for door_id in geo.area_doors[area]:
        door = geo.doors[door_id]
        if (door.a in new or door.b in new) and (not door.secret or s.doors[door_id].found):
            show_door(s, door_id)
    found = show_monsters_on(s, new)
    name = s.quest.areas[area].name
    text = f"Part of {name} comes into sight."
    if found:
        text += " There: " + ", ".join(found) + "."
    ctx.emit(
        make_event(
            "reveal",
            text,
            area=s.areas[area],
            squares=[[sq[0], sq[1]] for sq in sorted(new, key=lambda sq: (sq[1], sq[0]))],
            monsters=[
                m.pub for m in s.monsters.values() if m.pub and m.alive and m.position in new
            ],
        )
    )


def update_reveals(ctx: Ctx) -> None:
    """Reveal what the heroes stand in or have line of sight to (revealed never shrinks).

    A room seen is revealed whole; a passage a hero stands in is revealed whole, a passage only
    seen shows just the squares in sight (docs/rules.md 4). A sight line shows every square it
    passes through, so the squares it crosses on the way to a seen square are shown too: whatever
    decides a hero's sight lines (walls, blocked squares, figures) is then always on squares
    the heroes are shown."""
    s, geo = ctx.s, ctx.geo
    if len(s.areas) == len(geo.area_squares) and not s.glimpsed:
        return
    if s.reveals_done_for is not None and s.reveals_done_for == sight_inputs(s):
        return  # nobody's sight changed since the last update, which showed all it reached
    _reveal_what_the_heroes_see(ctx)
    # Taken after: a reveal places the monsters it shows, and they block sight from then on.
    s.reveals_done_for = sight_inputs(s)


def sight_inputs(s: State) -> tuple[Any, ...]:
    """Everything what the heroes are shown depends on, besides what they were shown already
    (which only grows): the playing heroes' squares, the revealed monsters' squares, the doors
    open and the fallen blocks (`Board.sees`, `Board.sight_blockers`). Two states alike in these
    and up to date with their reveals have nothing more to show."""
    return (
        tuple(h.position if h.playing else None for h in s.heroes.values()),
        tuple(m.position if m.alive and m.pub is not None else None for m in s.monsters.values()),
        tuple(d.open for d in s.doors.values()),
        tuple(s.fallen_blocks),
    )


def _reveal_what_the_heroes_see(ctx: Ctx) -> None:
    s, geo = ctx.s, ctx.geo
    board = ctx.board()
    whole: set[str] = set()
    glimpses: dict[str, set[Square]] = {}
    rooms = geo.room_areas

    def shown(sq: Square) -> bool:
        area = geo.area_of[sq]
        if area in whole or (area in s.areas and area not in s.glimpsed):
            return True
        return sq in glimpses.get(area, ()) or board.revealed_square(sq)

    for h in s.heroes.values():
        if not h.playing or h.position is None:
            continue
        own = geo.area_of.get(h.position)
        if own is not None and (own not in s.areas or own in s.glimpsed):
            whole.add(own)
        for areas, targets in geo.sight_groups(h.position):
            if all(a in whole or (a in s.areas and a not in s.glimpsed) for a in areas):
                continue  # every area these lines cross already shown whole: the quick answer
            for target in targets:
                squares = geo.seen_squares(h.position, target)
                if all(shown(sq) for sq in squares):
                    continue
                if board.sees(h.position, target):
                    for sq in squares:
                        area = geo.area_of[sq]
                        if area in rooms:
                            whole.add(area)
                        else:
                            glimpses.setdefault(area, set()).add(sq)
    for m in s.monsters.values():  # a revealed monster stays in view wherever it goes
        if m.alive and m.pub is not None and m.position is not None and not shown(m.position):
            area = geo.area_of[m.position]
            if area in rooms:
                whole.add(area)
            else:
                glimpses.setdefault(area, set()).add(m.position)
    for area in s.quest.areas:
        if area in whole:
            reveal_area(ctx, area)
        elif area in glimpses:
            glimpse_squares(ctx, area, glimpses[area])
