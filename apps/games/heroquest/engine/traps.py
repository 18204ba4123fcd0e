"""Traps: springing, disarming and jumping (docs/rules.md 7)."""

from __future__ import annotations

from . import actions as A
from .board import Board
from .combat import body_lost, damage_hero
from .context import Ctx, cap, hero_name, main_action_used, mark_acted, square_text
from .events import Event, combat_dice, count_text, faces_text, make_event
from .geometry import ORTHOGONAL, is_orthogonal_neighbour, step
from .quest import Square
from .reveal import show_trap
from .state import HeroState, State

FALLING_BLOCK_DICE = 3
TRAP_NAMES = {
    "pit": "pit trap",
    "falling_block": "falling block trap",
    "spear": "spear trap",
    "chest": "trap",
}


def enter_square(ctx: Ctx, h: HeroState, sq: Square, came_from: Square) -> None:
    """A hero has just stepped onto `sq`: spring an armed trap there, or fall into an open pit."""
    trap_id = ctx.geo.trap_at.get(sq)
    if trap_id is None:
        return
    ts = ctx.s.traps[trap_id]
    kind = ctx.geo.traps[trap_id].kind
    if ts.state == "armed":
        spring_trap(ctx, trap_id, h, on_square=True, came_from=came_from)
    elif ts.state == "sprung" and kind == "pit":
        ctx.s.turn.movement_left = 0
        follow = damage_hero(ctx, h, 1)
        ctx.emit(
            make_event(
                "trap",
                f"{cap(hero_name(h))} climbs down into the open pit and loses 1 Body.",
                hero=h.hero,
                trap=ts.pub,
            )
        )
        ctx.emit_all(follow)


def spring_trap(
    ctx: Ctx, trap_id: str, h: HeroState, on_square: bool, came_from: Square | None = None
) -> None:
    """Spring a trap on a hero. `on_square`: the hero stands on it (entered or failed a jump);
    otherwise it went off while being disarmed or searched, and the hero stays put."""
    s = ctx.s
    trap = ctx.geo.traps[trap_id]
    ts = s.traps[trap_id]
    ts.state = "sprung"
    show_trap(s, trap_id)  # a sprung trap is known to everyone
    if trap.kind != "chest":
        s.turn.movement_left = 0 if on_square else s.turn.movement_left
    name = cap(hero_name(h))
    dice: list[dict[str, object]] = []
    if trap.kind == "pit":
        loss = 1
        text = f"{name} springs a pit trap and falls in: 1 Body lost."
    elif trap.kind == "spear":
        faces = ctx.dice.combats(1)
        loss = faces.count("skull")
        dice = [combat_dice(faces, "trap")]
        shown = body_lost(h.body, loss)
        text = f"A spear thrusts out at {hero_name(h)}: {faces_text(faces)}; "
        text += f"{count_text(shown, 'Body')} lost." if shown else "no harm done."
    elif trap.kind == "falling_block":
        faces = ctx.dice.combats(FALLING_BLOCK_DICE)
        loss = faces.count("skull")
        dice = [combat_dice(faces, "trap")]
        assert trap.square is not None
        s.fallen_blocks.append(trap.square)
        text = (
            f"The ceiling caves in on {hero_name(h)}: {faces_text(faces)}; "
            f"{body_lost(h.body, loss)} Body lost. The square is blocked for good."
        )
        if on_square and came_from is not None:
            s.turn.block_from = [came_from[0], came_from[1]]
            text += f" {name} must step ahead or back."
    else:
        loss = trap.damage
        shown = body_lost(h.body, loss)
        text = f"A trap on the furniture springs on {hero_name(h)}: {shown} Body lost."
        ctx.end_turn = True
    lost = body_lost(h.body, loss)
    follow: list[Event] = damage_hero(ctx, h, loss)
    ctx.emit(
        make_event("trap", text, dice=dice, hero=h.hero, trap=ts.pub, kind=trap.kind, lost=lost)
    )
    ctx.emit_all(follow)


