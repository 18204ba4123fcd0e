// @ts-check
// Legend of Zagor's board model: pure functions over the seat view (docs/zagor/face.md), no DOM.
// What the page draws and offers is computed here, so Node's test runner can check it
// (tests/js/zagor_model.test.js).

/**
 * @typedef {{id: string, kind: string, x: number, y: number, name: string}} LayoutSpace
 * @typedef {{level: number, name: string, width: number, height: number, spaces: LayoutSpace[]}} LayoutLevel
 * @typedef {{levels: LayoutLevel[], links: string[][]}} Layout
 * @typedef {{name: string, strength: number, stamina: number}} Hireling
 * @typedef {{hero: string, name: string, seat: number, space: string, level: number, start: string,
 *   strength: number, defence: number, stamina: number, stamina_max: number, gold: number,
 *   equipment: string[], chests: number, chest_limit: number, hireling: Hireling | null,
 *   spells: number, hand_limit: number, fights_won: number, rooms_avoided: number, score: number,
 *   misses_turns: number, orders: string[], invisible: boolean, frozen: boolean,
 *   mind_blank: boolean, in_crypt: boolean, orb?: boolean}} Hero
 * @typedef {{kind: string, hero: string, foe: string, strength?: number, stamina?: number,
 *   space?: string, exchanges: number, bonus: number}} Fight
 * @typedef {{name: string, text: string, when: string[]}} SpellCard
 * @typedef {{number: number, content: string}} ChestCard
 * @typedef {{hero: string, spells: SpellCard[], chests: ChestCard[], seen_tiles: Record<string, string>,
 *   surrender_at: number, store: {open: boolean, prices: Record<string, number>}}} Me
 * @typedef {{type: string, hero?: string, [field: string]: any}} Action
 * @typedef {{kind: string, values: number[], who?: string}} Roll
 * @typedef {{type: string, text: string, seq: number, version?: number, dice?: Roll[], [field: string]: any}} Entry
 * @typedef {{tile?: {face: string | null} | null, monster?: string | null, chests?: number}} SpaceState
 * @typedef {{game?: string, tale?: string, seat: number, levels: number[], round: number, round_limit: number,
 *   over: boolean, outcome: string | null,
 *   turn: {hero: string, seat: number, moves_left: number, moved: boolean, fought: boolean, spells_left: number},
 *   layout: Layout, spaces: Record<string, SpaceState>, heroes: Hero[], fight: Fight | null,
 *   spoils: {winner: string, loser: string, kind: string} | null, last_voice: string | null,
 *   me: Me | null, legal_actions?: Action[], version?: number}} ZagorView
 * @typedef {LayoutSpace & {level: number, gx: number, gy: number}} PlacedSpace
 * @typedef {{level: number, name: string, x: number, y: number, width: number, height: number}} LevelBox
 */

/** Each hero's short token text and colour class (seat order: rules 1.1). */
export const HERO_SHORT = { barbarian: "An", dwarf: "St", warrior: "Br", wizard: "Sa" };

/** The room above the grid a level's title takes, and the gap between levels (board units). */
export const TITLE = 0.9;
export const GAP = 0.8;

/** Short effects of the Store's items (rules 10.1, in the site's words). */
export const ITEM_TEXT = {
  Axe: "+1 to your rolls.",
  Helmet: "+1 Strength.",
  Shield: "Stops the first hit in each fight.",
  "Elven Boots": "Move 3 spaces (not in the Crypt).",
  "Magic Arrow": "Once, in a fight: the foe loses 1 Stamina.",
  "Healing Potion": "Once, on your turn: regain 4 Stamina.",
  "Water Bottle": "Once, on your turn: regain 2 Stamina.",
  Torch: "Once: see one face-down tile beside you.",
  "Magic Ring": "Hold two spell cards.",
  Mule: "Carry 8 chest cards instead of 6.",
};

/** When a spell may be cast, in words (rules 9.4). */
export const WHEN_TEXT = { turn: "on your turn", fight: "in a fight", duel: "in your duel", never: "never cast: held" };

/** The levels of the layout that are in play, in order. */
export function levelsInPlay(/** @type {ZagorView} */ view) {
  const wanted = new Set(view.levels ?? []);
  return (view.layout?.levels ?? []).filter((l) => wanted.has(l.level));
}

/**
 * Where each level in play sits in the board's coordinates: side by side, left to right, each
 * with its title row above its grid.
 * @returns {LevelBox[]}
 */
