"""The working context of one `apply`: the state being changed, dice and emitted events;
and the one-action-a-turn bookkeeping every hero action shares (search, disarm, cast, attack)."""

from __future__ import annotations

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


def monster_name(m: MonsterState) -> str:
    """'the orc (m3)'; unrevealed monsters never appear in hero-visible text."""
    base = m.name or display_name(m.kind)
    return f"{base} ({m.pub})" if m.pub else base


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
