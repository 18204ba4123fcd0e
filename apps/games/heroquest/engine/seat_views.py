"""What each seat may see (docs/rules.md 13): `seat_view`.

Hero seats get only revealed areas, revealed monsters, detected traps and found doors, public
ids only, and private hero fields for their own heroes. Zargon sees everything except heroes'
private fields, the treasure deck and the RNG; things not yet revealed carry a "z-" id that is
never shown to hero seats.

A spectator (`SPECTATOR_SEAT`, no seat at all) gets what every hero seat sees in common: the
heroes' board, no hero's private fields, no legal actions, and of the log only what is addressed
to everyone (the redacted form of anything addressed to some seats). It goes through the same
code as a hero seat, so what is hidden is decided here, once.
"""

from __future__ import annotations

from functools import cached_property
from operator import is_not
from typing import Any

from .actions import action_to_json
from .board import Board
from .combat import hero_attack_dice, hero_defend_dice, monster_attack_dice, monster_defend_dice
from .context import monster_name, monster_numbers
from .data import HERO_ORDER, SPECTATOR_SEAT, ZARGON_SEAT, heroes_of_seat, seat_of_hero
from .engine import legal_actions_on
from .events import Event, event_for_seat
from .geometry import Geometry
from .options import in_force, monster_stats
from .state import HeroState, MonsterState, State, sq_json


def seat_view(state: State, seat: int, parts: ViewParts | None = None) -> dict[str, Any]:
    """What `seat` sees of `state`. `parts`: what the views of this state share, worked out by an
    earlier view of it (only for a state never changed since: `ViewParts`)."""
    if parts is None:
        parts = ViewParts(state)
    zargon = seat == ZARGON_SEAT
    board = parts.board
    view: dict[str, Any] = {
        "seat": seat,
        "role": "zargon" if zargon else "spectator" if seat == SPECTATOR_SEAT else "hero",
        "heroes_owned": list(heroes_of_seat(state.seats, seat)),
        "round": state.round,
        "turn": turn_view(state),
        "quest": quest_view(state, zargon),
        "map": map_view(state, board, zargon, parts.map_inputs),
        "heroes": [
            hero_view(state, h, seat, public)
            for h, public in zip(state.heroes.values(), parts.heroes, strict=True)
        ],
        "monsters": parts.monsters(zargon),
        "belongings": [{"hero": d.hero, "square": sq_json(d.square)} for d in state.drops],
        "legal_actions": []
        if seat == SPECTATOR_SEAT
        else [action_to_json(a) for a in legal_actions_on(board, seat)],
        "log": parts.log(seat),
        "outcome": state.outcome,
        "options": in_force(state.options),  # the room options in force (docs/rules.md 3, 8, 9)
    }
    return view