export function levelBoxes(/** @type {ZagorView} */ view) {
  const out = [];
  let x = 0;
  for (const level of levelsInPlay(view)) {
    const width = Math.max(level.width, 2.6);
    out.push({ level: level.level, name: level.name, x, y: 0, width, height: level.height + TITLE });
    x += width + GAP;
  }
  return out;
}

/** The whole board's viewBox [x, y, w, h] (all levels), or one level's. */
export function viewBoxOf(/** @type {LevelBox[]} */ boxes, /** @type {number | null} */ only = null) {
  const shown = only === null ? boxes : boxes.filter((b) => b.level === only);
  if (!shown.length) return [0, 0, 10, 8];
  const x0 = Math.min(...shown.map((b) => b.x));
  const x1 = Math.max(...shown.map((b) => b.x + b.width));
  const h = Math.max(...shown.map((b) => b.height));
  const pad = 0.15;
  return [x0 - pad, -pad, x1 - x0 + 2 * pad, h + 2 * pad];
}

/**
 * Every space in play, placed: its level and its centre in board units.
 * @returns {Map<string, PlacedSpace>}
 */
export function placeSpaces(/** @type {ZagorView} */ view) {
  const boxes = new Map(levelBoxes(view).map((b) => [b.level, b]));
  /** @type {Map<string, PlacedSpace>} */
  const out = new Map();
  for (const level of levelsInPlay(view)) {
    const box = boxes.get(level.level);
    if (!box) continue;
    const dx = box.x + (box.width - level.width) / 2;
    for (const s of level.spaces) {
      out.set(s.id, { ...s, level: level.level, gx: dx + s.x + 0.5, gy: TITLE + s.y + 0.5 });
    }
  }
  return out;
}

/** The layout's links among spaces in play: `same` (one level) and `cross` (a level change). */
export function linksOf(/** @type {ZagorView} */ view, /** @type {Map<string, PlacedSpace>} */ placed) {
  const same = [];
  const cross = [];
  for (const [a, b] of view.layout?.links ?? []) {
    const pa = placed.get(a);
    const pb = placed.get(b);
    if (!pa || !pb) continue;
    (pa.level === pb.level ? same : cross).push([a, b]);
  }
  return { same, cross };
}

/** A hero of the view by id. */
export function heroOf(/** @type {ZagorView} */ view, /** @type {string | null | undefined} */ id) {
  return (view.heroes ?? []).find((h) => h.hero === id) ?? null;
}

/** The hero's first name ("Anvar"), or the id. */
export function firstName(/** @type {ZagorView} */ view, /** @type {string | null | undefined} */ id) {
  const hero = heroOf(view, id);
  return hero ? hero.name.split(" ")[0] : String(id ?? "");
}

/** A space's name for a player: a room's name, "the Dungeon Store", or "a corridor (b4)". */
export function spaceLabel(/** @type {Map<string, PlacedSpace>} */ placed, /** @type {string} */ id) {
  const s = placed.get(id);
  if (!s) return id;
  const where = `${String.fromCharCode(97 + s.x)}${s.y + 1}`;
  if (s.kind === "corridor") return `corridor ${where}${s.level > 1 ? ` (level ${s.level})` : ""}`;
  if (s.kind === "start") return `start space ${where}`;
  return s.name;
}

/** What lies on a corridor space as this seat knows it: a public face, a peeked one, or none. */
export function tileOf(/** @type {ZagorView} */ view, /** @type {string} */ id) {
  const tile = view.spaces?.[id]?.tile;
  if (!tile) return { kind: "none", face: null };
  if (tile.face) return { kind: "face-up", face: tile.face };
  const peeked = view.me?.seen_tiles?.[id];
  return peeked ? { kind: "peeked", face: peeked } : { kind: "face-down", face: null };
}

/** The legal actions of one type (optionally filtered). */
export function actionsOf(
  /** @type {ZagorView} */ view,
  /** @type {string} */ type,
  /** @type {(a: Action) => boolean} */ pred = () => true,
) {
  return (view.legal_actions ?? []).filter((a) => a.type === type && pred(a));
}

/**
 * The legal actions grouped for the page: moves by destination, buys by item, attacks by target,
 * casts and uses by spell / item (each with its targets), fight, spoils and end-of-turn choices.
 */
