// The story of the quest: log entries told with room and figure names (never coordinates), each
// citing the rule it applied; "while you were away" for the seat coming back to its turn.

import { diceList } from "./dice.js";
import { el } from "../../table/dom.js";
import { areaTitle, keyOf, placeName } from "./model.js";
import { heroRef, joinNames, monsterRef, pretty } from "./names.js";
import { ruleAnchor, ruleOf } from "./rules.js";

const MOVES = new Set(["move", "monster_move"]);
const moverOf = (e) => (MOVES.has(e?.type) && !(e.dice ?? []).length ? `${e.type}:${e.hero ?? e.monster ?? ""}` : null);

/** The last move of a group (a move run may carry what came into sight on its way). */
const lastMove = (group) => [...group].reverse().find((e) => moverOf(e));

/**
 * Consecutive single-square moves of one figure read as one line of the story; what comes into
 * sight on the way ("Part of the Soot Gallery comes into sight") joins that line instead of
 * splitting the walk in two.
 */
export function groupEntries(entries) {
  const groups = [];
  for (const e of entries) {
    const last = groups[groups.length - 1];
    const mover = moverOf(e);
    const walking = last && moverOf(lastMove(last));
    if (mover && walking === mover) last.push(e);
    else if (e.type === "reveal" && walking) last.push(e);
    else groups.push([e]);
  }
  return groups;
}

/** How a sentence names a figure: heroes by name or class, monsters as the story does (never an id). */
function figureName(index, id) {
  if (!id) return "";
  const h = index.heroes.get(id);
  if (h) return heroRef(h);
  const m = index.monsters.get(id);
  if (m) return monsterRef(m);
  return "";
}

/** The engine's own name of a moving figure: "The second orc moves to (3, 4)." -> "The second orc". */
function moverName(e) {
  return String(e.text ?? "").match(/^(.*?) (?:moves|leaps)\b/)?.[1] ?? "";
}

/** The monster a defeating entry names: "...; the second orc loses 1 Body and is defeated." */
export function defeatedName(e) {
  const text = String(e.text ?? "");
  const own = text.match(/(?:^|[;:] )([^;:]*?) (?:loses \d+ Body and )?is defeated/)?.[1];
  if (own && !/^\d/.test(own)) return own.replace(/^The /, "the ");
  const struck = text.match(/strikes (.*?):/)?.[1];
  return struck ?? "a monster";
}

/** What came into sight along a walk, each area told once: "Part of X comes into sight. There: the orc." */
function sightText(reveals, index) {
  const byArea = new Map();
  for (const r of reveals) {
    const key = r.area ?? r.seq;
    const known = byArea.get(key);
    const there = String(r.text ?? "").match(/ There: (.*)\.$/)?.[1] ?? "";
    const head = placesInText(String(r.text ?? "").replace(/ There: .*$/, ""), index);
    if (!known) byArea.set(key, { head, there: there ? [there] : [] });
    else if (there) known.there.push(there);
  }
  return [...byArea.values()].map((a) => `${a.head}${a.there.length ? ` There: ${a.there.join(", ")}.` : ""}`).join(" ");
}

const cap = (s) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : s);

/** The door's two sides, named: "the door of the Guard Room" / "the door between X and Y". */
export function doorName(index, doorId) {
  const door = index.doorsById.get(doorId);
  if (!door?.between) return "a door";
  const sides = door.between.map((sq) => {
    const s = index.squares.get(keyOf(sq));
    return s ? index.areas.get(s.area) : null;
  });
  const rooms = sides.filter((a) => a?.kind === "room");
  if (rooms.length === 1) return `the door of ${areaTitle(rooms[0])}`;
  const named = sides.filter(Boolean).map(areaTitle);
  if (named.length === 2 && named[0] !== named[1]) return `the door between ${named[0]} and ${named[1]}`;
  return named.length ? `a door of ${named[0]}` : "a door";
}

