"""Events: plain dicts with an audience and a redacted form (docs/zagor/rules.md 13, 17).

`audience` is "all" or a list of seats; `redacted` is what every other seat sees (or None:
nothing). A spectator sees only what is addressed to all (or a redacted form).
"""

from __future__ import annotations

from typing import Any

from .data import SPECTATOR_SEAT

Event = dict[str, Any]


def d10_dice(values: list[int], who: str) -> dict[str, Any]:
    return {"kind": "d10", "values": list(values), "who": who}


def in_audience(audience: Any, seat: int) -> bool:
    if audience == "all":
        return True
    if seat == SPECTATOR_SEAT:
        return False
    return isinstance(audience, list) and seat in audience


def event_for_seat(event: Event, seat: int) -> Event | None:
    if in_audience(event["audience"], seat):
        return {k: v for k, v in event.items() if k not in ("audience", "redacted")}
    redacted = event.get("redacted")
    if redacted is None:
        return None
    out = dict(redacted)
    out.setdefault("seq", event.get("seq"))
    out.setdefault("type", event["type"])
    out.setdefault("dice", [])
    return out


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"
