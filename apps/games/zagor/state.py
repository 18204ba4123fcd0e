"""The game state: plain dataclasses that round-trip through JSON without loss.

Everything hidden lives here too (tile faces, the deck's order, chest contents, spell hands):
`views.py` decides what each seat sees. Internal ids are board space ids and chest card numbers;
neither says anything about a hidden thing's content.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from apps.games.fields import field_names

from .board import board
from .data import CHEST_LIMIT, CHEST_LIMIT_MULE, HERO_BY_ID


@dataclass
class Hireling:
    name: str
    strength: int
    stamina: int


@dataclass
class Hero:
    hero: str
    seat: int
    space: str
    strength: int
    stamina: int
    stamina_max: int
    gold: int
    items: list[str] = field(default_factory=list)
    spells: list[str] = field(default_factory=list)
    chests: list[int] = field(default_factory=list)
    hireling: Hireling | None = None
    fights_won: int = 0
    rooms_avoided: int = 0
    miss_turns: int = 0
    no_move_next: bool = False
    no_spell_next: bool = False
    invisible: bool = False
    orders: list[str] = field(default_factory=list)  # carried out at the start of his next turn
    known: dict[str, str] = field(default_factory=dict)  # tile faces he alone has seen
    surrender_at: int = 0  # standing setting (rules 16.2)

    @property
    def name(self) -> str:
        return HERO_BY_ID[self.hero].name

    @property
    def short(self) -> str:
        return HERO_BY_ID[self.hero].short

    @property
    def start(self) -> str:
        return HERO_BY_ID[self.hero].start

    @property
    def level(self) -> int:
        return board().spaces[self.space].level

    @property
    def in_crypt(self) -> bool:
        return self.level == 3

    @property
    def defence(self) -> int:
        """The number a blow must beat (rules 7.1, 8.2): Strength, +1 with a Helmet."""
        return self.strength + (1 if "Helmet" in self.items else 0)

    @property
    def roll_bonus(self) -> int:
        return 1 if "Axe" in self.items else 0

    @property
    def chest_limit(self) -> int:
        return CHEST_LIMIT_MULE if "Mule" in self.items else CHEST_LIMIT

    @property
    def hand_limit(self) -> int:
        if self.in_crypt:
            return 0
        return 2 if "Magic Ring" in self.items else 1

    @property
    def move_length(self) -> int:
        return 3 if "Elven Boots" in self.items and not self.in_crypt else 2

    @property
    def score(self) -> int:
        return self.fights_won - self.rooms_avoided


@dataclass
class Tile:
    face: str
    revealed: bool = False


@dataclass
class Room:
    monster: str | None
    chests: list[int] = field(default_factory=list)


@dataclass
class Turn:
    hero: str
    moves: list[int] = field(default_factory=lambda: [0])  # moves left, by length (0: his own)
    fought: bool = False
    acted: bool = False  # moved, cast or fought: the first turn's shopping is over (rules 3.4)
    first: bool = False
    spells_left: int = 1
    trapped: bool = False
    dueled: bool = False
    merchant: bool = False
    moved: bool = False
    over: bool = False  # the hero fell: his turn ends after this action


@dataclass
class Fight:
    """A fight with a monster (rules 7, 12.2)."""

    kind: str  # room | corridor | summoned | dragon
    foe: str
    strength: int
    stamina: int
    space: str
    retreat_to: str
    shield_used: bool = False
    bonus: int = 0
    sure_hit: bool = False
    exchanges: int = 0


@dataclass
class Duel:
    """A duel with a hero (rules 8) or with Zagor (rules 12.3)."""

    attacker: str
    defender: str | None  # None: Zagor
    zagor_strength: int = 0
    zagor_stamina: int = 0
    zagor_start: int = 0
    shields_used: list[str] = field(default_factory=list)
    bonus: int = 0
    sure_hit: bool = False
    exchanges: int = 0


@dataclass
class Spoils:
    winner: str
    loser: str
    kind: str  # surrender | kill
    space: str | None = None  # the loser's old space (a kill)


@dataclass
class State:
    tale: str
    chest_mode: str  # crypt | orb | spectre
    levels: list[int]
    heroes: dict[str, Hero]
    order: list[str]  # heroes in seat order
    tiles: dict[str, Tile]
    rooms: dict[str, Room]
    chest_contents: dict[str, str]  # chest number (as text, for JSON) -> content
    chest_supply: list[int]
    chest_pile: list[int]  # beside the Dragon's Cave
    deck: list[str]
    discards: list[str]
    rng: int
    round_limit: int
    turn: Turn
    first: str
    round: int = 1
    fight: Fight | None = None
    duel: Duel | None = None
    spoils: Spoils | None = None
    quiet_turns: int = 0
    last_voice: str = ""
    outcome: str | None = None
    seq: int = 0

    def copy(self) -> State:
        copied: State = _copied(self)
        return copied

    def hero_at(self, space: str) -> Hero | None:
        for h in self.heroes.values():
            if h.space == space:
                return h
        return None

    def seat_hero(self, seat: int) -> Hero | None:
        for h in self.heroes.values():
            if h.seat == seat:
                return h
        return None

    @property
    def active(self) -> Hero:
        return self.heroes[self.turn.hero]

    def chest(self, number: int) -> str:
        return self.chest_contents[str(number)]


def state_to_json(s: State) -> dict[str, Any]:
    data: dict[str, Any] = _plain(s)
    return data


# The state is made of these dataclasses, lists, dicts with text keys and plain values alone, so it
# is walked by hand: `dataclasses.asdict` and `copy.deepcopy` handle any object and, run after
# every action, cost as much as the action itself (`make bench`: state_to_json, apply).
_PLAIN_TYPES = (str, int, bool, float, type(None))


def _plain(value: Any) -> Any:
    """`value` as JSON's values: each dataclass a dict of its fields, lists and dicts copied."""
    kind = type(value)
    if kind in _PLAIN_TYPES:
        return value
    if kind is list:
        return [_plain(v) for v in value]
    if kind is dict:
        return {k: _plain(v) for k, v in value.items()}
    return {name: _plain(getattr(value, name)) for name in field_names(kind)}


