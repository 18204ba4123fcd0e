"""The game state: plain dataclasses that round-trip through JSON without loss.
Everything that changes during a quest lives here; the static map is the `Quest` (not
serialised: the JSON names the quest by slug). Internal ids are the quest file's ids; the public
ids heroes see (`m1`, `t1`, `d1`, `a1`, `f1`) are stored next to them once assigned.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from apps.games.fields import field_names

from .data import HERO_ORDER
from .quest import Quest, Square

_T = TypeVar("_T")

LOG_SIZE = 50  # events kept in the state for the views' log; the web layer keeps the full log


def sq_json(sq: Square | None) -> list[int] | None:
    return None if sq is None else [sq[0], sq[1]]


def sq_from(v: Any) -> Square | None:
    return None if v is None else (int(v[0]), int(v[1]))


# The values the engine's string fields take.
Phase = Literal["draft", "heroes", "monsters", "over"]
HeroStatus = Literal["playing", "fallen", "escaped"]
TrapCondition = Literal["armed", "sprung", "disarmed"]
Outcome = Literal["heroes", "zargon", "retreat"]  # retreat: escaped, the villain alive


@dataclass
class HeroState:
    hero: str
    name: str
    position: Square | None
    body: int
    body_max: int
    mind: int
    mind_max: int
    weapon: str
    armour: list[str] = field(default_factory=list)
    items: list[str] = field(default_factory=list)  # carried weapons, e.g. a crossbow
    spells: list[str] = field(default_factory=list)
    potions: int = 0
    gold: int = 0
    tool_kit: bool = False
    artifacts: list[str] = field(default_factory=list)
    auto_drink: bool = True
    drink_at: int = 0  # a standing rule: drink a potion at this Body or less (0: at death's door)
    on_timeout: str = "end_turn"  # a standing rule: what a timed-out turn does (SetOnTimeout)
    effects: list[str] = field(default_factory=list)
    status: HeroStatus = "playing"
    acted_round: int = 0  # the last round the hero took a main action (a healing spell at 0 Body)

    @property
    def playing(self) -> bool:
        return self.status == "playing"


@dataclass
class MonsterState:
    key: str  # quest monster id, or "wandering-N"
    kind: str
    position: Square | None
    body: int
    body_max: int
    pub: str | None = None  # public id once revealed
    alive: bool = True
    asleep: bool = False
    tempest: bool = False
    activated: bool = False
    only_attacks: str | None = None  # a wandering monster's searcher, for the round it appears
    dread_spells: list[str] = field(default_factory=list)  # not yet cast (docs/rules.md 8b)
    name: str | None = None  # a quest's named monster (its villain): "Vorgash the Cinder Lord"


@dataclass
class DoorState:
    open: bool = False
    found: bool = False  # secret doors only
    pub: str | None = None


@dataclass
class TrapState:
    state: TrapCondition = "armed"
    detected: bool = False
    pub: str | None = None


@dataclass
class TurnState:
    hero: str | None = None
    movement_rolled: bool = False
    movement_left: int = 0
    has_moved: bool = False
    has_acted: bool = False
    # a falling block came down on the hero, who came from this square: the hero must step
    # ahead or back before anything else (docs/rules.md 7)
    block_from: list[int] | None = None


@dataclass
class MonsterTurn:
    monster: str | None = None  # internal key of the monster being activated
    movement_left: int = 0
    has_moved: bool = False
    has_attacked: bool = False


@dataclass
class Drop:
    """A fallen hero's belongings, waiting for a living hero in the same area."""

    hero: str
    square: Square
    area: str
    gold: int = 0
    potions: int = 0
    tool_kit: bool = False
    artifacts: list[str] = field(default_factory=list)
    items: list[str] = field(default_factory=list)
    weapon: str = ""  # the wielded weapon and worn armour drop too (docs/rules.md 5)
    armour: list[str] = field(default_factory=list)


_SQUARE_FIELDS = {"position", "square"}


