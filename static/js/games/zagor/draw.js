// Legend of Zagor's board as SVG, drawn from the view's own layout (docs/zagor/face.md): the
// levels in play side by side, their spaces and links, each revealed tile's face, the rooms'
// monsters and chests, the heroes, the monster being fought and the spaces a legal action may
// be aimed at. Every text goes in through textContent (svgText), never as markup.

import { svgEl, svgText } from "../../table/dom.js";
import { HERO_SHORT, heroOf, levelBoxes, linksOf, placeSpaces, spaceLabel, TITLE, tileOf, wrapWords } from "./model.js";

const HALF = 0.42; // half a space's square

const KIND_TEXT = {
  store: "Store",
  portal: "Portal of Doom",
  cave: "Dragon",
  hall: "Skull Hall",
};

/** A d10 as a small SVG (a kite, the number inside), with its accessible label. */
export function d10(value, label = `d10: ${value}`) {
  const svg = svgEl("svg", { viewBox: "0 0 24 24", class: "die die-d10", role: "img", "aria-label": label });
  svgText("title", {}, label, svg);
  svgEl("path", { d: "M12 1.2 L22.6 9.6 L12 22.8 L1.4 9.6 Z", class: "d10-body" }, svg);
  svgEl("path", { d: "M1.4 9.6 L7 12.6 L12 10.4 L17 12.6 L22.6 9.6 M7 12.6 L12 22.8 L17 12.6 M12 1.2 L12 10.4", class: "d10-edge" }, svg);
  svgText("text", { x: 12, y: 17.4, class: "d10-num", "text-anchor": "middle" }, String(value), svg);
  return svg;
}

/**
 * Draw the board into `svg`. `marks`: {moves: Set<space>, targets: Set<space>, heroTargets:
 * Set<hero>, only: level | null (a phone shows one level)}.
 */
export function drawBoard(svg, view, marks = {}) {
  const placed = placeSpaces(view);
  const boxes = levelBoxes(view);
  const { same, cross } = linksOf(view, placed);
  const moves = marks.moves ?? new Set();
  const targets = marks.targets ?? new Set();
  const heroTargets = marks.heroTargets ?? new Set();
  svg.replaceChildren();

  const levels = svgEl("g", { class: "levels" }, svg);
  for (const box of boxes) {
    const g = svgEl("g", { class: `level level-${box.level}`, "data-level": box.level }, levels);
    svgEl("rect", { x: box.x, y: 0.05, width: box.width, height: box.height - 0.05, rx: 0.2, class: "level-floor" }, g);
    const name = box.width < 3 ? `Level ${box.level}` : `Level ${box.level}: ${box.name}`;
    svgText("text", { x: box.x + box.width / 2, y: TITLE * 0.62, class: "level-title", "text-anchor": "middle" }, name, g);
  }

  const links = svgEl("g", { class: "links" }, svg);
  for (const [a, b] of same) {
    const pa = placed.get(a);
    const pb = placed.get(b);
    svgEl("line", { x1: pa.gx, y1: pa.gy, x2: pb.gx, y2: pb.gy, class: "link" }, links);
  }
  // Secret Passages face up on one level link to each other (rules 5.5): a dashed line.
  const passages = new Map();
  for (const [id, s] of placed) {
    if (tileOf(view, id).face === "Secret Passage" && tileOf(view, id).kind === "face-up") {
      passages.set(s.level, [...(passages.get(s.level) ?? []), s]);
    }
  }
  for (const pair of passages.values()) {
    if (pair.length === 2)
      svgEl("line", { x1: pair[0].gx, y1: pair[0].gy, x2: pair[1].gx, y2: pair[1].gy, class: "link link-secret" }, links);
  }
  const crossTo = new Map();
  for (const [a, b] of cross) {
    crossTo.set(a, placed.get(b).level);
    crossTo.set(b, placed.get(a).level);
  }

  const spaces = svgEl("g", { class: "spaces" }, svg);
  for (const [id, s] of placed) drawSpace(spaces, view, s, { move: moves.has(id), target: targets.has(id), crossTo: crossTo.get(id) });

  drawFight(svg, view, placed);

  const figures = svgEl("g", { class: "figures" }, svg);
  for (const hero of view.heroes ?? []) {
    const s = placed.get(hero.space);
    if (!s) continue;
    drawHero(figures, view, hero, s, heroTargets.has(hero.hero));
  }
  return { placed, boxes };
}