def _copied(value: Any) -> Any:
    """A deep copy of `value`: each dataclass instance's attributes (exactly its fields, in order:
    tests/games/zagor/test_random_playouts.py) copied as a dict at once, and only what is not a
    plain value walked further. Run by every action; walking each field by name cost half again."""
    kind = type(value)
    if kind is list:
        return [v if type(v) in _PLAIN_TYPES else _copied(v) for v in value]
    if kind is dict:
        return {k: v if type(v) in _PLAIN_TYPES else _copied(v) for k, v in value.items()}
    if kind in _PLAIN_TYPES:
        return value
    attributes = value.__dict__.copy()
    for name, attribute in attributes.items():
        if type(attribute) not in _PLAIN_TYPES:
            attributes[name] = _copied(attribute)
    twin = object.__new__(kind)
    twin.__dict__ = attributes
    return twin


def _opt(cls: Any, data: Any) -> Any:
    return None if data is None else cls(**data)


def state_from_json(data: dict[str, Any]) -> State:
    """The state `data` holds, taking over its lists and plain values as they are (`data` itself
    is left unchanged): a state is never changed in place (`State.copy` before every change), so
    the two may share them. Deep-copying the JSON first cost more than the rest (make bench)."""
    d = dict(data)
    d["heroes"] = {
        hid: Hero(**{**h, "hireling": _opt(Hireling, h.get("hireling"))})
        for hid, h in d["heroes"].items()
    }
    d["tiles"] = {k: Tile(**v) for k, v in d["tiles"].items()}
    d["rooms"] = {k: Room(**v) for k, v in d["rooms"].items()}
    d["turn"] = Turn(**d["turn"])
    d["fight"] = _opt(Fight, d.get("fight"))
    d["duel"] = _opt(Duel, d.get("duel"))
    d["spoils"] = _opt(Spoils, d.get("spoils"))
    return State(**d)
