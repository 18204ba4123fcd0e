"""The working context of one action: the new state, the dice and the events it produces."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .dice import Dice
from .events import Event, d10_dice
from .state import Hero, State


class Ctx:
    def __init__(self, state: State, forced: Mapping[str, Sequence[int]] | None = None) -> None:
        self.s = state
        self.dice = Dice(state.rng, forced)
        self.events: list[Event] = []

    def emit(
        self,
        type_: str,
        text: str,
        *,
        audience: str | list[int] = "all",
        redacted: Event | None = None,
        dice: list[dict[str, Any]] | None = None,
        **extra: Any,
    ) -> Event:
        self.s.seq += 1
        event: Event = {
            "type": type_,
            "text": text,
            "audience": audience,
            "redacted": redacted,
            "dice": dice or [],
            "seq": self.s.seq,
        }
        event.update(extra)
        self.events.append(event)
        return event

    def voice(self, words: str, **extra: Any) -> Event:
        """An announcement of the voice of Zagor, heard by all (rules 13.1)."""
        self.s.last_voice = words
        return self.emit("voice", f"Zagor: {words}", **extra)

    def private(self, who: Hero, type_: str, text: str, public_text: str, **extra: Any) -> None:
        """An event only `who`'s seat reads in full; the others read `public_text`."""
        self.emit(
            type_,
            text,
            audience=[who.seat],
            redacted={"type": type_, "text": public_text},
            **extra,
        )

    def roll(self, who: str) -> tuple[int, dict[str, Any]]:
        """A d10 and its dice entry for the event that shows it."""
        value = self.dice.d10()
        return value, d10_dice([value], who)

    def finish(self) -> None:
        self.s.rng = self.dice.rng
