"""Events: plain dicts with an audience and a redacted form (docs/engine-api.md, Events)."""

from __future__ import annotations

from typing import Any

from .data import SPECTATOR_SEAT, ZARGON_SEAT

Event = dict[str, Any]
Audience = str | list[int]  # "all" | "zargon" | [seats]


def make_event(
    type_: str,
    text: str,
    *,
    audience: Audience = "all",
    dice: list[dict[str, Any]] | None = None,
    redacted: Event | None = None,
    **extra: Any,
) -> Event:
    event: Event = {
        "type": type_,
        "text": text,
        "audience": audience,
        "dice": dice or [],
        "redacted": redacted,
    }
    event.update(extra)
    return event


def combat_dice(faces: list[str], who: str) -> dict[str, Any]:
    return {"kind": "combat", "faces": list(faces), "who": who}


def red_dice(values: list[int], who: str) -> dict[str, Any]:
    return {"kind": "red", "values": list(values), "who": who}


def in_audience(audience: Audience, seat: int) -> bool:
    if audience == "all":
        return True
    if seat == SPECTATOR_SEAT:  # nothing addressed to some seats only reaches a spectator
        return False
    if audience == "zargon":
        return seat == ZARGON_SEAT
    return isinstance(audience, list) and seat in audience


def event_for_seat(event: Event, seat: int) -> Event | None:
    """The event as `seat` may see it: the full form, the redacted form, or None."""
    if in_audience(event["audience"], seat):
        out = dict(event)  # copied whole, then two keys dropped: cheaper than a comprehension
        del out["audience"]
        out.pop("redacted", None)
        return out
    redacted = event.get("redacted")
    if redacted is None:
        return None
    out = dict(redacted)
    out.setdefault("seq", event.get("seq"))
    out.setdefault("type", event["type"])
    out.setdefault("dice", [])
    return out


def faces_text(faces: list[str]) -> str:
    """['skull', 'skull', 'white_shield'] -> '2 skulls and 1 white shield'."""
    if not faces:
        return "no dice"
    parts = []
    for face, label in (
        ("skull", "skull"),
        ("white_shield", "white shield"),
        ("black_shield", "black shield"),
    ):
        n = faces.count(face)
        if n:
            parts.append(f"{n} {label}{'s' if n > 1 else ''}")
    return " and ".join(parts)


def count_text(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"
