// @ts-check
// Pure helpers over the seat view: lookups, legal-action queries, reachability. No DOM here.

import { MONSTER_MOVE } from "./names.js";

/** @typedef {import("./seat_view.js").SeatView} SeatView */
/** @typedef {import("./seat_view.js").Action} Action */
/** @typedef {import("./seat_view.js").Point} Point */

export const key = (x, y) => `${x},${y}`;
export const keyOf = (p) => `${p[0]},${p[1]}`;
export const samePoint = (a, b) => Array.isArray(a) && Array.isArray(b) && a[0] === b[0] && a[1] === b[1];

export const SIDES = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };
const OPPOSITE = { N: "S", E: "W", S: "N", W: "E" };

/** The key of the edge between two orthogonally adjacent squares, independent of order. */
export function edgeKey(a, b) {
  const [p, q] = [keyOf(a), keyOf(b)].sort();
  return `${p}|${q}`;
}

function sideBetween(from, to) {
  const dx = to[0] - from[0];
  const dy = to[1] - from[1];
  for (const [side, [sx, sy]] of Object.entries(SIDES)) if (sx === dx && sy === dy) return side;
  return null;
}

/**
 * Lookup tables built once per view.
 * @param {SeatView} view
 */
export function indexView(view) {
  /** @type {Partial<import("./seat_view.js").BoardMap>} */
  const map = view.map ?? {};
  const squares = new Map();
  for (const s of map.squares ?? []) squares.set(key(s.x, s.y), s);
  const doorsByEdge = new Map();
  const doorsById = new Map();
  for (const d of map.doors ?? []) {
    doorsById.set(d.id, d);
    if (d.between?.length === 2) doorsByEdge.set(edgeKey(d.between[0], d.between[1]), d);
  }
  const blocked = new Set((map.blocked ?? []).map(keyOf));
  const heroes = new Map();
  const monsters = new Map();
  const figures = new Map(); // square key -> {kind: "hero"|"monster", data}
  for (const h of view.heroes ?? []) {
    heroes.set(h.hero, h);
    if (h.position && h.status === "playing") figures.set(keyOf(h.position), { kind: "hero", data: h });
  }
  for (const m of view.monsters ?? []) {
    monsters.set(m.id, m);
    if (m.position && (m.body ?? 1) > 0) figures.set(keyOf(m.position), { kind: "monster", data: m });
  }
  const trapSquares = new Map();
  for (const t of map.traps ?? []) if (t.square) trapSquares.set(keyOf(t.square), t);
  const furniture = new Map();
  const furnitureSquares = new Set();
  for (const f of map.furniture ?? []) {
    furniture.set(f.id, f);
    for (const s of f.squares ?? []) furnitureSquares.add(keyOf(s));
  }
  const areas = new Map((map.areas ?? []).map((a) => [a.id, a]));
  return { view, squares, doorsByEdge, doorsById, blocked, heroes, monsters, figures, trapSquares, furniture, furnitureSquares, areas };
}

/** "the Guard Room", "The Ashen Vault": the area's name with its article. */
export function areaTitle(area) {
  const name = String(area?.name ?? "").trim();
  if (!name) return area?.kind === "passage" ? "a passage" : "a room";
  return /^the\s/i.test(name) ? name : `the ${name}`;
}

/** The name of the area a square lies in, as this seat knows it; "" for squares it cannot see. */
export function placeName(index, square) {
  const sq = square && index.squares.get(keyOf(square));
  if (!sq) return "";
  return areaTitle(index.areas.get(sq.area));
}

/** True when a figure could step from `from` to the adjacent `to` as far as the board shows. */
export function canStep(index, from, to, { avoidTraps = true } = {}) {
  const side = sideBetween(from, to);
  if (!side) return false;
  const a = index.squares.get(keyOf(from));
  const b = index.squares.get(keyOf(to));
  if (!a || !b) return false;
  if ((a.walls ?? "").includes(side) || (b.walls ?? "").includes(OPPOSITE[side])) return false;
  const door = index.doorsByEdge.get(edgeKey(from, to));
  if (door && !door.open) return false;
  const k = keyOf(to);
  if (index.blocked.has(k) || index.figures.has(k) || index.furnitureSquares.has(k)) return false;
  if (avoidTraps) {
    const trap = index.trapSquares.get(k);
    if (trap && trap.state !== "disarmed") return false;
  }
  return true;
}

/** Breadth-first reach from `start` within `maxSteps`: square key -> path (list of squares, start excluded). */
export function reach(index, start, maxSteps, options = {}) {
  const paths = new Map();
  if (!start || maxSteps <= 0) return paths;
  const seen = new Set([keyOf(start)]);
  let frontier = [[start, []]];
  for (let step = 0; step < maxSteps && frontier.length; step++) {
    const next = [];
    for (const [pos, path] of frontier) {
      for (const [dx, dy] of Object.values(SIDES)) {
        const to = [pos[0] + dx, pos[1] + dy];
        const k = keyOf(to);
        if (seen.has(k) || !canStep(index, pos, to, options)) continue;
        seen.add(k);
        const p = [...path, to];
        paths.set(k, p);
        next.push([to, p]);
      }
    }
    frontier = next;
  }
  return paths;
}

/**
 * Legal actions of a given type (optionally filtered by a predicate).
 * @param {SeatView} view
 * @param {string} type
 * @param {(action: Action) => boolean} [pred]
 * @returns {Action[]}
 */
export function actionsOf(view, type, pred = () => true) {
  return (view.legal_actions ?? []).filter((a) => a.type === type && pred(a));
}

