// Readable names for engine identifiers (hero names, monster kinds, spells, furniture, traps).

export const HERO_ORDER = ["barbarian", "dwarf", "elf", "wizard"];

export const HERO_COLOURS = {
  barbarian: "#c0392b",
  dwarf: "#b9770e",
  elf: "#1e8449",
  wizard: "#2471a3",
};

// Monster Move values (rules section 9): an upper bound for the multi-square path preview.
export const MONSTER_MOVE = {
  goblin: 10,
  orc: 8,
  abomination: 6,
  skeleton: 6,
  zombie: 5,
  mummy: 4,
  dread_warrior: 7,
  gargoyle: 6,
  dread_warden: 6,
};

/** ["Alba", "Durin", "Elf"] -> "Alba, Durin and Elf". */
export function joinNames(names) {
  const list = names.filter(Boolean);
  if (list.length <= 1) return list.join("");
  return `${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}`;
}

/** "dread_warden" -> "Dread warden"; "ball_of_flame" -> "Ball of flame". */
export function pretty(id) {
  const s = String(id ?? "")
    .replace(/_/g, " ")
    .trim();
  return s ? s.charAt(0).toUpperCase() + s.slice(1) : "";
}

/** "barbarian" -> "Barbarian". */
export function heroName(hero) {
  return pretty(hero);
}

/** A hero's shown name: the sheet's own name if it has one, else the class. */
export function heroDisplay(h) {
  return h?.name ? String(h.name) : heroName(h?.hero);
}

/** How a sentence names a hero: "Durin" for a named hero, "the Barbarian" for a class. */
export function heroRef(h) {
  const name = h?.name ? String(h.name) : "";
  return name && name !== heroName(h?.hero) ? name : `the ${heroName(h?.hero)}`;
}

/**
 * A monster as a player reads it on a token, a button or a card: "Orc", "Orc 2" for the second orc
 * the heroes have seen (the story's "the second orc"), a villain by its name. Never an id: the view's
 * `number` counts only the monsters of that kind the heroes have seen.
 */
export function monsterLabel(monster) {
  const kind = pretty(monster?.kind) || "Monster";
  if (monster?.revealed === false) return `${kind} (unrevealed)`;
  const number = Number(monster?.number);
  if (Number.isInteger(number) && number > 1) return `${kind} ${number}`;
  const name = String(monster?.name ?? "");
  return name && !/^the\s/i.test(name) ? name : kind;
}

/** A monster inside a sentence: "the orc", "the second orc", "Vorgash the Cinder Lord" (never an id). */
export function monsterRef(monster) {
  const name = String(monster?.name ?? "");
  const base = name || `the ${pretty(monster?.kind ?? "monster").toLowerCase()}`;
  return monster?.revealed === false ? `${base} (unrevealed)` : base;
}

/** The small number drawn on a token when the heroes have seen more than one of its kind ("2"), or "". */
export function monsterBadge(monster) {
  const number = Number(monster?.number);
  return monster?.revealed !== false && Number.isInteger(number) && number > 1 ? String(number) : "";
}

export const SPELL_NAMES = {
  swift_wind: "Swift Wind",
  tempest: "Tempest",
  genie: "Genie",
  ball_of_flame: "Ball of Flame",
  courage: "Courage",
  fire_of_wrath: "Fire of Wrath",
  sleep: "Sleep",
  veil_of_mist: "Veil of Mist",
  water_of_healing: "Water of Healing",
  heal_body: "Heal Body",
  pass_through_rock: "Pass Through Rock",
  rock_skin: "Rock Skin",
  // Zargon's Dread spells (docs/rules.md 8b) beyond the heroes' own
  fear: "Fear",
  command: "Command",
  summon_undead: "Summon Undead",
  escape: "Escape",
  lightning_bolt: "Lightning Bolt",
};

export function spellName(spell) {
  return SPELL_NAMES[spell] ?? pretty(spell);
}

export const TRAP_NAMES = { pit: "pit trap", spear: "spear trap", falling_block: "falling block", chest: "chest trap" };

export function trapName(kind) {
  return TRAP_NAMES[kind] ?? pretty(kind);
}
