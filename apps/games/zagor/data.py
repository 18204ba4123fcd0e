"""The tables of docs/zagor/rules.md: heroes, equipment and prices, tiles, monsters, spells, the
voice's events and commands. Texts are the site's own words."""

from __future__ import annotations

from dataclasses import dataclass

SPECTATOR_SEAT = 0


# --- heroes (rules 10.2) ------------------------------------------------------------------------
@dataclass(frozen=True)
class HeroDef:
    hero: str
    name: str
    short: str
    strength: int
    stamina: int
    start: str
    prices: dict[str, int]


HEROES: tuple[HeroDef, ...] = (
    HeroDef("barbarian", "Anvar the Barbarian", "Anvar", 6, 8, "s1", {"Axe": 5}),
    HeroDef("dwarf", "Stubble the Dwarf", "Stubble", 6, 8, "s2", {"Helmet": 4, "Shield": 5}),
    HeroDef(
        "warrior", "Braxus the Warrior", "Braxus", 7, 6, "s3", {"Elven Boots": 6, "Magic Arrow": 3}
    ),
    HeroDef("wizard", "Sallazar the Wizard", "Sallazar", 5, 9, "s4", {"Magic Ring": 5, "Torch": 1}),
)
HERO_BY_ID = {h.hero: h for h in HEROES}
HERO_ORDER = tuple(h.hero for h in HEROES)


# --- equipment (rules 10.1, 10.3) ---------------------------------------------------------------
ITEMS: tuple[str, ...] = (
    "Axe",
    "Helmet",
    "Shield",
    "Elven Boots",
    "Magic Arrow",
    "Healing Potion",
    "Water Bottle",
    "Torch",
    "Magic Ring",
    "Mule",
)
LIST_PRICES = {
    "Axe": 8,
    "Helmet": 6,
    "Shield": 7,
    "Elven Boots": 8,
    "Magic Arrow": 4,
    "Healing Potion": 5,
    "Water Bottle": 2,
    "Torch": 2,
    "Magic Ring": 10,
    "Mule": 6,
}
ITEM_TEXT = {
    "Axe": "+1 to every roll in a fight",
    "Helmet": "+1 Strength",
    "Shield": "stops the first hit taken in each fight or duel",
    "Elven Boots": "moves of 3 spaces (not in the Crypt)",
    "Magic Arrow": "once, in a fight: the foe loses 1 Stamina (not in the Crypt)",
    "Healing Potion": "once: regain 4 Stamina",
    "Water Bottle": "once: regain 2 Stamina",
    "Torch": "once: see the face of a face-down tile next to you",
    "Magic Ring": "hold two spell cards",
    "Mule": "carry 8 chests instead of 6",
}
CRYPT_FORBIDDEN_ITEMS = frozenset({"Magic Arrow", "Magic Ring", "Elven Boots"})
HEAL_ITEMS = {"Healing Potion": 4, "Water Bottle": 2}


def price(hero: str, item: str) -> int:
    return HERO_BY_ID[hero].prices.get(item, LIST_PRICES[item])


# --- hirelings (rules 10.4) ---------------------------------------------------------------------
HIRELINGS = {"Friendly Dwarf": (5, 4), "Wood Elf": (6, 4), "Familiar": (5, 3)}


# --- tiles (rules 6.2-6.4) ----------------------------------------------------------------------
@dataclass(frozen=True)
class TileDef:
    name: str
    text: str
    used_up: str  # "never" | "always" | "taken" (equipment, hirelings) | "slain" (a fight)


def _equipment(name: str) -> TileDef:
    return TileDef(name, f"{name}: take it if you have none ({ITEM_TEXT[name]}).", "taken")


