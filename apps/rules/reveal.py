"""Revealing areas and assigning public ids (docs/rules.md 4 and 13).

Public ids are handed out in the order things become visible to the heroes, so they say
nothing about what is still hidden.
"""

from __future__ import annotations

from .context import Ctx, monster_name
from .events import make_event
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
    """Reveal one area whole: its squares, furniture, visible doors and monsters."""
    s, geo = ctx.s, ctx.geo
    if area in s.areas:
        return
    s.areas[area] = new_pub(s, "a")
    for fid in geo.area_furniture[area]:
        s.furniture.setdefault(fid, new_pub(s, "f"))
    for door_id in geo.area_doors[area]:
        if not geo.doors[door_id].secret or s.doors[door_id].found:
            show_door(s, door_id)
    squares = set(geo.area_squares[area])
    found = []
    for m in s.monsters.values():
        if m.alive and m.pub is None and m.position in squares:
            show_monster(s, m)
            found.append(monster_name(m))
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


def update_reveals(ctx: Ctx) -> None:
    """Reveal every area a hero stands in or has line of sight to (revealed never shrinks).

    A sight line shows every square it passes through, so the areas it crosses on the way to a
    seen square are revealed too: whatever decides a hero's sight lines (walls, blocked squares,
    figures) is then always on revealed squares, known to the heroes."""
    s, geo = ctx.s, ctx.geo
    if len(s.areas) == len(geo.area_squares):
        return
    board = ctx.board()
    seen: set[str] = set()
    for h in s.heroes.values():
        if not h.playing or h.position is None:
            continue
        own = geo.area_of.get(h.position)
        if own is not None and own not in s.areas:
            seen.add(own)
        for target in geo.potentially_visible(h.position):
            areas = geo.seen_areas(h.position, target)
            if all(a in s.areas or a in seen for a in areas):
                continue
            if board.sees(h.position, target):
                seen.update(areas)
    for area in s.quest.areas:
        if area in seen:
            reveal_area(ctx, area)