class ViewParts:
    """The parts of a state's views that do not depend on the seat, worked out once for all the
    views of that state: the board's answers (lines of sight), and the monsters as the heroes
    and as Zargon see them (half of a view's work: each playing hero's sight of every revealed
    monster). On the action path one state gets two views, the acting seat's and a watcher's.

    Only for a state that is never changed once viewed (the platform's never are: a face never
    changes a state in place); the monster lists are shared by the views, which never change
    them."""

    def __init__(self, state: State, before: ViewParts | None = None) -> None:
        self.state = state
        self.board = Board(state)
        self._monsters: dict[bool, list[dict[str, Any]]] = {}
        # seat: the log as it sees it (what it is shown of each event of `state.log`, in order,
        # None for what it is not), then only what it is shown
        self._logs: dict[int, tuple[list[Event | None], list[Event]]] = {}
        # The log and its seats' forms of the state this one came from by one action (`before`):
        # the events they share keep their forms. Not `before` itself: a chain of states would
        # then be kept alive.
        self._before = (before.state.log, before._logs) if before is not None else None

    def log(self, seat: int) -> list[Event]:
        """The log as `seat` sees it: an event's form for a seat never changes, so the events this
        state's log shares with the state it came from keep the forms worked out for that one
        (most of a log's events: a state keeps the last `LOG_SIZE`, an action adds a few)."""
        kept = self._logs.get(seat)
        if kept is None:
            forms = self._forms_kept(seat)
            forms += [event_for_seat(event, seat) for event in self.state.log[len(forms) :]]
            kept = self._logs[seat] = (forms, [form for form in forms if form is not None])
        return kept[1]

    def _forms_kept(self, seat: int) -> list[Event | None]:
        """`seat`'s forms of the events at the start of this state's log that are the last events
        of the earlier state's log, the very same objects (an action only appends to the log and
        drops from its start); [] when there are none or the earlier state's seat was not viewed."""
        if self._before is None:
            return []
        log_before, logs_before = self._before
        kept = logs_before.get(seat)
        log = self.state.log
        if kept is None or not log or not log_before:
            return []
        first = log[0]
        start = next((n for n, event in enumerate(log_before) if event is first), None)
        if start is None:
            return []
        shared = log_before[start:]
        if len(shared) > len(log) or any(map(is_not, shared, log)):
            return []
        return kept[0][start:]

    def monsters(self, zargon: bool) -> list[dict[str, Any]]:
        kept = self._monsters.get(zargon)
        if kept is None:
            kept = self._monsters[zargon] = monsters_view(
                self.state, self.board, zargon, self.numbers, self.sight
            )
        return kept

    @cached_property
    def map_inputs(self) -> tuple[Any, ...]:
        return _map_inputs(self.state)

    @cached_property
    def heroes(self) -> list[dict[str, Any]]:
        """Every hero as every seat sees it (a seat's own heroes show more: `hero_view`)."""
        return [hero_public_view(self.state, self.board, h) for h in self.state.heroes.values()]

    @cached_property
    def numbers(self) -> dict[str, int]:
        return monster_numbers(self.state)

    @cached_property
    def sight(self) -> list[tuple[str, set[int]]]:
        """The monsters each playing hero sees, in turn order (by identity: two monsters may be
        alike as values)."""
        return [
            (h.hero, {id(seen) for seen in self.board.visible_monsters(h.position)})
            for h in self.state.heroes.values()
            if h.playing and h.position is not None
        ]


def zid(prefix: str, internal: str) -> str:
    return f"z-{prefix}-{internal}"


def turn_view(s: State) -> dict[str, Any]:
    t, mt = s.turn, s.mturn
    active = s.monsters.get(mt.monster) if mt.monster else None
    seat = None
    if s.phase == "heroes" and t.hero:
        seat = seat_of_hero(s.seats, t.hero)
    elif s.phase == "monsters":
        seat = ZARGON_SEAT
    return {
        "phase": s.phase,
        "hero": t.hero,
        "seat": seat,
        "movement_rolled": t.movement_rolled,
        "movement_left": t.movement_left,
        "has_moved": t.has_moved,
        "has_acted": t.has_acted,
        "active_monster": active.pub if active else None,
        "monster_movement_left": mt.movement_left if active else 0,
        "monster_has_attacked": mt.has_attacked if active else False,
    }


def quest_view(s: State, zargon: bool) -> dict[str, Any]:
    q = s.quest
    out: dict[str, Any] = {"name": q.name, "parchment": q.parchment}
    if zargon:
        out["notes"] = q.notes
        out["special_treasures"] = [
            {
                "area": s.areas.get(area, zid("a", area)),
                "name": st.name,
                "text": st.text,
                "found": area in s.special_found,
            }
            for area, st in q.special_treasures.items()
        ]
    return out


def area_id(s: State, area: str) -> str:
    return s.areas.get(area) or zid("a", area)


# The map part of a view, by game: (what it was built from, the map). Flat out, a view is built
# for Zargon and for the acting seat on every action, and the map (Zargon's has every square) was
# a third of the work; most actions change nothing it shows. Keyed by the quest's geometry, the
# game's seed and whether it is Zargon's: a slot only says where to look, `_map_inputs` says
# whether what is there may be shown. Shared, so never changed by a caller (the platform copies a
# view's top level only). Bounded: emptied whole when full (a slot is rebuilt on its next view);
# Zargon's map of the Ashen Vault is 81 KiB in memory (the heroes' grows to that), so 20 MB at most.
_MAPS: dict[tuple[Geometry, int, bool], tuple[tuple[Any, ...], dict[str, Any]]] = {}
MAPS_KEPT = 256  # two a game (Zargon's, everyone else's): 128 games in play at once


def _map_inputs(s: State) -> tuple[Any, ...]:
    """Every part of the state a map view is built from (besides the quest, which the slot's
    geometry fixes): two states alike in these have the same map views, for every seat."""
    return (
        tuple(s.areas.items()),
        tuple((area, tuple(squares)) for area, squares in s.glimpsed.items()),
        tuple(s.searched),
        tuple((door, ds.open, ds.found, ds.pub) for door, ds in s.doors.items()),
        tuple(s.fallen_blocks),
        tuple(s.furniture.items()),
        tuple((trap, ts.state, ts.detected, ts.pub) for trap, ts in s.traps.items()),
    )


