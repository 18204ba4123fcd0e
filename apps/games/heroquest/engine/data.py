"""Static game tables: heroes, monsters, spells, equipment and the treasure deck.

From docs/rules.md sections 1, 6, 8, 9 and 10.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

HERO_ORDER: tuple[str, ...] = ("barbarian", "dwarf", "elf", "wizard")


@dataclass(frozen=True)
class HeroStats:
    defend: int
    body: int
    mind: int
    weapon: str
    spells: tuple[str, ...]


@dataclass(frozen=True)
class MonsterStats:
    name: str
    move: int
    attack: int
    defend: int
    body: int
    mind: int
    undead: bool = False


@dataclass(frozen=True)
class SpellDef:
    name: str
    element: str
    helpful: bool


@dataclass(frozen=True)
class Weapon:
    name: str
    price: int
    attack: int
    diagonal: bool = False
    ranged: bool = False  # only at a visible monster that is not adjacent (crossbow)
    thrown: bool = False
    two_handed: bool = False
    wizard_may_use: bool = False


@dataclass(frozen=True)
class Armour:
    name: str
    price: int
    defend: int
    wizard_may_use: bool = False
    one_movement_die: bool = False  # plate mail
    not_with_two_handed: bool = False


SPELLS: dict[str, SpellDef] = {
    s.name: s
    for s in (
        SpellDef("swift_wind", "air", True),
        SpellDef("tempest", "air", False),
        SpellDef("genie", "air", False),
        SpellDef("ball_of_flame", "fire", False),
        SpellDef("courage", "fire", True),
        SpellDef("fire_of_wrath", "fire", False),
        SpellDef("sleep", "water", False),
        SpellDef("veil_of_mist", "water", True),
        SpellDef("water_of_healing", "water", True),
        SpellDef("heal_body", "earth", True),
        SpellDef("pass_through_rock", "earth", True),
        SpellDef("rock_skin", "earth", True),
    )
}


# Zargon's Dread spells (docs/rules.md 8b), given to monsters by a quest
DREAD_SPELLS: tuple[str, ...] = (
    "ball_of_flame",
    "fear",
    "sleep",
    "tempest",
    "command",
    "summon_undead",
    "escape",
    "lightning_bolt",
)


def spells_of(*elements: str) -> tuple[str, ...]:
    return tuple(name for name, s in SPELLS.items() if s.element in elements)


HEROES: dict[str, HeroStats] = {
    "barbarian": HeroStats(defend=2, body=8, mind=2, weapon="broadsword", spells=()),
    "dwarf": HeroStats(defend=2, body=7, mind=3, weapon="shortsword", spells=()),
    "elf": HeroStats(defend=2, body=6, mind=4, weapon="shortsword", spells=spells_of("earth")),
    "wizard": HeroStats(
        defend=2, body=4, mind=6, weapon="dagger", spells=spells_of("air", "fire", "water")
    ),
}

MONSTERS: dict[str, MonsterStats] = {
    "goblin": MonsterStats("goblin", 10, 2, 1, 1, 1),
    "orc": MonsterStats("orc", 8, 3, 2, 1, 2),
    "abomination": MonsterStats("abomination", 6, 3, 3, 2, 3),
    "skeleton": MonsterStats("skeleton", 6, 2, 2, 1, 0, undead=True),
    "zombie": MonsterStats("zombie", 5, 2, 3, 1, 0, undead=True),
    "mummy": MonsterStats("mummy", 4, 3, 4, 2, 0, undead=True),
    "dread_warrior": MonsterStats("dread warrior", 7, 4, 4, 3, 3),
    "gargoyle": MonsterStats("gargoyle", 6, 4, 5, 3, 4),
    "dread_warden": MonsterStats("Dread Warden", 6, 4, 4, 4, 4),
}

WEAPONS: dict[str, Weapon] = {
    w.name: w
    for w in (
        Weapon("dagger", 25, 1, thrown=True, wizard_may_use=True),
        Weapon("staff", 100, 1, diagonal=True, two_handed=True, wizard_may_use=True),
        Weapon("shortsword", 150, 2),
        Weapon("spear", 150, 2, diagonal=True, thrown=True),
        Weapon("handaxe", 200, 2, thrown=True),
        Weapon("broadsword", 250, 3),
        Weapon("longsword", 350, 3, diagonal=True),
        Weapon("crossbow", 350, 3, ranged=True),
        Weapon("battle_axe", 450, 4, two_handed=True),
    )
}

ARMOUR: dict[str, Armour] = {
    a.name: a
    for a in (
        Armour("helmet", 125, 1),
        Armour("shield", 150, 1, not_with_two_handed=True),
        Armour("bracers", 220, 1, wizard_may_use=True),
        Armour("chain_mail", 500, 1),
        Armour("plate_mail", 850, 2, one_movement_die=True),
    )
}


@dataclass(frozen=True)
class Artifact:
    """A quest's artifact (a special treasure that stays on the character sheet, docs/rules.md
    12). A quest file names it by `name`; the effect holds while a hero carries it."""

    name: str
    text: str
    attack: int = 0  # extra attack dice
    defend: int = 0  # extra defend dice
    key: bool = False  # opens the doors a quest locks with it


ARTIFACTS: dict[str, Artifact] = {
    a.name: a
    for a in (
        Artifact(
            "Ember Key", "a black iron key, warm to the touch: it opens the Sealed Forge", key=True
        ),
        Artifact("Emberbrand", "a blade that never cools: +1 attack die", attack=1),
        Artifact("Cinder Mantle", "a cloak of woven ash: +1 defend die", defend=1),
        Artifact("Heart of Ash", "the cold heart of the Cinder Lord: proof the fire is out"),
    )
}


def artifact_bonus(artifacts: list[str], stat: str) -> int:
    """Extra attack or defend dice from the artifacts a hero carries (each counts once)."""
    return sum(getattr(ARTIFACTS[a], stat) for a in set(artifacts) if a in ARTIFACTS)


TOOL_KIT_PRICE = 250
# The Wizard may also wear a cloak (docs/rules.md 1); it has no defend value in our tables.
WIZARD_EXTRA_WEARABLE = frozenset({"cloak"})


def item_effect(item: str) -> str:
    """What an armory item does, in a player's words (docs/rules.md section 10)."""
    if item == "tool_kit":
        return "lets a hero disarm traps"
    if item in WEAPONS:
        w = WEAPONS[item]
        notes = [f"{w.attack} attack {'die' if w.attack == 1 else 'dice'}"]
        flags = [
            (w.diagonal, "attacks diagonally"),
            (w.ranged, "at a visible monster not adjacent"),
            (w.thrown, "may be thrown"),
            (w.two_handed, "two-handed"),
            (not w.wizard_may_use, "not for the Wizard"),
        ]
    else:
        a = ARMOUR[item]
        notes = [f"+{a.defend} defend"]
        flags = [
            (a.one_movement_die, "movement rolls one die"),
            (a.not_with_two_handed, "not with two-handed weapons"),
            (not a.wizard_may_use, "not for the Wizard"),
        ]
    return "; ".join(notes + [text for on, text in flags if on])