def _obj_json(obj: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in field_names(type(obj)):
        v = getattr(obj, name)
        if name in _SQUARE_FIELDS:
            v = sq_json(v)
        elif isinstance(v, list):
            v = list(v)
        out[name] = v
    return out


def _natural(key: str) -> tuple[str, int]:
    """ "wandering-12" -> ("wandering-", 12), so that 2 sorts before 10."""
    stem = key.rstrip("0123456789")
    digits = key[len(stem) :]
    return stem, int(digits) if digits else -1


def _canonical(d: dict[str, Any], order: list[str] | tuple[str, ...]) -> dict[str, Any]:
    """`d` with its keys in the engine's creation order, whatever order they arrived in.

    The engine iterates these dicts (which monster is revealed first gets `m1`), and stores such
    as PostgreSQL's jsonb do not keep object key order; so order comes from the quest, not input.
    """
    rank = {key: n for n, key in enumerate(order)}
    if _in_order(d, rank):  # as written (a state stored as text keeps its order): no sort
        return d
    return dict(sorted(d.items(), key=lambda kv: (rank.get(kv[0], len(rank)), _natural(kv[0]))))


def _in_order(d: dict[str, Any], rank: dict[str, int]) -> bool:
    """Are `d`'s keys in `_canonical`'s order already?"""
    last: tuple[int, tuple[str, int]] = (-1, ("", -1))
    for key in d:
        n = rank.get(key)
        place = (n, ("", -1)) if n is not None else (len(rank), _natural(key))
        if place < last:
            return False
        last = place
    return True


def _by_public_id(d: dict[str, str]) -> dict[str, str]:
    """Revealed things in the order they were revealed (their public ids count up)."""
    return dict(sorted(d.items(), key=lambda kv: _natural(kv[1])))


def _obj_from(cls: Any, d: dict[str, Any]) -> Any:
    kwargs = dict(d)
    for name in _SQUARE_FIELDS & kwargs.keys():
        kwargs[name] = sq_from(kwargs[name])
    return cls(**kwargs)


@dataclass
class State:
    quest: Quest = field(compare=False, repr=False)
    seats: int
    seed: int
    options: dict[str, Any]
    rng: int
    round: int = 1
    phase: Phase = "heroes"
    turn: TurnState = field(default_factory=TurnState)
    mturn: MonsterTurn = field(default_factory=MonsterTurn)
    heroes: dict[str, HeroState] = field(default_factory=dict)
    monsters: dict[str, MonsterState] = field(default_factory=dict)
    doors: dict[str, DoorState] = field(default_factory=dict)
    traps: dict[str, TrapState] = field(default_factory=dict)
    areas: dict[str, str] = field(default_factory=dict)  # revealed area -> public id
    # passages seen only from afar: the squares shown so far (docs/rules.md 4); an area in `areas`
    # but not here is revealed whole
    glimpsed: dict[str, list[Square]] = field(default_factory=dict)
    furniture: dict[str, str] = field(default_factory=dict)  # revealed furniture -> public id
    fallen_blocks: list[Square] = field(default_factory=list)
    searched: list[str] = field(default_factory=list)  # "hero:area" treasure searches done
    special_found: list[str] = field(default_factory=list)  # areas whose special was found
    deck: list[str] = field(default_factory=list)
    counters: dict[str, int] = field(default_factory=dict)  # next public/internal numbers
    drops: list[Drop] = field(default_factory=list)
    commands: dict[str, int] = field(default_factory=dict)  # Dread Command: hero -> squares left
    villain_defeated: bool = False
    outcome: Outcome | None = None
    seq: int = 0  # events emitted so far
    log: list[dict[str, Any]] = field(default_factory=list)  # the last LOG_SIZE events
    # What the heroes' sight depended on when the reveals were last brought up to date
    # (reveal.py `sight_inputs`): not stored, so a state read from text is brought up to date on
    # its next action.
    reveals_done_for: tuple[Any, ...] | None = field(default=None, compare=False, repr=False)

    # --- copying -----------------------------------------------------------------------------
    def clone(self) -> State:
        """A deep copy, written out by hand because `copy.deepcopy` is too slow for `apply`."""
        c = _shallow(self)
        c.turn = _shallow(self.turn)
        c.mturn = _shallow(self.mturn)
        c.heroes = {k: _clone_hero(h) for k, h in self.heroes.items()}
        c.monsters = {k: _clone_monster(m) for k, m in self.monsters.items()}
        c.doors = {k: _shallow(d) for k, d in self.doors.items()}
        c.traps = {k: _shallow(t) for k, t in self.traps.items()}
        c.areas = dict(self.areas)
        c.glimpsed = {k: list(v) for k, v in self.glimpsed.items()}
        c.furniture = dict(self.furniture)
        c.fallen_blocks = list(self.fallen_blocks)
        c.searched = list(self.searched)
        c.special_found = list(self.special_found)
        c.deck = list(self.deck)
        c.counters = dict(self.counters)
        c.drops = [copy.deepcopy(d) for d in self.drops]
        c.commands = dict(self.commands)
        c.log = list(self.log)  # events are never mutated once emitted
        c.options = self.options  # never mutated after new_game
        return c

    # --- JSON --------------------------------------------------------------------------------
    def for_text(self) -> dict[str, Any]:
        """`to_json`'s keys with the parts as they are (dataclass instances, squares as tuples),
        shared with this state: for JSON text written at once, never to keep.

        orjson writes a dataclass instance as its attributes in order, which for every part are
        exactly its fields (tests/games/heroquest/engine/test_json_and_replay.py), and a tuple as a
        list: the text is `to_json`'s, without a dict built for each part first (two thirds of
        storing a state, measured).
        """
        return {
            "quest": self.quest.slug,
            "seats": self.seats,
            "seed": self.seed,
            "options": self.options,
            "rng": format(self.rng, "x"),  # a string: 64-bit ints do not survive JS/JSON floats
            "round": self.round,
            "phase": self.phase,
            "turn": self.turn,
            "mturn": self.mturn,
            "heroes": self.heroes,
            "monsters": self.monsters,
            "doors": self.doors,
            "traps": self.traps,
            "areas": self.areas,
            "glimpsed": self.glimpsed,
            "furniture": self.furniture,
            "fallen_blocks": self.fallen_blocks,
            "searched": self.searched,
            "special_found": self.special_found,
            "deck": self.deck,
            "counters": self.counters,
            "drops": self.drops,
            "commands": self.commands,
            "villain_defeated": self.villain_defeated,
            "outcome": self.outcome,
            "seq": self.seq,
            "log": self.log,
        }

    def to_json(self) -> dict[str, Any]:
        """The state as plain JSON values, copied: `for_text`'s keys, in its order."""
        return self.for_text() | {
            "options": copy.deepcopy(self.options),
            "turn": _obj_json(self.turn),
            "mturn": _obj_json(self.mturn),
            "heroes": {k: _obj_json(h) for k, h in self.heroes.items()},
            "monsters": {k: _obj_json(m) for k, m in self.monsters.items()},
            "doors": {k: _obj_json(d) for k, d in self.doors.items()},
            "traps": {k: _obj_json(t) for k, t in self.traps.items()},
            "areas": dict(self.areas),
            "glimpsed": {k: [sq_json(sq) for sq in v] for k, v in self.glimpsed.items()},
            "furniture": dict(self.furniture),
            "fallen_blocks": [sq_json(s) for s in self.fallen_blocks],
            "searched": list(self.searched),
            "special_found": list(self.special_found),
            "deck": list(self.deck),
            "counters": dict(self.counters),
            "drops": [_obj_json(d) for d in self.drops],
            "commands": dict(self.commands),
            # Shared, as `clone` shares them: an event is never changed once emitted, and a deep
            # copy of the log was the dearest part of storing a state.
            "log": list(self.log),
        }

    @classmethod
    def from_json(cls, d: dict[str, Any], quest: Quest, *, copy_json: bool = True) -> State:
        """Rebuild a state on its quest (`load_quest`, or the quest text a game stored).

        `copy_json=False` when `d` was just decoded for this state alone (a database row, say):
        its options and log are then taken over instead of deep-copied.
        """
        keep = copy.deepcopy if copy_json else _same
        return cls(
            quest=quest,
            seats=d["seats"],
            seed=d["seed"],
            options=keep(d["options"]),
            rng=int(d["rng"], 16),
            round=d["round"],
            phase=d["phase"],
            turn=_obj_from(TurnState, d["turn"]),
            mturn=_obj_from(MonsterTurn, d["mturn"]),
            heroes={
                k: _obj_from(HeroState, v) for k, v in _canonical(d["heroes"], HERO_ORDER).items()
            },
            monsters={
                k: _obj_from(MonsterState, v)
                for k, v in _canonical(d["monsters"], [m.id for m in quest.monsters]).items()
            },
            doors={
                k: _obj_from(DoorState, v)
                for k, v in _canonical(d["doors"], [door.id for door in quest.doors]).items()
            },
            traps={
                k: _obj_from(TrapState, v)
                for k, v in _canonical(d["traps"], [t.id for t in quest.traps]).items()
            },
            areas=_by_public_id(d["areas"]),
            glimpsed={
                k: [(int(sq[0]), int(sq[1])) for sq in v]
                for k, v in _canonical(d.get("glimpsed", {}), list(quest.areas)).items()
            },
            furniture=_by_public_id(d["furniture"]),
            fallen_blocks=[s for s in map(sq_from, d["fallen_blocks"]) if s is not None],
            searched=list(d["searched"]),
            special_found=list(d["special_found"]),
            deck=list(d["deck"]),
            counters=dict(d["counters"]),
            drops=[_obj_from(Drop, v) for v in d["drops"]],
            commands=dict(_canonical(d.get("commands", {}), HERO_ORDER)),
            villain_defeated=d["villain_defeated"],
            outcome=d["outcome"],
            seq=d["seq"],
            log=keep(d["log"]),
        )

    # --- small queries used everywhere -------------------------------------------------------
    def next_number(self, counter: str) -> int:
        n = self.counters.get(counter, 0) + 1
        self.counters[counter] = n
        return n

    def living_monsters(self) -> list[MonsterState]:
        return [m for m in self.monsters.values() if m.alive]

    def monster_by_pub(self, pub: str) -> MonsterState | None:
        for m in self.monsters.values():
            if m.pub == pub and m.alive:
                return m
        return None


def _same(value: _T) -> _T:
    return value


def _shallow(obj: _T) -> _T:
    """A shallow copy of a plain dataclass instance (several times faster than copy.copy)."""
    c = object.__new__(type(obj))
    c.__dict__.update(obj.__dict__)
    return c


def _clone_hero(h: HeroState) -> HeroState:
    c = _shallow(h)
    c.armour = list(h.armour)
    c.items = list(h.items)
    c.spells = list(h.spells)
    c.artifacts = list(h.artifacts)
    c.effects = list(h.effects)
    return c


def _clone_monster(m: MonsterState) -> MonsterState:
    c = _shallow(m)
    c.dread_spells = list(m.dread_spells)
    return c