/** True when two action objects are the same action. */
export function sameAction(a, b) {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(value) {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical(value[k])]),
    );
  }
  return value;
}

/**
 * The legal action identical to `action`, if it is still legal in `view`.
 * @param {SeatView} view
 * @param {Action} action
 * @returns {Action | null}
 */
export function findLegal(view, action) {
  return (view.legal_actions ?? []).find((a) => sameAction(a, action)) ?? null;
}

/**
 * Spells the acting hero may cast now, in the order they first appear.
 * @param {SeatView} view
 * @returns {string[]}
 */
export function castableSpells(view) {
  const spells = [];
  for (const a of actionsOf(view, "cast")) if (!spells.includes(a.spell)) spells.push(a.spell);
  return spells;
}

/** Weapons the acting hero may throw now (dagger, spear, handaxe), in the order they first appear. */
export function throwableWeapons(view) {
  const weapons = [];
  for (const a of actionsOf(view, "throw")) if (!weapons.includes(a.weapon)) weapons.push(a.weapon);
  return weapons;
}

/** The canonical JSON of an action (stable key order): a button's `data-act`. */
export function actionKey(action) {
  return JSON.stringify(canonical(action));
}

/**
 * Legal single-step moves of `who` from `origin`: [{side: "N", action}] in N, E, S, W order.
 * @param {SeatView} view
 * @param {Point | null} origin
 * @param {string} [type]
 * @param {(action: Action) => boolean} [pred]
 */
export function stepMoves(view, origin, type = "move", pred = () => true) {
  if (!origin) return [];
  const out = [];
  for (const [side, [dx, dy]] of Object.entries(SIDES)) {
    const to = [origin[0] + dx, origin[1] + dy];
    const action = actionsOf(view, type, (a) => samePoint(a.to, to) && pred(a))[0];
    if (action) out.push({ side, action });
  }
  return out;
}

/**
 * Monster ids Zargon may act with now.
 * @param {SeatView} view
 * @returns {string[]}
 */
export function activeMonsterIds(view) {
  const ids = [];
  for (const a of view.legal_actions ?? []) {
    if (a.monster && a.type !== "end_activation" && !ids.includes(a.monster)) ids.push(a.monster);
  }
  for (const a of actionsOf(view, "end_activation")) if (!ids.includes(a.monster)) ids.push(a.monster);
  return ids;
}

/** Where a cast/attack target stands: a square [x, y], a door id, or null. */
export function targetLocation(index, target) {
  const m = index.monsters.get(target);
  if (m?.position) return { square: m.position };
  const h = index.heroes.get(target);
  if (h?.position) return { square: h.position };
  if (index.doorsById.has(target)) return { door: target };
  return null;
}

/**
 * Everything clickable on the board for the current selection.
 * Returns {squares: Map key -> [{action, kind}], doors: Map id -> [{action, kind}],
 *          reach: Map key -> path, selectable: Map key -> monster id, origin: [x, y] | null}.
 */
export function boardTargets(view, index, ui) {
  const squares = new Map();
  const doors = new Map();
  const selectable = new Map();
  const add = (map, k, action, kind) => {
    if (!map.has(k)) map.set(k, []);
    map.get(k).push({ action, kind });
  };
  const placeTarget = (action, target, kind) => {
    const where = targetLocation(index, target);
    if (where?.square) add(squares, keyOf(where.square), action, kind);
    else if (where?.door) add(doors, where.door, action, kind);
  };
  let origin = null;
  let reachable = new Map();

  if (ui.spell) {
    for (const a of actionsOf(view, "cast", (c) => c.spell === ui.spell)) placeTarget(a, a.target, "spell");
    return { squares, doors, reach: reachable, selectable, origin };
  }
  if (ui.throw) {
    for (const a of actionsOf(view, "throw", (c) => c.weapon === ui.throw)) placeTarget(a, a.target, "throw");
    return { squares, doors, reach: reachable, selectable, origin };
  }

  if (view.role === "zargon") {
    for (const id of activeMonsterIds(view)) {
      const m = index.monsters.get(id);
      if (m?.position) selectable.set(keyOf(m.position), id);
    }
    const sel = ui.monster ? index.monsters.get(ui.monster) : null;
    if (sel?.position) {
      origin = sel.position;
      for (const a of actionsOf(view, "monster_move", (x) => x.monster === sel.id)) add(squares, keyOf(a.to), a, "move");
      for (const a of actionsOf(view, "monster_attack", (x) => x.monster === sel.id)) placeTarget(a, a.target, "attack");
      const left = view.turn?.active_monster === sel.id ? view.turn?.monster_movement_left : null;
      const steps = Number.isInteger(left) ? left : (MONSTER_MOVE[sel.kind] ?? 6);
      if (actionsOf(view, "monster_move", (x) => x.monster === sel.id).length && steps > 1) {
        reachable = reach(index, sel.position, steps, { avoidTraps: false });
      }
    }
    return { squares, doors, reach: reachable, selectable, origin };
  }

  const actor = index.heroes.get(view.turn?.hero);
  origin = actor?.position ?? null;
  for (const a of actionsOf(view, "move")) add(squares, keyOf(a.to), a, "move");
  for (const a of actionsOf(view, "attack")) placeTarget(a, a.target, "attack");
  for (const a of actionsOf(view, "jump")) add(squares, keyOf(a.to), a, "jump");
  for (const a of actionsOf(view, "open_door")) add(doors, a.door, a, "door");
  const left = view.turn?.movement_left ?? 0;
  if (origin && actionsOf(view, "move").length && left > 1) reachable = reach(index, origin, left);
  return { squares, doors, reach: reachable, selectable, origin };
}