function drawSpace(parent, view, s, { move, target, crossTo }) {
  const state = view.spaces?.[s.id] ?? {};
  const classes = ["space", `space-${s.kind}`];
  if (move) classes.push("hl-move");
  if (target) classes.push("hl-target");
  const g = svgEl("g", { class: classes.join(" "), "data-space": s.id, "data-level": s.level }, parent);
  svgText("title", {}, spaceTitle(view, s), g);
  const x = s.gx - HALF;
  const y = s.gy - HALF;
  const size = HALF * 2;
  if (s.kind === "corridor") {
    const tile = tileOf(view, s.id);
    svgEl("rect", { x, y, width: size, height: size, rx: 0.08, class: "sq sq-corridor" }, g);
    if (tile.kind !== "none") {
      svgEl(
        "rect",
        { x: x + 0.07, y: y + 0.07, width: size - 0.14, height: size - 0.14, rx: 0.06, class: `tile tile-${tile.kind} tile-l${s.level}` },
        g,
      );
      if (tile.face) {
        const cls = tile.kind === "peeked" ? "tile-face tile-face-peeked" : "tile-face";
        // A hero on the tile stands in its lower right, as in a room: the face reads above.
        if (heroOn(view, s.id)) faceTextAbove(g, s, tile.face, cls);
        else faceText(g, s, tile.face, cls);
      }
    }
  } else if (s.kind === "room") {
    svgEl("rect", { x, y, width: size, height: size, rx: 0.12, class: `sq sq-room${state.monster ? "" : " sq-cleared"}` }, g);
    const name = wrapWords(s.name, 9, 2);
    name.forEach((line, i) => {
      svgText("text", { x: s.gx, y: y + 0.2 + i * 0.17, class: "room-name", "text-anchor": "middle" }, line, g);
    });
    // A hero in the room covers its lower half: the fight's figure shows the monster then.
    if (heroOn(view, s.id)) {
      // nothing more: the figures tell
    } else if (state.monster) {
      const cls = state.monster.length > 10 ? "room-monster room-monster-long" : "room-monster";
      svgText("text", { x: s.gx, y: s.gy + 0.17, class: cls, "text-anchor": "middle" }, state.monster, g);
    } else svgText("text", { x: s.gx, y: s.gy + 0.17, class: "room-cleared", "text-anchor": "middle" }, "cleared", g);
    if (state.chests) {
      svgEl("rect", { x: s.gx - 0.17, y: y + size - 0.2, width: 0.13, height: 0.1, rx: 0.02, class: "chest-mark" }, g);
      svgText("text", { x: s.gx + 0.02, y: y + size - 0.1, class: "chest-count" }, `×${state.chests}`, g);
    }
  } else if (s.kind === "start") {
    svgEl("rect", { x, y, width: size, height: size, rx: 0.08, class: "sq sq-start" }, g);
    const owner = (view.heroes ?? []).find((h) => h.start === s.id);
    if (owner)
      svgEl(
        "rect",
        { x: x + 0.05, y: y + 0.05, width: size - 0.1, height: size - 0.1, rx: 0.06, class: `start-ring hero-stroke-${owner.hero}` },
        g,
      );
    const occupied = (view.heroes ?? []).some((h) => h.space === s.id);
    if (!occupied) {
      svgText("text", { x: s.gx, y: s.gy - 0.03, class: "start-label", "text-anchor": "middle" }, "start", g);
      if (owner) svgText("text", { x: s.gx, y: s.gy + 0.13, class: "start-label", "text-anchor": "middle" }, owner.name.split(" ")[0], g);
    }
  } else {
    svgEl("rect", { x, y, width: size, height: size, rx: s.kind === "portal" ? HALF : 0.12, class: `sq sq-${s.kind}` }, g);
    const label = s.kind === "bridge" ? (s.id === "rope_bridge" ? "Rope Bridge" : "Stone Steps") : (KIND_TEXT[s.kind] ?? s.kind);
    wrapWords(label, 7, 2).forEach((line, i) => {
      svgText("text", { x: s.gx, y: y + 0.22 + i * 0.16, class: "special-label", "text-anchor": "middle" }, line, g);
    });
  }
  if (crossTo) svgText("text", { x: s.gx, y: y + size - 0.06, class: "cross-label", "text-anchor": "middle" }, `to level ${crossTo}`, g);
  if (move || target)
    svgEl(
      "rect",
      { x: x - 0.02, y: y - 0.02, width: size + 0.04, height: size + 0.04, rx: 0.12, class: move ? "ring-move" : "ring-target" },
      g,
    );
  // The whole square answers a tap (the texts and figures above it pass the tap through).
  svgEl("rect", { x, y, width: size, height: size, class: "hit" }, g);
}

