"""The spell draft, a room option (docs/rules.md 8): before the first turn the Wizard picks a
spell element, then the Elf picks one of the three left, and the Wizard takes the other two.

During the draft the game's phase is "draft" and `turn.hero` is the hero choosing. An `end_turn`
then (a timed-out turn) picks the first element still free, so a game never stalls here.
"""

from __future__ import annotations

from . import actions as A
from .board import Board
from .context import Ctx, cap, hero_name
from .data import HERO_ORDER, spells_of
from .events import make_event
from .state import State, TurnState
from .turns import start_hero_turn

ELEMENTS = ("air", "fire", "water", "earth")


def start_draft(ctx: Ctx) -> None:
    s = ctx.s
    s.heroes["wizard"].spells = []
    s.heroes["elf"].spells = []
    s.phase = "draft"
    s.turn = TurnState(hero="wizard")
    ctx.emit(
        make_event(
            "draft",
            "The spell draft: the Wizard chooses a spell element first.",
            hero="wizard",
        )
    )


def elements_left(s: State) -> list[str]:
    taken = {spell for h in ("elf", "wizard") for spell in s.heroes[h].spells}
    return [e for e in ELEMENTS if not set(spells_of(e)) & taken]


def draft_candidates(s: State) -> list[A.Action]:
    hero = s.turn.hero
    assert hero is not None
    return [A.ChooseSpells(hero, e) for e in elements_left(s)]


def check_choose(b: Board, a: A.ChooseSpells) -> str | None:
    if b.s.phase != "draft":
        return "The spell draft is over."
    if a.element not in elements_left(b.s):
        return f"The {a.element} spells are not free to choose."
    return None


def do_choose(ctx: Ctx, a: A.ChooseSpells) -> None:
    choose(ctx, a.hero, a.element)


def choose(ctx: Ctx, hero: str, element: str) -> None:
    s = ctx.s
    s.heroes[hero].spells.extend(spells_of(element))
    ctx.emit(
        make_event(
            "draft",
            f"{cap(hero_name(hero))} chooses the {element} spells.",
            hero=hero,
            element=element,
        )
    )
    if hero == "wizard" and not s.heroes["elf"].spells:
        s.turn = TurnState(hero="elf")
        return
    rest = elements_left(s)
    s.heroes["wizard"].spells.extend(spell for e in rest for spell in spells_of(e))
    ctx.emit(
        make_event(
            "draft",
            f"The Wizard takes the {' and '.join(rest)} spells.",
            hero="wizard",
            elements=rest,
        )
    )
    start_hero_turn(ctx, HERO_ORDER[0])


def end_draft_turn(ctx: Ctx) -> None:
    """A hero who lets the draft turn pass takes the first element still free."""
    hero = ctx.s.turn.hero
    assert hero is not None
    choose(ctx, hero, elements_left(ctx.s)[0])
