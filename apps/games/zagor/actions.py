"""Actions: frozen dataclasses, parsed from the JSON the platform passes (rules 4-10, 16).

Every action names the hero it is for (`"hero"`), so a seat sending another's is refused as
not its own. The JSON forms:

- `{"type": "move", "hero": h, "to": space}`
- `{"type": "buy", "hero": h, "item": name}`
- `{"type": "strike", "hero": h, "by": "hero" | "hireling"}` (a fight, a duel, Zagor)
- `{"type": "retreat", "hero": h}`
- `{"type": "attack_hero", "hero": h, "target": other}`
- `{"type": "surrender", "hero": h}`
- `{"type": "spoils", "hero": h, "take": "gold" | "chest" | "item" | "space" | "stay",
  "item": name | null}`
- `{"type": "cast", "hero": h, "spell": name, "target": hero | space | item | null}`
- `{"type": "use", "hero": h, "item": name, "target": space | null}`
- `{"type": "end_turn", "hero": h, "swap": spell | null}`
- `{"type": "set_surrender", "hero": h, "at": n}` (a private standing setting, rules 16.2)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from apps.games.port import Refusal, RefusalKind

from .data import HERO_ORDER


@dataclass(frozen=True)
class Action:
    type: str
    hero: str
    to: str | None = None
    item: str | None = None
    by: str | None = None
    target: str | None = None
    take: str | None = None
    spell: str | None = None
    swap: str | None = None
    at: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "hero": self.hero}
        for name in FIELDS[self.type]:
            out[name] = getattr(self, name)
        return out


FIELDS: dict[str, tuple[str, ...]] = {
    "move": ("to",),
    "buy": ("item",),
    "strike": ("by",),
    "retreat": (),
    "attack_hero": ("target",),
    "surrender": (),
    "spoils": ("take", "item"),
    "cast": ("spell", "target"),
    "use": ("item", "target"),
    "end_turn": ("swap",),
    "set_surrender": ("at",),
}
REQUIRED = {
    "move": ("to",),
    "buy": ("item",),
    "attack_hero": ("target",),
    "cast": ("spell",),
    "use": ("item",),
    "spoils": ("take",),
    "set_surrender": ("at",),
}


def malformed(reason: str) -> Refusal:
    return Refusal(RefusalKind.MALFORMED, reason)


def parse(data: Any) -> Action:
    if not isinstance(data, dict):
        raise malformed("An action is a JSON object.")
    kind = data.get("type")
    if kind not in FIELDS:
        raise malformed(f"Unknown action type {kind!r}.")
    hero = data.get("hero")
    if hero not in HERO_ORDER:
        raise malformed("The action must name a hero: barbarian, dwarf, warrior or wizard.")
    values: dict[str, Any] = {}
    for name in FIELDS[kind]:
        value = data.get(name)
        if name == "at":
            if not isinstance(value, int) or isinstance(value, bool):
                raise malformed("'at' must be a whole number.")
        elif value is not None and not isinstance(value, str):
            raise malformed(f"'{name}' must be text.")
        values[name] = value
    for name in REQUIRED.get(kind, ()):
        if values.get(name) is None:
            raise malformed(f"A {kind} action needs '{name}'.")
    if kind == "strike" and values["by"] is None:
        values["by"] = "hero"
    return Action(kind, hero, **values)