function spaceTitle(view, s) {
  const state = view.spaces?.[s.id] ?? {};
  const placed = new Map([[s.id, s]]);
  const base = spaceLabel(placed, s.id);
  if (s.kind === "corridor") {
    const tile = tileOf(view, s.id);
    if (tile.kind === "none") return `${base}: no tile`;
    if (tile.kind === "face-down") return `${base}: a face-down tile`;
    if (tile.kind === "peeked") return `${base}: a face-down tile (you saw ${tile.face})`;
    return `${base}: ${tile.face}`;
  }
  if (s.kind === "room") return `${base}: ${state.monster ?? "cleared"}${state.chests ? `, ${state.chests} chest card(s)` : ""}`;
  return base;
}

function faceText(g, s, face, cls) {
  const lines = wrapWords(face, 8, 2);
  const top = s.gy + 0.06 - (lines.length - 1) * 0.085;
  lines.forEach((line, i) => {
    svgText("text", { x: s.gx, y: top + i * 0.17, class: cls, "text-anchor": "middle" }, line, g);
  });
}

function faceTextAbove(g, s, face, cls) {
  const lines = wrapWords(face, 9, 2);
  lines.forEach((line, i) => {
    svgText("text", { x: s.gx, y: s.gy - HALF + 0.2 + i * 0.15, class: `${cls} tile-face-above`, "text-anchor": "middle" }, line, g);
  });
}

function heroOn(view, id) {
  return (view.heroes ?? []).some((h) => h.space === id);
}

function drawHero(parent, view, hero, s, targeted) {
  const acting = view.turn?.hero === hero.hero && !view.over;
  const mine = view.me?.hero === hero.hero;
  const cls = ["figure", "hero-figure", acting ? "acting" : "", mine ? "mine" : "", targeted ? "hl-hero" : ""].filter(Boolean).join(" ");
  const g = svgEl("g", { class: cls, "data-hero": hero.hero }, parent);
  svgText("title", {}, `${hero.name}: Stamina ${hero.stamina} of ${hero.stamina_max}`, g);
  // Centred on a bare corridor or a start; on a tile with a face, or in a room, its lower right.
  const centred = s.kind === "start" || (s.kind === "corridor" && !tileOf(view, s.id).face);
  const cx = s.gx + (centred ? 0 : 0.19);
  const cy = s.gy + (centred ? 0.04 : 0.2);
  const r = centred ? 0.25 : 0.19;
  if (acting) svgEl("circle", { cx, cy, r: r + 0.07, class: "acting-ring" }, g);
  if (targeted) svgEl("circle", { cx, cy, r: r + 0.1, class: "ring-target" }, g);
  svgEl("circle", { cx, cy, r, class: `hero-token hero-fill-${hero.hero}` }, g);
  svgText(
    "text",
    { x: cx, y: cy + 0.08, class: "hero-initials", "text-anchor": "middle" },
    HERO_SHORT[hero.hero] ?? hero.hero.slice(0, 2),
    g,
  );
  if (hero.orb) svgEl("circle", { cx: cx + 0.2, cy: cy - 0.2, r: 0.08, class: "orb-mark" }, g);
  if (hero.misses_turns > 0) svgText("text", { x: cx, y: cy + 0.42, class: "hero-status", "text-anchor": "middle" }, "misses a turn", g);
}

function drawFight(svg, view, placed) {
  const fight = view.fight;
  if (!fight || fight.kind === "duel") return;
  const hero = heroOf(view, fight.hero);
  const s = placed.get(fight.space ?? hero?.space ?? "");
  if (!s) return;
  const g = svgEl("g", { class: `figure fight-figure fight-${fight.kind}`, "data-fight": fight.kind }, svg);
  svgText("title", {}, `${fight.foe}: Strength ${fight.strength}, Stamina ${fight.stamina}`, g);
  const cx = s.gx - 0.19;
  const cy = s.gy + 0.16;
  svgEl("path", { d: `M${cx} ${cy - 0.24} L${cx + 0.22} ${cy + 0.2} L${cx - 0.22} ${cy + 0.2} Z`, class: "monster-token" }, g);
  svgText("text", { x: cx, y: cy + 0.15, class: "monster-figures", "text-anchor": "middle" }, `${fight.strength}/${fight.stamina}`, g);
}