def map_view(
    s: State, b: Board, zargon: bool, inputs: tuple[Any, ...] | None = None
) -> dict[str, Any]:
    """The map as Zargon (`zargon`) or the heroes see it, built again only when what it shows
    changed (`_map_inputs`, or `inputs` if worked out already)."""
    slot = (b.geo, s.seed, zargon)
    if inputs is None:
        inputs = _map_inputs(s)
    kept = _MAPS.get(slot)
    if kept is not None and kept[0] == inputs:
        return kept[1]
    view = build_map_view(s, b, zargon)
    if len(_MAPS) >= MAPS_KEPT:
        _MAPS.clear()
    _MAPS[slot] = (inputs, view)
    return view


def build_map_view(s: State, b: Board, zargon: bool) -> dict[str, Any]:
    geo = b.geo
    q = s.quest
    visible_areas = set(q.areas) if zargon else set(s.areas)
    return {
        "width": q.width,
        "height": q.height,
        "squares": squares_view(s, b, visible_areas, zargon),
        "areas": [
            {
                "id": area_id(s, a.id),
                "kind": a.kind,
                "name": a.name,
                "revealed": a.id in s.areas,
                "searched": searched_by(s, a.id),
            }
            for a in q.areas.values()
            if a.id in visible_areas
        ],
        "doors": doors_view(s, geo, zargon),
        "blocked": blocked_view(s, b, zargon),
        "stairway": [sq_json(sq) for sq in sorted(q.stairway) if zargon or b.revealed_square(sq)],
        "furniture": [
            {
                "id": s.furniture.get(f.id) or zid("f", f.id),
                "kind": f.kind,
                "squares": [sq_json(sq) for sq in f.squares],
            }
            for f in q.furniture
            if zargon or (f.squares and all(b.revealed_square(sq) for sq in f.squares))
        ],
        "traps": traps_view(s, geo, zargon),
    }


def searched_by(s: State, area: str) -> list[str]:
    """Heroes who searched the area for treasure, in turn order (every seat sees a search)."""
    done = set(s.searched)
    return [hero for hero in HERO_ORDER if f"{hero}:{area}" in done]


def squares_view(s: State, b: Board, areas: set[str], zargon: bool) -> list[dict[str, Any]]:
    """Hero seats get the squares shown to the heroes; Zargon every square, with a flag."""
    out: list[dict[str, Any]] = []
    for area in s.quest.areas:
        if area not in areas:
            continue
        aid = area_id(s, area)
        rows = b.geo.area_square_rows[area]
        glimpsed = set(s.glimpsed[area]) if area in s.glimpsed else None  # seen only in part
        if glimpsed is None and (zargon or area in s.areas):  # every square alike: fast
            revealed = area in s.areas
            out += [
                {
                    "x": x,
                    "y": y,
                    "area": aid,
                    "walls": walls if zargon or not secret else _walls_seen(s, walls, secret),
                    "revealed": revealed,
                }
                for _, x, y, walls, secret in rows
            ]
            continue
        for sq, x, y, walls, secret in rows:
            revealed = glimpsed is not None and sq in glimpsed
            if not revealed and not zargon:
                continue
            if secret and not zargon:
                walls = _walls_seen(s, walls, secret)
            out.append({"x": x, "y": y, "area": aid, "walls": walls, "revealed": revealed})
    return out


def _walls_seen(s: State, walls: str, secret: list[tuple[str, str]]) -> str:
    """A square's walls as the heroes see them: unfound secret doors look like wall."""
    hidden = {side for side, d in secret if not s.doors[d].found}
    return "".join(side for side in "NESW" if side in walls or side in hidden)


def doors_view(s: State, geo: Geometry, zargon: bool) -> list[dict[str, Any]]:
    out = []
    for door_id, ds in s.doors.items():
        if ds.pub is None and not zargon:
            continue
        door = geo.doors[door_id]
        out.append(
            {
                "id": ds.pub or zid("d", door_id),
                "between": [sq_json(door.a), sq_json(door.b)],
                "open": ds.open,
                "secret": door.secret,
                "found": ds.found or not door.secret,
                "locked_by": door.locked_by,  # the artifact that opens it, or None
            }
        )
    return out