_TILES = [
    _equipment("Axe"),
    TileDef("Barrel", "Search the barrel: a d10 decides what is inside.", "always"),
    _equipment("Elven Boots"),
    TileDef("Friendly Dwarf", "A dwarf offers his axe: he joins you as hireling.", "taken"),
    TileDef("Genie", "A genie restores your Stamina and drops 3 gold.", "always"),
    TileDef("Giant Rats", "Rats swarm your boots: lose 1 Stamina.", "never"),
    TileDef("Guard", "A guard demands 2 gold toll, or a blow (1 Stamina).", "never"),
    _equipment("Healing Potion"),
    _equipment("Helmet"),
    TileDef("Leather Pouch", "A forgotten pouch: 3 gold.", "always"),
    _equipment("Magic Arrow"),
    TileDef("Pool of Gold", "Coins glint under water: a d10 of gold.", "always"),
    TileDef("Random", "The voice of Zagor: an event of his choosing.", "never"),
    TileDef("Scout", "A scout shows you a way: you may move again this turn.", "never"),
    TileDef("Secret Passage", "A hidden door: it leads to its twin once both are found.", "never"),
    _equipment("Shield"),
    TileDef("Sorcerer", "A sorcerer teaches you a spell if your hand has room.", "never"),
    TileDef("Teleport", "The floor glows: you are sent elsewhere on this level.", "never"),
    TileDef("Trap", "A trap bites: lose 2 Stamina; no duel for you this turn.", "never"),
    _equipment("Torch"),
    _equipment("Water Bottle"),
    TileDef("Witch", "A witch snatches one of your spell cards (or 1 Stamina).", "never"),
    TileDef("Dark Elf", "An arrow from the dark: a d10 above your Strength costs 2.", "never"),
    TileDef("Druid", "A druid tends your wounds: regain 2 Stamina.", "never"),
    TileDef("Evil Wizard", "An evil wizard flings you back onto the Stone Steps.", "never"),
    TileDef("Fountain of Life", "You drink: your Stamina is restored.", "never"),
    TileDef("Ghost", "A ghost freezes you with fear: you miss your next turn.", "never"),
    TileDef("Giant Spider", "A giant spider drops from the ceiling: fight it.", "slain"),
    TileDef("Good Wizard", "A good wizard: regain 1 Stamina and learn a spell.", "never"),
    TileDef("Hag", "A hag grabs your purse: half your gold is gone.", "never"),
    _equipment("Mule"),
    TileDef("Pit", "You fall into a pit: lose 2 Stamina; no duel for you this turn.", "never"),
    TileDef("Wood Elf", "A wood elf joins you as hireling.", "taken"),
    TileDef("Flame Jet", "Fire roars from the floor: lose 2 Stamina.", "never"),
    TileDef("Shrine of Valour", "A shrine to fallen heroes: regain 3 Stamina.", "never"),
    TileDef("Bone Guardian", "A guardian of bones bars the way: fight it.", "slain"),
    TileDef("Chasm", "The floor gives: lose 1 Stamina and fall back to the bridge.", "never"),
]
TILES = {t.name: t for t in _TILES}

LEVEL_TILES: dict[int, tuple[str, ...]] = {
    1: (
        "Axe",
        "Barrel",
        "Elven Boots",
        "Friendly Dwarf",
        "Genie",
        "Giant Rats",
        "Guard",
        "Healing Potion",
        "Helmet",
        "Leather Pouch",
        "Leather Pouch",
        "Magic Arrow",
        "Pool of Gold",
        "Random",
        "Random",
        "Random",
        "Scout",
        "Secret Passage",
        "Secret Passage",
        "Shield",
        "Sorcerer",
        "Teleport",
        "Trap",
        "Torch",
        "Water Bottle",
        "Witch",
    ),
    2: (
        "Dark Elf",
        "Druid",
        "Evil Wizard",
        "Fountain of Life",
        "Ghost",
        "Giant Spider",
        "Good Wizard",
        "Hag",
        "Mule",
        "Pit",
        "Random",
        "Random",
        "Secret Passage",
        "Secret Passage",
        "Teleport",
        "Wood Elf",
    ),
    3: ("Flame Jet", "Shrine of Valour", "Bone Guardian", "Chasm"),
}
CORRIDOR_MONSTERS = {"Giant Spider": (5, 2), "Bone Guardian": (6, 2)}


