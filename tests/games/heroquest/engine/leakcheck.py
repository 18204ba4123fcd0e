"""Checks that a hero seat's view and events hold nothing it may not see (docs/rules.md 13)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from apps.games.heroquest.engine import SPECTATOR_SEAT, State, seat_view
from apps.games.heroquest.engine.data import heroes_of_seat

PRIVATE_HERO_FIELDS = {
    "spells",
    "potions",
    "gold",
    "tool_kit",
    "artifacts",
    "items",
    "auto_drink",
    "drink_at",
    "on_timeout",
}
FORBIDDEN_KEYS = {"deck", "rng", "seed", "notes", "special_treasures"}


def walk(value: Any) -> Iterator[tuple[str | None, Any]]:
    """Every (key, value) pair and bare value in a JSON structure."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield k, v
            yield from walk(v)
    elif isinstance(value, list):
        for v in value:
            yield None, v
            yield from walk(v)


def hidden_ids(s: State) -> set[str]:
    """Internal ids of everything still hidden from the heroes."""
    q = s.quest
    ids = {m.key for m in s.monsters.values() if m.pub is None}
    ids |= {t for t, ts in s.traps.items() if ts.pub is None}
    ids |= {d for d, ds in s.doors.items() if ds.pub is None}
    ids |= {a for a in q.areas if a not in s.areas}
    return {i for i in ids if len(i) > 2}  # one-letter test area ids would match anything


def hidden_area_names(s: State) -> set[str]:
    """Names of the areas the heroes have not revealed (they must appear in no text); the
    Ashen Vault's last room shares the quest's name, which every seat reads."""
    return {a.name for a in s.quest.areas.values() if a.id not in s.areas} - {s.quest.name}


def assert_hero_view_clean(s: State, seat: int, view: dict[str, Any]) -> None:
    hidden = hidden_ids(s)
    names = hidden_area_names(s)
    for key, value in walk(view):
        assert key not in FORBIDDEN_KEYS, f"seat {seat} sees {key}"
        if isinstance(value, str):
            assert not value.startswith("z-"), f"seat {seat} sees hidden id {value}"
            assert value not in hidden, f"seat {seat} sees hidden {value}"
            assert not [n for n in names if n in value], f"seat {seat} reads {value!r}"
    revealed_areas = set(s.areas.values())
    assert {sq["area"] for sq in view["map"]["squares"]} <= revealed_areas
    assert {a["id"] for a in view["map"]["areas"]} <= revealed_areas
    public_monsters = {m.pub for m in s.monsters.values() if m.alive and m.pub}
    assert {m["id"] for m in view["monsters"]} == public_monsters
    detected = {ts.pub for ts in s.traps.values() if ts.pub}
    assert {t["id"] for t in view["map"]["traps"]} <= detected
    assert all(t["detected"] for t in view["map"]["traps"])
    visible_doors = {ds.pub for ds in s.doors.values() if ds.pub}
    assert {d["id"] for d in view["map"]["doors"]} <= visible_doors
    owned = set(heroes_of_seat(s.seats, seat))
    for h in view["heroes"]:
        if h["hero"] not in owned:
            assert not PRIVATE_HERO_FIELDS & set(h), f"seat {seat} sees {h['hero']}'s inventory"


def assert_event_clean(s: State, seat: int, event: dict[str, Any] | None) -> None:
    if event is None:
        return
    hidden = hidden_ids(s)
    names = hidden_area_names(s)
    owned = set(heroes_of_seat(s.seats, seat))
    for key, value in walk(event):
        assert key not in FORBIDDEN_KEYS | {"audience", "redacted"}
        if isinstance(value, str):
            assert not value.startswith("z-") and value not in hidden
            assert not [n for n in names if n in value], f"seat {seat} reads {value!r}"
    if event["type"] == "search" and event.get("hero") not in owned:
        assert event.get("find") in (None, "treasure", "hazard", "wandering_monster")


# What differs between hero seats by right: who looks, what it may do, its own heroes' privates.
SEAT_OWN_KEYS = {"seat", "role", "heroes_owned", "legal_actions", "log"}


def common_part(view: dict[str, Any]) -> dict[str, Any]:
    """A view without what belongs to the seat looking: what all hero seats must share."""
    out = {k: v for k, v in view.items() if k not in SEAT_OWN_KEYS}
    out["heroes"] = [
        {k: v for k, v in h.items() if k not in PRIVATE_HERO_FIELDS} for h in view["heroes"]
    ]
    return out


def assert_spectator_view_clean(
    s: State, view: dict[str, Any], hero_views: dict[int, dict[str, Any]] | None = None
) -> None:
    """A spectator sees what every hero seat sees in common, and nothing private to any seat:
    the heroes' board, no inventories, no actions, and only log entries every hero seat has
    too, each either word for word or a redacted form with no field the seat's entry lacks."""
    assert_hero_view_clean(s, SPECTATOR_SEAT, view)
    assert view["role"] == "spectator" and view["heroes_owned"] == []
    assert view["legal_actions"] == []
    assert all(not PRIVATE_HERO_FIELDS & set(h) for h in view["heroes"])
    for seat in range(2, s.seats + 1):
        hero_view = hero_views[seat] if hero_views else seat_view(s, seat)
        assert common_part(view) == common_part(hero_view), f"seat {seat} sees another board"
        hero_log = {e["seq"]: e for e in hero_view["log"]}
        for entry in view["log"]:
            theirs = hero_log.get(entry["seq"])
            assert theirs is not None, f"seat {seat} has no entry {entry}"
            assert entry == theirs or set(entry) <= set(theirs), (seat, entry, theirs)


# Keys under which an event names a monster, and under which it names a square.
MONSTER_KEYS = {"monster", "target", "attacker"}
SQUARE_KEYS = {"to", "square", "from", "at"}


def _is_square(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value)


def assert_event_within_view(
    s: State, seat: int, event: dict[str, Any] | None, view: dict[str, Any]
) -> None:
    """Whatever a hero seat (or a spectator) reads of an event, full or redacted, names only
    what its view shows: a monster by a public id the heroes were given (never an unnamed one,
    None, or the generic "monster" die), a square the heroes' map shows (docs/rules.md 13)."""
    if event is None:
        return
    heroes = set(s.heroes)
    known = {m.pub for m in s.monsters.values() if m.pub}  # seen, alive or defeated since
    shown = {(sq["x"], sq["y"]) for sq in view["map"]["squares"] if sq["revealed"]}
    for key, value in walk(event):
        if key in MONSTER_KEYS and event.get("type") != "spell":
            assert value in known | heroes, f"seat {seat} reads of an unseen monster: {event}"
        if key == "who":
            assert value in known | heroes | {"trap"}, f"seat {seat} sees an unseen roll: {event}"
        if key in SQUARE_KEYS and _is_square(value):
            assert tuple(value) in shown, f"seat {seat} reads of a square it has not seen: {event}"