# --- stepping off a falling block --------------------------------------------------------------
def block_pending(s: State) -> bool:
    """Must the active hero step off a falling block before doing anything else?"""
    hero = s.heroes.get(s.turn.hero or "")
    return (
        s.turn.block_from is not None
        and hero is not None
        and hero.playing
        and hero.position in s.fallen_blocks
    )


def block_exits(b: Board, h: HeroState) -> list[Square]:
    """Where the hero under a fallen block may go: back to the square they came from, or
    ahead to the free square beyond the block (docs/rules.md 7)."""
    came = b.s.turn.block_from
    pos = h.position
    if came is None or pos is None:
        return []
    back = (came[0], came[1])
    dx, dy = pos[0] - back[0], pos[1] - back[1]
    ahead = (pos[0] + (dx > 0) - (dx < 0), pos[1] + (dy > 0) - (dy < 0))
    out = []
    for sq in (ahead, back):
        reachable = sq == back or (b.geo.in_grid(sq) and b.edge_open(pos, sq))
        if reachable and b.free(sq) and b.revealed_square(sq):
            out.append(sq)
    return out


def check_leave_block(b: Board, a: A.LeaveBlock) -> str | None:
    if not block_pending(b.s) or b.s.turn.hero != a.hero:
        return "There is no fallen block to step off."
    if a.to not in block_exits(b, b.s.heroes[a.hero]):
        return "Step ahead past the block or back to where the hero came from."
    return None


def do_leave_block(ctx: Ctx, a: A.LeaveBlock) -> None:
    h = ctx.s.heroes[a.hero]
    ctx.s.turn.block_from = None
    ctx.s.turn.movement_left = 0
    h.position = a.to
    ctx.emit(
        make_event(
            "move",
            f"{cap(hero_name(h))} scrambles clear of the fallen block to {square_text(a.to)}.",
            hero=h.hero,
            to=[a.to[0], a.to[1]],
        )
    )


# --- disarm ------------------------------------------------------------------------------------
def trap_by_pub(s: State, pub: str) -> str | None:
    return next((t for t, ts in s.traps.items() if ts.pub == pub), None)


def disarm_reach(b: Board, h: HeroState, trap_id: str) -> bool:
    """Is the trap on a square next to the hero, or on furniture the hero stands next to?"""
    trap = b.geo.traps[trap_id]
    pos = h.position
    assert pos is not None
    if trap.square is not None:
        return is_orthogonal_neighbour(pos, trap.square) and b.edge_open(pos, trap.square)
    furniture = b.geo.furniture.get(trap.furniture or "")
    if furniture is None:
        return False
    return any(
        is_orthogonal_neighbour(pos, sq) and b.edge_open(pos, sq) for sq in furniture.squares
    )


def check_disarm(b: Board, a: A.Disarm) -> str | None:
    s = b.s
    h = s.heroes[a.hero]
    reason = main_action_used(s, h)
    if reason:
        return reason
    trap_id = trap_by_pub(s, a.trap)
    if trap_id is None:
        return "There is no such trap."
    if s.traps[trap_id].state != "armed":
        return "That trap can no longer be disarmed."
    if h.hero != "dwarf" and not h.tool_kit:
        return "Only the Dwarf, or a hero with a tool kit, can disarm traps."
    if not disarm_reach(b, h, trap_id):
        return "The trap must be next to the hero."
    square = b.geo.traps[trap_id].square
    if square is not None and b.occupied(square):
        return "Someone stands on the trap."
    return None


def do_disarm(ctx: Ctx, a: A.Disarm) -> None:
    s = ctx.s
    h = s.heroes[a.hero]
    trap_id = trap_by_pub(s, a.trap)
    assert trap_id is not None
    mark_acted(s)
    face = ctx.dice.combat()
    failed = face == ("black_shield" if h.hero == "dwarf" else "skull")
    verdict = "fails!" if failed else "succeeds."
    ctx.emit(
        make_event(
            "disarm",
            f"{cap(hero_name(h))} tries to disarm the {TRAP_NAMES[ctx.geo.traps[trap_id].kind]}: "
            f"{faces_text([face])}; {verdict}",
            dice=[combat_dice([face], h.hero)],
            hero=h.hero,
            trap=a.trap,
            success=not failed,
        )
    )
    if failed:
        spring_trap(ctx, trap_id, h, on_square=False)
    else:
        s.traps[trap_id].state = "disarmed"