export function groupActions(/** @type {ZagorView} */ view) {
  const g = {
    /** @type {Map<string, Action>} */ moves: new Map(),
    /** @type {Map<string, Action>} */ buys: new Map(),
    /** @type {Map<string, Action>} */ attacks: new Map(),
    /** @type {Map<string, Action[]>} */ casts: new Map(),
    /** @type {Map<string, Action[]>} */ uses: new Map(),
    /** @type {Action[]} */ fight: [],
    /** @type {Action[]} */ spoils: [],
    /** @type {Action[]} */ ends: [],
  };
  for (const a of view.legal_actions ?? []) {
    if (a.type === "move") g.moves.set(a.to, a);
    else if (a.type === "buy") g.buys.set(a.item, a);
    else if (a.type === "attack_hero") g.attacks.set(a.target, a);
    else if (a.type === "cast") g.casts.set(a.spell, [...(g.casts.get(a.spell) ?? []), a]);
    else if (a.type === "use") g.uses.set(a.item, [...(g.uses.get(a.item) ?? []), a]);
    else if (a.type === "strike" || a.type === "retreat" || a.type === "surrender") g.fight.push(a);
    else if (a.type === "spoils") g.spoils.push(a);
    else if (a.type === "end_turn") g.ends.push(a);
  }
  return g;
}

/** What a spell's or item's target is: "hero", "space", "item" or "none". */
export function targetKind(/** @type {ZagorView} */ view, /** @type {Map<string, PlacedSpace>} */ placed, /** @type {any} */ target) {
  if (target === null || target === undefined) return "none";
  if (heroOf(view, target)) return "hero";
  if (placed.has(target)) return "space";
  return "item";
}

/** A target in words. */
export function targetLabel(/** @type {ZagorView} */ view, /** @type {Map<string, PlacedSpace>} */ placed, /** @type {any} */ target) {
  const kind = targetKind(view, placed, target);
  if (kind === "none") return "";
  if (kind === "hero") return firstName(view, target);
  if (kind === "space") return spaceLabel(placed, target);
  return String(target);
}

/** A button's words for a legal action. */
export function actionLabel(/** @type {ZagorView} */ view, /** @type {Map<string, PlacedSpace>} */ placed, /** @type {Action} */ a) {
  switch (a.type) {
    case "move":
      return `Move to ${spaceLabel(placed, a.to)}`;
    case "buy":
      return `Buy ${a.item} (${view.me?.store?.prices?.[a.item] ?? "?"} gold)`;
    case "strike":
      if (a.by === "hireling") return `Send ${heroOf(view, a.hero)?.hireling?.name ?? "the hireling"} to strike`;
      return "Strike";
    case "retreat":
      return "Retreat";
    case "surrender":
      return "Surrender";
    case "attack_hero":
      return `Attack ${firstName(view, a.target)}`;
    case "cast": {
      const on = targetLabel(view, placed, a.target);
      return on ? `Cast ${a.spell} on ${on}` : `Cast ${a.spell}`;
    }
    case "use": {
      const on = targetLabel(view, placed, a.target);
      return on ? `Use ${a.item} on ${on}` : `Use ${a.item}`;
    }
    case "spoils":
      return spoilsLabel(view, a);
    case "end_turn":
      return a.swap ? `End turn, swapping ${a.swap}` : "End turn";
    default:
      return a.type;
  }
}

function spoilsLabel(/** @type {ZagorView} */ view, /** @type {Action} */ a) {
  const loser = firstName(view, view.spoils?.loser);
  if (a.take === "gold") return `Take all ${loser}'s gold`;
  if (a.take === "chest") return `Take one of ${loser}'s chest cards`;
  if (a.take === "item") return `Take ${loser}'s ${a.item}`;
  if (a.take === "space") return `Step onto ${loser}'s space`;
  if (a.take === "stay") return "Stay where you are";
  return `Take ${a.take}`;
}

/** The d10s that log entries show, in order: [{who, value, seq}]. */
export function diceOf(/** @type {Entry[]} */ entries) {
  const out = [];
  for (const e of entries) {
    for (const roll of e.dice ?? []) {
      if (roll.kind !== "d10") continue;
      for (const value of roll.values ?? []) out.push({ who: roll.who ?? "", value, seq: e.seq });
    }
  }
  return out;
}

/** The entries of the newest version that rolled dice (the tray shows that roll). */
export function lastRoll(/** @type {Entry[]} */ entries) {
  const rolled = entries.filter((e) => (e.dice ?? []).some((r) => r.kind === "d10"));
  if (!rolled.length) return [];
  const last = rolled[rolled.length - 1];
  if (last.version === undefined) return [last];
  return rolled.filter((e) => e.version === last.version);
}

/**
 * Whether a turn began after the newest roll in `entries`: the tray then shows a roll from an
 * earlier turn, and says so (dice stay on the table until rolled again, but must not read as
 * this turn's).
 */