# --- monsters (rules 7.3, 12.2) -----------------------------------------------------------------
MONSTERS: dict[str, tuple[int, int, int]] = {  # name: (level, base Strength, base Stamina)
    "Goblin": (1, 4, 2),
    "Skeleton": (1, 5, 2),
    "Zombie": (1, 4, 3),
    "Orc": (1, 5, 3),
    "Ogre": (2, 6, 3),
    "Troll": (2, 6, 4),
    "Chaos Champion": (2, 7, 3),
    "Hellhorn": (2, 7, 4),
}
LEVEL_FIGURES: dict[int, tuple[str, ...]] = {
    1: ("Skeleton", "Skeleton", "Skeleton", "Zombie", "Zombie", "Goblin", "Goblin", "Orc", "Orc"),
    2: ("Chaos Champion", "Chaos Champion", "Ogre", "Ogre", "Hellhorn", "Troll"),
}
# The unit's generic figures for a level (a summoned monster, the Dragon's base).
LEVEL_BASE = {1: (4, 2), 2: (6, 4)}
SUMMONED_NAME = {1: "a wandering Orc", 2: "a wandering Troll"}
DRAGON_BONUS = (2, 1)
# (Strength added, Stamina added) by the number of heroes (rules 7.3).
SCALING = {1: (0, 0), 2: (0, 0), 3: (0, 1), 4: (1, 1)}
ZAGOR_FIGURES = 12
ZAGOR_SPELLS: tuple[tuple[str, int, int], ...] = (  # name, Stamina lost, Zagor regains
    ("Thunderball", 1, 0),
    ("Firestorm", 2, 0),
    ("Soul Drain", 1, 1),
)


# --- spells (rules 9.4) -------------------------------------------------------------------------
@dataclass(frozen=True)
class SpellDef:
    name: str
    cards: int
    when: frozenset[str]  # subset of {"turn", "fight", "duel"}; empty: never cast
    target: str  # "none" | "hero" | "space" | "item"
    text: str


_T = frozenset({"turn"})
_F = frozenset({"fight"})
_FD = frozenset({"fight", "duel"})
_ANY = frozenset({"turn", "fight", "duel"})