def equipment_problem(hero: str, weapon: str, armour: list[str]) -> str | None:
    """Why a hero may not wield/wear this equipment (docs/rules.md 10), or None when allowed.
    `weapon` "" is a hero with no weapon left (all thrown): allowed."""
    if weapon and weapon not in WEAPONS:
        return f"unknown weapon {weapon!r}"
    w = WEAPONS.get(weapon, Weapon("", 0, 0, wizard_may_use=True))
    if hero == "wizard" and not w.wizard_may_use:
        return f"the Wizard cannot wield a {weapon}"
    for piece in armour:
        if piece not in ARMOUR:
            return f"unknown armour {piece!r}"
        a = ARMOUR[piece]
        if hero == "wizard" and not a.wizard_may_use:
            return f"the Wizard cannot wear {piece}"
        if a.not_with_two_handed and w.two_handed:
            return f"a {piece} cannot be used with a two-handed {weapon}"
    return None


def _names(value: Any) -> list[str] | None:
    """`value` as a list of names, or None if it is not a list of strings."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return None
    return list(value)


def campaign_hero_problems(hero: str, sheet: Mapping[str, Any]) -> list[str]:
    """Why a campaign hero (`new_game`'s `options["heroes"][hero]`: weapon, armour, items,
    artifacts, body_max, mind_max, gold, potions, tool_kit) could not start a quest, in words
    an administrator can act on; [] when the engine takes it as it is."""
    if hero not in HEROES:
        return [f"unknown hero {hero!r} (heroes: {', '.join(HERO_ORDER)})"]
    problems = []
    weapon = sheet.get("weapon", HEROES[hero].weapon)
    armour = _names(sheet.get("armour", []))
    if not isinstance(weapon, str):
        problems.append(f"the weapon must be a weapon's name, not {weapon!r}")
    elif weapon and weapon not in WEAPONS:
        problems.append(f"unknown weapon {weapon!r} (weapons: {', '.join(WEAPONS)})")
    if armour is None:
        problems.append('armour must be a list of armour names, e.g. ["helmet"]')
    else:
        unknown = [a for a in armour if a not in ARMOUR]
        if unknown:
            problems.append(f"unknown armour {unknown[0]!r} (armour: {', '.join(ARMOUR)})")
    if not problems:
        problem = equipment_problem(hero, str(weapon), armour or [])
        if problem:
            problems.append(problem)
    items = _names(sheet.get("items", []))
    if items is None:
        problems.append("carried items must be a list of weapon or armour names")
    else:
        unknown = [i for i in items if i not in WEAPONS and i not in ARMOUR]
        if unknown:
            problems.append(
                f"unknown carried item {unknown[0]!r} (a weapon or armour: "
                f"{', '.join([*WEAPONS, *ARMOUR])})"
            )
    artifacts = _names(sheet.get("artifacts", []))
    if artifacts is None:
        problems.append("artifacts must be a list of artifact names")
    else:
        unknown = [a for a in artifacts if a not in ARTIFACTS]
        if unknown:
            problems.append(f"unknown artifact {unknown[0]!r} (artifacts: {', '.join(ARTIFACTS)})")
    for key, least in (("body_max", 1), ("mind_max", 0), ("gold", 0), ("potions", 0)):
        value = sheet.get(key, least)
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            problems.append(f"{key} must be a whole number of at least {least}, not {value!r}")
    if not isinstance(sheet.get("tool_kit", False), bool):
        problems.append("tool_kit must be true or false")
    return problems


# Treasure deck (docs/rules.md 6): card -> (count, returns to the deck after drawing)
TREASURE_CARDS: dict[str, tuple[int, bool]] = {
    "gold_15": (2, False),
    "gold_25": (3, False),
    "gold_35": (2, False),
    "gold_50": (1, False),
    "potion_of_healing": (3, False),
    "nothing": (3, True),
    "hazard": (4, True),
    "wandering_monster": (6, True),
}


def treasure_deck() -> list[str]:
    return [card for card, (count, _) in TREASURE_CARDS.items() for _ in range(count)]


HAZARD_DAMAGE = 1
POTION_DIE_COUNT = 1  # a healing potion restores 1d6 Body
HEAL_SPELL_AMOUNT = 4


def display_name(kind: str) -> str:
    """'barbarian' -> 'the Barbarian', 'orc' -> 'the orc'."""
    if kind in HEROES:
        return "the " + kind.capitalize()
    stats = MONSTERS.get(kind)
    name = stats.name if stats else kind.replace("_", " ")
    return name if name[0].isupper() else "the " + name


# Seats (docs/rules.md 1): seat 1 is Zargon; the others hold contiguous blocks of the hero order.
ZARGON_SEAT = 1
# Not a seat: someone watching the game. Sees what every hero seat sees in common, and of the
# events only those meant for everyone (the redacted form of the others) (docs/design.md).
SPECTATOR_SEAT = 0
_SEATING: dict[int, dict[int, tuple[str, ...]]] = {
    2: {2: HERO_ORDER},
    3: {2: ("barbarian", "dwarf"), 3: ("elf", "wizard")},
    4: {2: ("barbarian", "dwarf"), 3: ("elf",), 4: ("wizard",)},
    5: {2: ("barbarian",), 3: ("dwarf",), 4: ("elf",), 5: ("wizard",)},
}


def heroes_of_seat(seats: int, seat: int) -> tuple[str, ...]:
    return _SEATING[seats].get(seat, ())


def seat_of_hero(seats: int, hero: str) -> int:
    return next(seat for seat, heroes in _SEATING[seats].items() if hero in heroes)
