"""Actions: small frozen dataclasses, and their JSON form (docs/engine-api.md)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .quest import Square


class IllegalAction(Exception):
    """The action is not allowed now; `reason` can be shown to the player."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class BadActionJSON(IllegalAction, ValueError):
    """The action JSON is malformed (unknown type, missing or mistyped field)."""


@dataclass(frozen=True)
class Action:
    type: ClassVar[str] = ""


@dataclass(frozen=True)
class HeroAction(Action):
    hero: str


@dataclass(frozen=True)
class RollMovement(HeroAction):
    type: ClassVar[str] = "roll_movement"


@dataclass(frozen=True)
class Move(HeroAction):
    """One orthogonal step; with Veil of Mist `to` may lie straight on beyond monsters."""

    type: ClassVar[str] = "move"
    to: Square


@dataclass(frozen=True)
class OpenDoor(HeroAction):
    type: ClassVar[str] = "open_door"
    door: str


@dataclass(frozen=True)
class Attack(HeroAction):
    type: ClassVar[str] = "attack"
    target: str


@dataclass(frozen=True)
class Throw(HeroAction):
    """Throw a dagger, spear or handaxe at a visible monster; the weapon is lost."""

    type: ClassVar[str] = "throw"
    weapon: str
    target: str


@dataclass(frozen=True)
class CastSpell(HeroAction):
    type: ClassVar[str] = "cast"
    spell: str
    target: str


@dataclass(frozen=True)
class SearchTreasure(HeroAction):
    type: ClassVar[str] = "search_treasure"


@dataclass(frozen=True)
class SearchTraps(HeroAction):
    type: ClassVar[str] = "search_traps"


@dataclass(frozen=True)
class SearchSecretDoors(HeroAction):
    type: ClassVar[str] = "search_secret_doors"


@dataclass(frozen=True)
class Disarm(HeroAction):
    type: ClassVar[str] = "disarm"
    trap: str


@dataclass(frozen=True)
class Jump(HeroAction):
    type: ClassVar[str] = "jump"
    trap: str
    to: Square


@dataclass(frozen=True)
class DrinkPotion(HeroAction):
    type: ClassVar[str] = "drink_potion"


@dataclass(frozen=True)
class Give(HeroAction):
    """Give a potion, gold or an artifact to another living hero (free, own turn only)."""

    type: ClassVar[str] = "give"
    recipient: str
    item: str  # "potion", "gold" or the name of an artifact the giver holds
    amount: int  # potions or gold coins; 1 for an artifact


@dataclass(frozen=True)
class LeaveBlock(HeroAction):
    """Step ahead or back off a falling block that has just come down (docs/rules.md 7)."""

    type: ClassVar[str] = "leave_block"
    to: Square


@dataclass(frozen=True)
class ChooseSpells(HeroAction):
    """The spell draft (room option): the Wizard, then the Elf, picks a spell element."""

    type: ClassVar[str] = "choose_spells"
    element: str  # air | fire | water | earth


@dataclass(frozen=True)
class TakeBelongings(HeroAction):
    type: ClassVar[str] = "take_belongings"
    from_hero: str  # JSON key "from"


@dataclass(frozen=True)
class SetAutoDrink(HeroAction):
    type: ClassVar[str] = "set_auto_drink"
    on: bool


@dataclass(frozen=True)
class SetDrinkAt(HeroAction):
    """A standing rule: drink a healing potion as soon as Body falls to `body` or less (0: only
    at death's door, as auto-drink does)."""

    type: ClassVar[str] = "set_drink_at"
    body: int


@dataclass(frozen=True)
class SetOnTimeout(HeroAction):
    """A standing rule: what the hero does when its turn runs out (`act`: end_turn, the
    default, ends the turn where it stands; a search is made first if the hero may make it)."""

    type: ClassVar[str] = "set_on_timeout"
    act: str


@dataclass(frozen=True)
class Escape(HeroAction):
    type: ClassVar[str] = "escape"


@dataclass(frozen=True)
class EndTurn(HeroAction):
    type: ClassVar[str] = "end_turn"


@dataclass(frozen=True)
class MonsterMove(Action):
    """One orthogonal step; clearing an open pit, `to` is the square beyond it."""

    type: ClassVar[str] = "monster_move"
    monster: str
    to: Square