_SPELLS = [
    SpellDef("Alchemy", 1, _T, "none", "Lead into gold: gain 5 gold."),
    SpellDef("Arrow", 1, _FD, "none", "In a fight: the foe loses 1 Stamina."),
    SpellDef("Charisma", 1, _T, "hero", "A hero's hireling leaves him and joins you."),
    SpellDef("Charm Monster", 1, _F, "none", "The monster you fight joins you: the fight is won."),
    SpellDef("Death", 1, _F, "none", "The monster you fight dies."),
    SpellDef("Destiny", 1, _FD, "none", "Your next roll in this fight is a hit."),
    SpellDef("Drain Magic", 1, _T, "hero", "A hero discards all his spell cards."),
    SpellDef("Escape", 1, _F, "none", "Leave the fight with no loss."),
    SpellDef("Evolution", 1, _T, "none", "Your Strength rises by 1 for good."),
    SpellDef("Fireball", 1, _FD, "none", "In a fight: the foe loses 2 Stamina."),
    SpellDef("Flying Carpet", 1, _T, "none", "An extra move of up to 4 spaces."),
    SpellDef("Fools Gold", 1, _T, "hero", "Half a hero's gold turns to dust."),
    SpellDef("Freeze", 2, _T, "hero", "A hero may not move on his next turn."),
    SpellDef("Ghost", 2, _T, "hero", "A ghost strikes a hero: he loses 2 Stamina."),
    SpellDef("Healing", 1, _ANY, "none", "Your Stamina is restored."),
    SpellDef("Hurricane", 1, _T, "hero", "A hero is blown elsewhere on his level."),
    SpellDef(
        "Invisibility", 2, _T, "none", "Until your next turn nobody may attack or bewitch you."
    ),
    SpellDef("Jump", 2, _T, "none", "An extra move of up to 2 spaces."),
    SpellDef("Life", 6, _ANY, "none", "Regain 2 Stamina."),
    SpellDef("Long Fingers", 1, _T, "hero", "Take one item from a hero."),
    SpellDef("Magic Charge", 2, _FD, "none", "+2 to your rolls for the rest of this fight."),
    SpellDef(
        "Magic Screen", 2, frozenset(), "none", "Held, it cancels the next spell cast on you."
    ),
    SpellDef("Magnetism", 1, _T, "hero", "A hero on your level is pulled next to you."),
    SpellDef("Merchant", 1, _T, "none", "The merchant comes: buy wherever you stand this turn."),
    SpellDef("Mind Blank", 1, _T, "hero", "A hero may not cast a spell on his next turn."),
    SpellDef("Pickpocket", 1, _T, "hero", "Take up to 5 gold from a hero."),
    SpellDef("Rust", 1, _T, "hero", "A hero's Axe, Helmet or Shield rusts away."),
    SpellDef("Sleep", 1, _T, "hero", "A hero misses his next turn."),
    SpellDef("Speed", 1, _T, "none", "Before moving: this turn's move is up to 4 spaces."),
    SpellDef("Steal", 1, _T, "hero", "Take one chest card from a hero."),
    SpellDef("Summon Creature", 1, _T, "none", "A Familiar joins you as hireling."),
    SpellDef("Summon Monster", 1, _T, "hero", "A monster attacks a hero at his next turn."),
    SpellDef("Switch", 2, _T, "hero", "You and a hero change places."),
    SpellDef("Teleport", 2, _T, "space", "Go to a free corridor space of your level."),
    SpellDef("Time Warp", 2, _ANY, "none", "Not counted as your spell; draw a card at once."),
    SpellDef("Transformation", 2, _F, "none", "The monster's Strength falls by 2 this fight."),
    SpellDef("Tunnel", 2, _T, "none", "Tunnel to the Stone Steps or the Portal of Doom."),
    SpellDef("Vision", 1, _T, "none", "See every face-down tile within 2 spaces."),
    SpellDef("Weapons", 1, _T, "item", "Take an item you lack from the pool, free."),
    SpellDef("Wings", 1, _T, "none", "Fly to your own start space."),
]
SPELLS = {s.name: s for s in _SPELLS}
SPELL_DECK: tuple[str, ...] = tuple(s.name for s in _SPELLS for _ in range(s.cards))
# Spells that can only hit a monster a room guards (not a corridor or summoned one).
ROOM_MONSTER_ONLY = frozenset({"Charm Monster"})


# --- the voice (rules 13) -----------------------------------------------------------------------
RANDOM_EVENTS: tuple[str, ...] = (
    "Earthquake",
    "Gold rain",
    "Curse",
    "Blessing",
    "Thief",
    "Whirlwind",
    "Spell storm",
    "Wandering monster",
    "Paralysis",
    "Treasure",
)
PUNISHMENTS: tuple[str, ...] = ("Fight my servant!", "Stand still!", "Pay tribute!", "Bleed!")
REWARDS: tuple[str, ...] = ("Take my gold", "Be healed", "Run!", "A gift of magic")
COMMAND_CHANCE = 8  # one in eight at the end of a turn (rules 13.4)

CHEST_LIMIT = 6
CHEST_LIMIT_MULE = 8
CHEST_CONTENT_TEXT = {
    "talisman": "a Golden Talisman",
    "dagger": "a Silver Dagger",
    "orb": "the Enchanted Orb",
    "spirit": "the Spirit of Tallistor",
    "gold": "gold",
}
