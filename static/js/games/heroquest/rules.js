// What the rules say, at the table: spell and Dread spell cards (docs/rules.md 8, 8b), treasure cards
// (docs/rules.md 6) and the rule a log entry applied. Texts follow docs/rules.md.

export const SPELL_CARDS = {
  swift_wind: { element: "Air", kind: "helpful", text: "The target's next movement roll uses four dice." },
  tempest: { element: "Air", kind: "harmful", text: "The monster loses its next activation." },
  genie: {
    element: "Air",
    kind: "harmful",
    text: "Attacks the monster with 5 combat dice (it defends normally), or opens any closed door the caster can see.",
  },
  ball_of_flame: { element: "Fire", kind: "harmful", text: "2 Body damage; the monster rolls 2 red dice, each 5 or 6 cancels 1." },
  courage: {
    element: "Fire",
    kind: "helpful",
    text: "+2 attack dice, until the end of a turn of that hero in which no monster is visible.",
  },
  fire_of_wrath: { element: "Fire", kind: "harmful", text: "1 Body damage unless the monster rolls 5 or 6 on one red die." },
  sleep: {
    element: "Water",
    kind: "harmful",
    text: "The monster rolls one red die per Mind point; any 6 resists. Else it sleeps: it loses its next activation and rolls no defence dice until it wakes. Undead are immune.",
  },
  veil_of_mist: {
    element: "Water",
    kind: "helpful",
    text: "During the target's next move it may pass through squares of monsters (not stop on them).",
  },
  water_of_healing: { element: "Water", kind: "helpful", text: "Restores up to 4 Body (never above starting Body)." },
  heal_body: { element: "Earth", kind: "helpful", text: "Restores up to 4 Body (never above starting Body)." },
  pass_through_rock: {
    element: "Earth",
    kind: "helpful",
    text: "During the target's next move it may pass through walls (not blocked squares, not off the board); an area entered this way is revealed.",
  },
  rock_skin: { element: "Earth", kind: "helpful", text: "+1 defend die until the hero next loses Body." },
};

export const DREAD_SPELL_CARDS = {
  ball_of_flame: { element: "Dread", kind: "harmful", text: "2 Body damage to a hero; the hero rolls 2 red dice, each 5 or 6 cancels 1." },
  fear: {
    element: "Dread",
    kind: "harmful",
    text: "The hero rolls one red die per Mind point; unless a 6 shows, it attacks with 1 die until its next turn ends.",
  },
  sleep: {
    element: "Dread",
    kind: "harmful",
    text: "The hero rolls one red die per Mind point; unless a 6 shows, it loses its next turn.",
  },
  tempest: { element: "Dread", kind: "harmful", text: "The hero loses its next turn." },
  command: {
    element: "Dread",
    kind: "harmful",
    text: "The hero rolls one red die per Mind point; unless a 6 shows, Zargon moves it up to 4 squares this phase.",
  },
  summon_undead: { element: "Dread", kind: "helpful", text: "Up to 4 skeletons or zombies appear on free squares next to the caster." },
  escape: { element: "Dread", kind: "helpful", text: "The caster is removed and reappears at the quest's escape square." },
  lightning_bolt: {
    element: "Dread",
    kind: "harmful",
    text: "2 Body damage to each figure on a straight line up to the first wall; each rolls 1 combat die, a white shield (hero) or black shield (monster) cancels 1.",
  },
};

/** The card of a spell a hero (or, with `dread`, a monster) casts: {element, kind, text} or null. */
export function spellCard(spell, { dread = false } = {}) {
  return (dread ? DREAD_SPELL_CARDS[spell] : SPELL_CARDS[spell]) ?? SPELL_CARDS[spell] ?? DREAD_SPELL_CARDS[spell] ?? null;
}

export const TREASURE_CARDS = {
  gold_15: { title: "Gold", text: "15 gold crowns." },
  gold_25: { title: "Gold", text: "25 gold crowns." },
  gold_35: { title: "Gold", text: "35 gold crowns." },
  gold_50: { title: "Gold", text: "50 gold crowns." },
  potion_of_healing: { title: "Potion of Healing", text: "Restores 1d6 Body when drunk (free, at any time)." },
  nothing: { title: "Nothing", text: "The search turns up nothing but ash." },
  hazard: { title: "Hazard", text: "An arrow or a loose floor: 1 Body lost, and the turn ends." },
  wandering_monster: { title: "Wandering monster", text: "The quest's wandering monster appears next to the finder and attacks at once." },
};

/** A rule reference: {section, text}. The rules page anchors its sections as "#7-traps". */
const RULE = (section, text) => ({ section, text });
/** The rules page anchors each numbered section as "#rules-7" (apps/play/views.py). */
export function ruleAnchor(section) {
  return `#rules-${section}`;
}

const TRAP_RULES = {
  pit: RULE(7, "a pit costs 1 Body and ends movement; the hero is in the pit"),
  spear: RULE(7, "a spear trap rolls 1 combat die, a skull costs 1 Body; it ends movement"),
  falling_block: RULE(7, "a falling block rolls 3 combat dice, 1 Body per skull; the square is blocked for good"),
  chest: RULE(7, "a chest trap costs Body and ends the turn"),
};

const FIND_RULES = {
  wandering_monster: RULE(6, "a wandering monster appears next to the finder and attacks at once"),
  hazard: RULE(6, "a hazard costs 1 Body and ends the turn"),
};

/** The rule a log entry applied, or null. */
export function ruleOf(e) {
  switch (e.type) {
    case "roll_movement":
      return RULE(3, "movement is the total of two red dice");
    case "door_opened":
      return RULE(3, "opening a door is free; the area beyond is revealed");
    case "reveal":
      return RULE(4, "a room is revealed whole when seen, entered or its door opened");
    case "attack":
      return e.hits === undefined ? null : RULE(5, "each skull hits; heroes block with white shields, monsters with black");
    case "potion":
      return RULE(5, "a healing potion restores 1d6 Body");
    case "hero_fallen":
      return RULE(5, "at 0 Body a hero falls and drops their belongings");
    case "belongings_taken":
      return RULE(5, "a hero in the same area may take a fallen hero's belongings");
    case "search":
      if (FIND_RULES[e.find]) return FIND_RULES[e.find];
      if (e.search === "treasure") return RULE(6, "each hero searches a room for treasure once");
      if (e.search === "traps") return RULE(6, "a search finds every trap in the area");
      if (e.search === "secret_doors") return RULE(6, "a search finds every secret door on the area's edge");
      return null;
    case "wandering_monster":
      return FIND_RULES.wandering_monster;
    case "trap":
      return TRAP_RULES[e.kind] ?? RULE(7, "entering a trap's square springs it and ends movement");
    case "disarm":
      return RULE(7, "the Dwarf fails only on a black shield; others need a tool kit and fail on a skull");
    case "jump":
      return RULE(7, "a jump costs 2 movement; a skull springs the trap");
    case "move_blocked":
      return RULE(8, "Pass Through Rock never enters solid rock or blocked squares");
    case "spell":
      return RULE(8, "each spell is cast once per quest, as the main action");
    case "dread_spell":
      return RULE("8b", "each Dread spell is cast once per quest");
    case "effect_ends":
      return RULE(8, "Courage lasts until a turn with no monster in sight");
    case "weapon_lost":
      return RULE(10, "a thrown weapon is lost");
    case "villain_defeated":
      return RULE(11, "with the villain defeated, every hero must escape by the stairway");
    case "escape":
      return RULE(11, "a hero on the stairway may escape as the main action");
    case "quest_over":
      return RULE(11, "the quest ends");
    default:
      return null;
  }
}