@dataclass(frozen=True)
class MonsterAttack(Action):
    type: ClassVar[str] = "monster_attack"
    monster: str
    target: str


@dataclass(frozen=True)
class MonsterCast(Action):
    """A monster casts one of its Dread spells (docs/rules.md 8b) as its action."""

    type: ClassVar[str] = "monster_cast"
    monster: str
    spell: str
    target: str  # a hero, the caster's own id, or a direction N/E/S/W (lightning_bolt)


@dataclass(frozen=True)
class CommandMove(Action):
    """Zargon moves a hero under the Dread spell Command one square."""

    type: ClassVar[str] = "command_move"
    target: str
    to: Square


@dataclass(frozen=True)
class EndActivation(Action):
    type: ClassVar[str] = "end_activation"
    monster: str


@dataclass(frozen=True)
class EndPhase(Action):
    type: ClassVar[str] = "end_phase"


ACTION_TYPES: dict[str, type[Action]] = {
    cls.type: cls
    for cls in (
        RollMovement,
        Move,
        OpenDoor,
        Attack,
        Throw,
        CastSpell,
        SearchTreasure,
        SearchTraps,
        SearchSecretDoors,
        Disarm,
        Jump,
        DrinkPotion,
        Give,
        LeaveBlock,
        ChooseSpells,
        TakeBelongings,
        SetAutoDrink,
        SetDrinkAt,
        SetOnTimeout,
        Escape,
        EndTurn,
        MonsterMove,
        MonsterAttack,
        MonsterCast,
        CommandMove,
        EndActivation,
        EndPhase,
    )
}

_JSON_KEY = {"from_hero": "from"}
# What a hero may do when its turn times out (SetOnTimeout): end it, or make a search first.
TIMEOUT_CHOICES = ("end_turn", "search_treasure", "search_traps", "search_secret_doors")
_SQUARE_FIELDS = {"to"}


def action_to_json(action: Action) -> dict[str, Any]:
    out: dict[str, Any] = {"type": action.type}
    for f in fields(action):
        value = getattr(action, f.name)
        if f.name in _SQUARE_FIELDS:
            value = [value[0], value[1]]
        out[_JSON_KEY.get(f.name, f.name)] = value
    return out


def action_from_json(data: Any) -> Action:
    """Parse the JSON form; raises `BadActionJSON` saying what is wrong."""
    if not isinstance(data, dict):
        raise BadActionJSON("an action must be a JSON object")
    kind = data.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None or not isinstance(kind, str):
        raise BadActionJSON(f"unknown action type {kind!r}")
    kwargs: dict[str, Any] = {}
    expected = {"type"}
    for f in fields(cls):
        key = _JSON_KEY.get(f.name, f.name)
        expected.add(key)
        if key not in data:
            raise BadActionJSON(f"{kind}: missing field {key!r}")
        kwargs[f.name] = _field_value(kind, key, f.name, data[key])
    extra = set(data) - expected
    if extra:
        raise BadActionJSON(f"{kind}: unexpected field(s) {', '.join(sorted(extra))}")
    return cls(**kwargs)


def _field_value(kind: str, key: str, name: str, value: Any) -> Any:
    if name in _SQUARE_FIELDS:
        if (
            not isinstance(value, list | tuple)
            or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        ):
            raise BadActionJSON(f"{kind}: {key!r} must be a square [x, y]")
        return (value[0], value[1])
    if name == "amount":
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise BadActionJSON(f"{kind}: {key!r} must be a whole number of at least 1")
        return value
    if name == "body":
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 20:
            raise BadActionJSON(f"{kind}: {key!r} must be a whole number from 0 to 20")
        return value
    if name == "act":
        if value not in TIMEOUT_CHOICES:
            raise BadActionJSON(f"{kind}: {key!r} must be one of {', '.join(TIMEOUT_CHOICES)}")
        return value
    if name == "on":
        if not isinstance(value, bool):
            raise BadActionJSON(f"{kind}: {key!r} must be true or false")
        return value
    if not isinstance(value, str):
        raise BadActionJSON(f"{kind}: {key!r} must be a string")
    return value