export function rollBeforeThisTurn(/** @type {Entry[]} */ entries) {
  const roll = lastRoll(entries);
  if (!roll.length) return false;
  const rolledAt = Math.max(...roll.map((e) => e.seq));
  return entries.some((e) => e.type === "turn" && e.seq > rolledAt);
}

/** The voice's announcements among entries ("Zagor: ..."). */
export function voiceLines(/** @type {Entry[]} */ entries) {
  return entries.filter((e) => e.type === "voice").map((e) => e.text);
}

/** The "repeat" line: the view's `last_voice`, as the unit says it. */
export function repeatLine(/** @type {ZagorView} */ view) {
  const line = view.last_voice;
  if (!line) return "";
  return line.startsWith("Zagor:") ? line : `Zagor: ${line}`;
}

/** The level to show first on a phone: the seat's own hero's, else the acting hero's. */
export function focusLevel(/** @type {ZagorView} */ view) {
  const mine = heroOf(view, view.me?.hero);
  const acting = heroOf(view, view.turn?.hero);
  const inPlay = view.levels ?? [];
  const mineActs = view.turn?.seat === view.seat;
  const hero = (mineActs ? mine : acting) ?? mine ?? acting;
  return hero && inPlay.includes(hero.level) ? hero.level : (inPlay[0] ?? 1);
}

/** The levels holding a legal move's destination. */
export function levelsWithMoves(/** @type {ZagorView} */ view, /** @type {Map<string, PlacedSpace>} */ placed) {
  const out = new Set();
  for (const a of actionsOf(view, "move")) {
    const s = placed.get(a.to);
    if (s) out.add(s.level);
  }
  return out;
}

/** The voice's score in words (rules 13.3): fights won minus rooms avoided, so it may fall below 0. */
export function scoreText(/** @type {Hero} */ hero) {
  const fights = `${hero.fights_won} fight${hero.fights_won === 1 ? "" : "s"} won`;
  const rooms = `${hero.rooms_avoided} room${hero.rooms_avoided === 1 ? "" : "s"} avoided`;
  return `${hero.score} (${fights} minus ${rooms})`;
}

/** The outcome in words, or "" while the game runs. */
export function outcomeText(/** @type {ZagorView} */ view) {
  const outcome = view.outcome;
  if (!outcome) return "";
  if (outcome.startsWith("hero:")) {
    const hero = heroOf(view, outcome.slice(5));
    return `${hero ? hero.name : outcome.slice(5)} won.`;
  }
  if (outcome === "zagor") return "Zagor kept his crypt: no hero won before the round limit.";
  return "The game is over.";
}

/** The choices of the "surrender at Stamina N or less" setting (0 never surrenders). */
export function surrenderChoices(/** @type {Hero | null} */ hero) {
  const top = hero?.stamina_max ?? 0;
  return Array.from({ length: top + 1 }, (_, n) => n);
}

/** What is still unused when ending the turn now, in words (for the "End your turn?" question). */
export function unusedThisTurn(/** @type {ZagorView} */ view) {
  const out = [];
  if (actionsOf(view, "move").length) out.push("You could still move.");
  if (actionsOf(view, "cast").length) out.push("You could still cast a spell.");
  return out;
}

/** Words split into lines of at most `max` characters (at most `lines` lines; the last cut with …). */
export function wrapWords(/** @type {string} */ text, /** @type {number} */ max, /** @type {number} */ lines = 2) {
  const out = [];
  let line = "";
  for (const word of String(text).split(/\s+/).filter(Boolean)) {
    if (!line) line = word;
    else if (line.length + 1 + word.length <= max) line += ` ${word}`;
    else {
      out.push(line);
      line = word;
    }
  }
  if (line) out.push(line);
  if (out.length > lines) {
    const kept = out.slice(0, lines);
    kept[lines - 1] = `${kept[lines - 1].slice(0, Math.max(1, max - 1))}…`;
    return kept;
  }
  return out;
}

/** One replay step's whole view: the step before with this step's changed keys. */
export function mergeReplayView(/** @type {any} */ before, /** @type {{view?: any, view_changes?: any}} */ step) {
  if (step.view) return step.view;
  return { ...before, ...(step.view_changes ?? {}) };
}

/** A stable key of an action, for comparing. */
export function actionKey(/** @type {Action} */ a) {
  return JSON.stringify(
    Object.keys(a)
      .sort()
      .map((k) => [k, a[k]]),
  );
}
