"""The working context of one `apply`: the state being changed, dice and emitted events;
and the one-action-a-turn bookkeeping every hero action shares (search, disarm, cast, attack)."""

from __future__ import annotations

import bisect

from .board import Board
from .data import display_name, seat_of_hero
from .dice import Dice
from .events import Event
from .geometry import Geometry, geometry
from .state import LOG_SIZE, HeroState, MonsterState, State


class Ctx:
    def __init__(self, state: State, dice: Dice) -> None:
        self.s = state
        self.geo: Geometry = geometry(state.quest)
        self.dice = dice
        self.events: list[Event] = []
        self.end_turn = False  # the active hero's turn ends once the action is done

    def board(self) -> Board:
        """A fresh board (the state may have changed since the last one)."""
        return Board(self.s)

    def emit(self, event: Event) -> Event:
        self.s.seq += 1
        event["seq"] = self.s.seq
        if event.get("redacted") is not None:
            event["redacted"]["seq"] = self.s.seq
        self.events.append(event)
        self.s.log.append(event)
        if len(self.s.log) > LOG_SIZE:
            del self.s.log[: len(self.s.log) - LOG_SIZE]
        return event

    def emit_all(self, events: list[Event]) -> None:
        for e in events:
            self.emit(e)

    def hero_seat(self, hero: str) -> int:
        return seat_of_hero(self.s.seats, hero)

    def finish(self) -> None:
        self.s.rng = self.dice.rng


def hero_name(hero: HeroState | str) -> str:
    kind = hero if isinstance(hero, str) else hero.hero
    return display_name(kind)


ORDINALS = ("second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def monster_name(m: MonsterState, s: State, numbers: dict[str, int] | None = None) -> str:
    """'the orc', or 'the second orc' for the second orc the heroes have seen (never an id).

    A monster is numbered among the revealed monsters of its kind in the order they came into
    sight (public ids are given in that order), so a name once told never changes; a named
    monster keeps its name. Unrevealed monsters never appear in hero-visible text. `numbers`:
    `monster_numbers(s)`, for naming many monsters of one state.
    """
    if m.name:
        return m.name
    base = display_name(m.kind)
    number = monster_number(m, s) if numbers is None else numbers.get(m.key)
    if number is None or number == 1:
        return base
    word = ORDINALS[number - 2] if number - 1 <= len(ORDINALS) else f"number {number}"
    return f"the {word} {base.removeprefix('the ')}"


def monster_number(m: MonsterState, s: State) -> int | None:
    """The monster's number among the monsters of its kind the heroes have seen, in the order
    they came into sight (1 for the first orc, 2 for "the second orc"); None for a named monster
    or one the heroes have not seen. Counted from revealed monsters only, so it tells nothing
    of what is still hidden."""
    if m.name or m.pub is None:
        return None
    number = _pub_number(m.pub)
    return 1 + sum(
        1
        for o in s.monsters.values()
        if o.kind == m.kind and o.pub and not o.name and _pub_number(o.pub) < number
    )


def monster_numbers(s: State) -> dict[str, int]:
    """`monster_number` of every monster that has one, by key, in one pass over the state."""
    seen: dict[str, list[int]] = {}
    for o in s.monsters.values():
        if o.pub and not o.name:
            seen.setdefault(o.kind, []).append(_pub_number(o.pub))
    for numbers in seen.values():
        numbers.sort()
    return {
        m.key: 1 + bisect.bisect_left(seen.get(m.kind, []), _pub_number(m.pub))
        for m in s.monsters.values()
        if m.pub is not None and not m.name
    }


def _pub_number(pub: str) -> int:
    digits = pub.lstrip("abcdefghijklmnopqrstuvwxyz")
    return int(digits) if digits.isdigit() else 0


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def square_text(sq: tuple[int, int]) -> str:
    return f"({sq[0]}, {sq[1]})"


def main_action_used(s: State, hero: HeroState) -> str | None:
    if s.turn.has_acted:
        return f"{cap(hero_name(hero))} has already taken an action this turn."
    return None


def mark_acted(s: State) -> None:
    """Acting after moving forfeits the rest of the movement (never move-act-move)."""
    s.turn.has_acted = True
    if s.turn.hero is not None:
        s.heroes[s.turn.hero].acted_round = s.round
    if s.turn.has_moved:
        s.turn.movement_left = 0