def blocked_view(s: State, b: Board, zargon: bool) -> list[list[int] | None]:
    squares = set(b.geo.blocked) | set(s.fallen_blocks) if zargon else b.known_blocked
    return [sq_json(sq) for sq in sorted(squares)]


def traps_view(s: State, geo: Geometry, zargon: bool) -> list[dict[str, Any]]:
    out = []
    for trap_id, ts in s.traps.items():
        if ts.pub is None and not zargon:
            continue
        trap = geo.traps[trap_id]
        furniture = None
        if trap.furniture is not None:
            furniture = s.furniture.get(trap.furniture) or zid("f", trap.furniture)
        out.append(
            {
                "id": ts.pub or zid("t", trap_id),
                "kind": trap.kind,
                "square": sq_json(trap.square),
                "furniture": furniture,
                "state": ts.state,
                "detected": ts.detected,
            }
        )
    return out


def hero_view(s: State, h: HeroState, seat: int, public: dict[str, Any]) -> dict[str, Any]:
    """The hero as `seat` sees it: `public` (`hero_public_view`, shared, so copied before it
    grows), and its private fields for the seat that plays it."""
    if seat == ZARGON_SEAT or h.hero not in heroes_of_seat(s.seats, seat):
        return public
    return public | {
        "spells": list(h.spells),
        "potions": h.potions,
        "gold": h.gold,
        "tool_kit": h.tool_kit,
        "artifacts": list(h.artifacts),
        "items": list(h.items),
        "auto_drink": h.auto_drink,
        "drink_at": h.drink_at,
        "on_timeout": h.on_timeout,
    }


def hero_public_view(s: State, b: Board, h: HeroState) -> dict[str, Any]:
    return {
        "hero": h.hero,
        "name": h.name,
        "seat": seat_of_hero(s.seats, h.hero),
        "position": sq_json(h.position),
        "status": h.status,
        "body": h.body,
        "body_max": h.body_max,
        "mind": h.mind,
        "mind_max": h.mind_max,
        "attack": hero_attack_dice(b, h) if h.playing else 0,
        "defend": hero_defend_dice(b, h) if h.playing else 0,
        "weapon": h.weapon or None,  # None: bare-handed (a thrown weapon is lost)
        "armour": list(h.armour),
        "in_pit": b.in_pit(h.position),
        "effects": list(h.effects),
    }


def monsters_view(
    s: State,
    board: Board,
    zargon: bool,
    numbers: dict[str, int],
    sight: list[tuple[str, set[int]]],
) -> list[dict[str, Any]]:
    out = []
    for m in s.monsters.values():
        if not m.alive or (m.pub is None and not zargon):
            continue
        out.append(monster_view(s, board, m, zargon, numbers, sight))
    return out


def in_sight_of(m: MonsterState, sight: list[tuple[str, set[int]]]) -> list[str]:
    """The playing heroes with a line of sight to a revealed monster, in turn order."""
    if m.pub is None:
        return []
    return [hero for hero, seen in sight if id(m) in seen]


def monster_view(
    s: State,
    b: Board,
    m: MonsterState,
    zargon: bool,
    numbers: dict[str, int],
    sight: list[tuple[str, set[int]]],
) -> dict[str, Any]:
    """A monster and its stat card (docs/rules.md 9; attack and defend as it rolls them now)."""
    stats = monster_stats(s, m)  # a villain's own, the edition's
    out: dict[str, Any] = {
        "id": m.pub or zid("m", m.key),
        "kind": m.kind,
        # How the story names it ("the orc", "the second orc", a villain's own name) and its
        # number among the monsters of its kind the heroes have seen (None: named, or unseen):
        # what the page shows instead of an id.
        "name": monster_name(m, s, numbers),
        "number": numbers.get(m.key),
        "position": sq_json(m.position),
        "body": m.body,
        "body_max": m.body_max,
        "asleep": m.asleep,
        "tempest": m.tempest,
        "activated": m.activated,
        "move": stats.move,
        "attack": monster_attack_dice(b, m),
        "defend": monster_defend_dice(b, m),
        "mind": stats.mind,
        # The heroes who see it now (docs/rules.md 4): what the heroes know, from revealed things.
        "in_sight_of": in_sight_of(m, sight),
    }
    if zargon:  # which monster holds which Dread spells is Zargon's secret (docs/rules.md 8b)
        out["revealed"] = m.pub is not None
        out["dread_spells"] = list(m.dread_spells)
    return out
