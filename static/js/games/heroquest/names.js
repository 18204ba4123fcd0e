// Readable names for engine identifiers (hero names, monster kinds, spells, furniture, traps).

export const HERO_ORDER = ["barbarian", "dwarf", "elf", "wizard"];

export const HERO_COLOURS = {
  barbarian: "#c0392b",
  dwarf: "#b9770e",
  elf: "#1e8449",
  wizard: "#2471a3",
};

const MONSTER_SHORT = {
  goblin: "Gob",
  orc: "Orc",
  abomination: "Abom",
  skeleton: "Skel",
  zombie: "Zomb",
  mummy: "Mum",
  dread_warrior: "Dread",
  gargoyle: "Garg",
  dread_warden: "Warden",
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

/** Public ids are short ("m3"); Zargon's ids for unrevealed pieces are long and not worth showing. */
export function shortId(id) {
  return /^[a-z]\d{1,3}$/i.test(String(id ?? "")) ? String(id) : "";
}

/** Short label drawn on a monster token. */
export function monsterShort(kind) {
  return MONSTER_SHORT[kind] ?? pretty(kind).slice(0, 5);
}

/** "the orc (m2)" style label. */
export function monsterLabel(monster) {
  const id = shortId(monster.id);
  return id ? `${pretty(monster.kind)} ${id}` : `${pretty(monster.kind)} (unrevealed)`;
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
};

export function spellName(spell) {
  return SPELL_NAMES[spell] ?? pretty(spell);
}

export const TRAP_NAMES = { pit: "pit trap", spear: "spear trap", falling_block: "falling block", chest: "chest trap" };

export function trapName(kind) {
  return TRAP_NAMES[kind] ?? pretty(kind);
}