/** Coordinates in an engine text, told as places: "(5, 12)" -> "the Guard Room". */
function placesInText(text, index) {
  return String(text ?? "")
    .replace(/\bto \((\d+), (\d+)\)/g, (_, x, y) => `to ${placeName(index, [Number(x), Number(y)]) || "a square nearby"}`)
    .replace(/\((\d+), (\d+)\)/g, (_, x, y) => placeName(index, [Number(x), Number(y)]) || "a square nearby");
}

/** One line of the story for a group of entries (a run of steps is one group). */
export function storyText(group, index) {
  const move = lastMove(group);
  if (move?.to) {
    const moves = group.filter((g) => moverOf(g));
    const reveals = group.filter((g) => g.type === "reveal");
    const hero = move.hero ? index.heroes.get(move.hero) : null;
    const who = (hero ? cap(heroRef(hero)) : moverName(move)) || cap(figureName(index, move.hero ?? move.monster));
    const where = placeName(index, move.to);
    const steps = moves.length;
    const leap = moves.some((g) => / leaps over the pit/.test(g.text ?? "")) ? " leaping a pit," : "";
    const walked = `${who} moves ${steps} square${steps === 1 ? "" : "s"},${leap} ${where ? `to ${where}` : "out of sight"}.`;
    return reveals.length ? `${walked} ${sightText(reveals, index)}` : walked;
  }
  const e = group[group.length - 1];
  if (e.type === "door_opened" && e.door) {
    const who = String(e.text ?? "").match(/^(.*?) opens a door/)?.[1] ?? "Someone";
    return `${who} opens ${doorName(index, e.door)}.`;
  }
  return placesInText(e.text, index);
}

/** The squares an entry is about (for the highlight when it is clicked). */
export function entrySquares(group, index) {
  const out = [];
  const add = (sq) => {
    if (Array.isArray(sq) && sq.length === 2 && !out.some((p) => p[0] === sq[0] && p[1] === sq[1])) out.push(sq);
  };
  for (const e of group) {
    add(e.to);
    add(e.square);
  }
  const e = lastMove(group) ?? group[group.length - 1];
  if (e.door) for (const sq of index.doorsById.get(e.door)?.between ?? []) add(sq);
  for (const id of [e.hero, e.monster, e.attacker, e.target]) {
    add(index.heroes.get(id)?.position);
    add(index.monsters.get(id)?.position);
  }
  if (e.type === "reveal" && e.area) for (const s of index.view.map?.squares ?? []) if (s.area === e.area) add([s.x, s.y]);
  return out;
}

const ROLE_LABEL = ["attacker", "defender"];

/** One <li> of the story. */
export function storyItem(group, index, { rulesUrl = "", away = false } = {}) {
  const e = lastMove(group) ?? group[group.length - 1];
  const rule = ruleOf(e);
  const squares = entrySquares(group, index);
  const labels = e.type === "attack" && (e.dice ?? []).length === 2 ? ROLE_LABEL : null;
  const body = [
    el("span", { class: "log-text" }, storyText(group, index)),
    (e.dice ?? []).length ? diceList(e.dice, { labels, index }) : null,
  ];
  const cite = rule
    ? el(
        "a",
        { class: "log-rule", href: `${rulesUrl}${ruleAnchor(rule.section)}`, target: "_blank", rel: "noopener" },
        `rules ${rule.section}: ${rule.text}`,
      )
    : null;
  const item = el("li", {
    class: `log-entry log-${e.type ?? "event"}${away ? " log-away-entry" : ""}`,
    dataset: { seq: String(group[0].seq ?? ""), last: String(group[group.length - 1].seq ?? "") },
  });
  if (squares.length) {
    item.appendChild(
      el(
        "button",
        {
          type: "button",
          class: "log-show",
          dataset: { squares: JSON.stringify(squares) },
          "aria-pressed": "false",
          title: "Show on the map",
        },
        body,
      ),
    );
  } else {
    item.appendChild(el("div", { class: "log-plain" }, body));
  }
  if (cite) item.appendChild(cite);
  return item;
}