# --- jump --------------------------------------------------------------------------------------
def jumpable(s: State, b: Board, trap_id: str) -> bool:
    trap = b.geo.traps[trap_id]
    ts = s.traps[trap_id]
    if trap.square is None:
        return False
    if ts.state == "armed":
        return ts.detected
    return ts.state == "sprung" and trap.kind == "pit"


def landing_squares(b: Board, pos: Square, trap_sq: Square) -> list[Square]:
    """Free squares beyond a trap: straight on or to either side of it."""
    out = []
    for d in ORTHOGONAL:
        land = step(trap_sq, d)
        if land != pos and b.edge_open(trap_sq, land) and b.free(land) and b.revealed_square(land):
            out.append(land)
    return out


def check_jump(b: Board, a: A.Jump) -> str | None:
    s = b.s
    h = s.heroes[a.hero]
    trap_id = trap_by_pub(s, a.trap)
    if trap_id is None or not jumpable(s, b, trap_id):
        return "There is no trap there that can be jumped."
    if not s.turn.movement_rolled:
        return "Roll for movement first."
    if s.turn.movement_left < 2:
        return "Jumping a trap needs 2 movement."
    trap_sq = b.geo.traps[trap_id].square
    pos = h.position
    assert trap_sq is not None and pos is not None
    if not (is_orthogonal_neighbour(pos, trap_sq) and b.edge_open(pos, trap_sq)):
        return "The trap must be next to the hero."
    if b.occupied(trap_sq):
        return "Someone stands on the trap."
    if a.to not in landing_squares(b, pos, trap_sq):
        return "There is no free square to land on there."
    return None


def jump_candidates(b: Board, h: HeroState) -> list[A.Jump]:
    out: list[A.Jump] = []
    pos = h.position
    assert pos is not None
    for trap_id, ts in b.s.traps.items():
        trap_sq = b.geo.traps[trap_id].square
        if ts.pub and trap_sq and is_orthogonal_neighbour(pos, trap_sq):
            out.extend(A.Jump(h.hero, ts.pub, land) for land in landing_squares(b, pos, trap_sq))
    return out


def do_jump(ctx: Ctx, a: A.Jump) -> None:
    s = ctx.s
    h = s.heroes[a.hero]
    trap_id = trap_by_pub(s, a.trap)
    assert trap_id is not None and h.position is not None
    trap_sq = ctx.geo.traps[trap_id].square
    assert trap_sq is not None
    origin = h.position
    s.turn.has_moved = True
    face = ctx.dice.combat()
    name = cap(hero_name(h))
    trap = TRAP_NAMES[ctx.geo.traps[trap_id].kind]  # named by its kind, never by its id
    if face != "skull":
        s.turn.movement_left -= 2
        h.position = a.to
        ctx.emit(
            make_event(
                "jump",
                f"{name} jumps the {trap}: {faces_text([face])}; lands safely on "
                f"{square_text(a.to)}.",
                dice=[combat_dice([face], h.hero)],
                hero=h.hero,
                success=True,
                to=[a.to[0], a.to[1]],
            )
        )
        enter_square(ctx, h, a.to, origin)
        return
    ctx.emit(
        make_event(
            "jump",
            f"{name} tries to jump the {trap}: {faces_text([face])}; and falls short!",
            dice=[combat_dice([face], h.hero)],
            hero=h.hero,
            success=False,
        )
    )
    s.turn.movement_left = 0
    h.position = trap_sq
    if s.traps[trap_id].state == "armed":
        spring_trap(ctx, trap_id, h, on_square=True, came_from=origin)
    else:
        enter_square(ctx, h, trap_sq, origin)
