"""Round structure, turn passing and the end of the quest (docs/rules.md 2, 3, 9, 11)."""

from __future__ import annotations

from .board import Board
from .context import Ctx, cap, hero_name
from .data import HERO_ORDER
from .events import make_event
from .state import MonsterTurn, TurnState

LOST_TURN = {
    "dread_sleep": "is asleep under a Dread spell and loses this turn",
    "dread_tempest": "is caught in a Dread tempest and loses this turn",
}


def start_hero_turn(ctx: Ctx, hero: str) -> None:
    s = ctx.s
    s.phase = "heroes"
    s.turn = TurnState(hero=hero)
    h = s.heroes[hero]
    lost = next((e for e in LOST_TURN if e in h.effects), None)
    if lost is not None:  # a Dread spell takes this turn (docs/rules.md 8b); it counts as played
        h.effects.remove(lost)
        ctx.emit(make_event("turn_lost", f"{cap(hero_name(hero))} {LOST_TURN[lost]}.", hero=hero))
        end_hero_turn(ctx)
        return
    ctx.emit(make_event("turn", f"{cap(hero_name(hero))}'s turn.", hero=hero, round=s.round))


def first_hero_from(ctx: Ctx, start: int) -> str | None:
    for hero in HERO_ORDER[start:]:
        if ctx.s.heroes[hero].playing:
            return hero
    return None


def end_hero_turn(ctx: Ctx) -> None:
    """Finish the active hero's turn and pass to the next hero, or to Zargon."""
    s = ctx.s
    hero = s.turn.hero
    assert hero is not None
    h = s.heroes[hero]
    if h.playing:
        expire_turn_effects(ctx)
    nxt = first_hero_from(ctx, HERO_ORDER.index(hero) + 1)
    if nxt is None:
        start_monster_phase(ctx)
    else:
        start_hero_turn(ctx, nxt)


def expire_turn_effects(ctx: Ctx) -> None:
    s = ctx.s
    h = s.heroes[s.turn.hero or ""]
    if s.turn.has_moved:
        for effect in ("veil_of_mist", "pass_through_rock"):
            if effect in h.effects:
                h.effects.remove(effect)
    if "fear" in h.effects:  # Dread Fear lasts until the end of the hero's next turn
        h.effects.remove("fear")
        ctx.emit(
            make_event("effect_ends", f"{cap(hero_name(h))} shakes off the fear.", hero=h.hero)
        )
    # Courage lasts until the end of a turn of that hero in which no monster is visible
    in_sight = h.position is not None and Board(s).visible_monsters(h.position)
    if "courage" in h.effects and not in_sight:
        h.effects.remove("courage")
        ctx.emit(make_event("effect_ends", f"{cap(hero_name(h))}'s Courage fades.", hero=h.hero))


def activatable(ctx: Ctx) -> list[str]:
    return [
        m.key
        for m in ctx.s.monsters.values()
        if m.alive and m.pub is not None and not m.asleep and not m.tempest
    ]


def start_monster_phase(ctx: Ctx) -> None:
    s = ctx.s
    s.phase = "monsters"
    s.turn = TurnState()
    s.mturn = MonsterTurn()
    for m in s.monsters.values():
        m.activated = False
    if not activatable(ctx) and s.options.get("auto_skip_empty_monster_phase", True):
        ctx.emit(make_event("phase", "Zargon has no monster to command."))
        end_monster_phase(ctx)
        return
    ctx.emit(make_event("phase", "Zargon's turn: the monsters stir.", round=s.round))


def end_monster_phase(ctx: Ctx) -> None:
    s = ctx.s
    for m in s.monsters.values():
        # the monster phase just ended was the activation sleeping/tempest-struck ones lose
        m.asleep = False
        m.tempest = False
        m.activated = False
        m.only_attacks = None  # the round a wandering monster appeared in is over
    s.commands = {}  # Dread Command lasts for the phase it was cast in
    s.mturn = MonsterTurn()
    s.round += 1
    first = first_hero_from(ctx, 0)
    if first is None:  # cannot happen while the quest is running, kept for safety
        check_outcome(ctx)
        return
    start_hero_turn(ctx, first)


def check_outcome(ctx: Ctx) -> bool:
    """Decide the quest if it is over (docs/rules.md 11): "heroes", "retreat" or "zargon"."""
    s = ctx.s
    if s.outcome is not None:
        return True
    playing = [h for h in s.heroes.values() if h.playing]
    escaped = [h for h in s.heroes.values() if h.status == "escaped"]
    if playing:
        return False
    if escaped and s.villain_defeated:
        s.outcome = "heroes"
        text = "The heroes have escaped the dungeon. The heroes win!"
    elif escaped:
        s.outcome = "retreat"
        text = "The heroes have retreated up the stairway. The quest is unfinished: no reward."
    else:
        s.outcome = "zargon"
        text = "No hero remains standing. Zargon wins!"
    s.phase = "over"
    s.turn = TurnState()
    s.mturn = MonsterTurn()
    ctx.emit(make_event("quest_over", text, outcome=s.outcome))
    return True