// ---- Since your last turn ----------------------------------------------------------------

/** Is the turn an entry starts this seat's? ("turn" for one of its heroes, "phase" for Zargon). */
function startsTurnOf(e, view) {
  if (e.type === "turn") return (view.heroes_owned ?? []).includes(e.hero) ? "mine" : "other";
  if (e.type === "phase") return view.role === "zargon" ? "mine" : "other";
  return null;
}

/**
 * The seq from which entries happened while this seat was away: after its last turn ended and
 * before its current turn (if it is its turn now). null when that turn is not in `entries`.
 */
export function awaySince(entries, view) {
  const marks = [];
  for (const e of entries) {
    const owner = startsTurnOf(e, view);
    if (owner && marks[marks.length - 1]?.owner !== owner) marks.push({ owner, seq: e.seq });
  }
  // The last stretch of turns that were this seat's and that has ended.
  for (let i = marks.length - 2; i >= 0; i--) {
    if (marks[i].owner === "mine" && marks[i + 1].owner === "other") return marks[i + 1].seq;
  }
  return null;
}

/** Entries since `since` up to the seat's current turn. */
export function awayEntries(entries, view, since) {
  if (since === null) return [];
  const out = [];
  for (const e of entries) {
    if (e.seq < since) continue;
    if (startsTurnOf(e, view) === "mine") break;
    out.push(e);
  }
  return out;
}

const NUMBERS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
const count = (n, word) => `${NUMBERS[n] ?? n} ${word}${n === 1 ? "" : "s"}`;

/** "the Elf opened the door of the Library, two goblins appeared, the Barbarian lost 2 Body". */
export function awaySummary(entries, index) {
  const parts = [];
  const lost = new Map();
  const appeared = new Map();
  for (const e of entries) {
    if (e.type === "door_opened" && e.door) {
      const who = String(e.text ?? "").match(/^(.*?) opens a door/)?.[1];
      parts.push(`${who ?? "someone"} opened ${doorName(index, e.door)}`);
    } else if (e.type === "reveal") {
      for (const id of e.monsters ?? []) {
        const kind = index.monsters.get(id)?.kind;
        if (kind) appeared.set(kind, (appeared.get(kind) ?? 0) + 1);
      }
    } else if (e.type === "wandering_monster") {
      parts.push("a wandering monster appeared");
    } else if (e.type === "attack" && (e.lost ?? e.hits) && index.heroes.has(e.target)) {
      lost.set(e.target, (lost.get(e.target) ?? 0) + (e.lost ?? e.hits));
    } else if (e.defeated && (e.type === "attack" || e.type === "spell" || e.type === "dread_spell_hit")) {
      const who = figureName(index, e.attacker ?? e.hero);
      parts.push(`${who || "a hero"} defeated ${defeatedName(e)}`);
    } else if (e.type === "trap" && e.hero) {
      parts.push(`${figureName(index, e.hero)} sprang a ${pretty(e.kind ?? "").toLowerCase() || "hidden"} trap`);
    } else if (e.type === "hero_fallen" && e.hero) {
      parts.push(`${figureName(index, e.hero)} fell`);
    } else if (e.type === "escape" && e.hero) {
      parts.push(`${figureName(index, e.hero)} escaped`);
    } else if (e.type === "villain_defeated") {
      parts.push("the villain was defeated");
    }
  }
  for (const [kind, n] of appeared) parts.push(`${count(n, pretty(kind).toLowerCase())} appeared`);
  for (const [hero, n] of lost) parts.push(`${figureName(index, hero)} lost ${n} Body`);
  return parts.length ? joinNames(parts.map((p) => p.replace(/^The /, "the "))) : "";
}
