// Draws the board SVG from the seat view: one square = one SVG unit.

import { defineFigures, drawFurniturePiece, placeFigure } from "./art.js";
import { svgEl, svgText } from "../../table/dom.js";
import { keyOf } from "./model.js";
import { heroDisplay, heroName, heroRef, joinNames, monsterBadge, monsterLabel, pretty, trapName } from "./names.js";

const MARGIN = 0.25;

/** Rebuild the whole board inside `svg`. */
export function drawBoard(svg, view, index, targets, ui) {
  const { width = 26, height = 19 } = view.map ?? {};
  const frame = knownFrame(view, targets);
  svg.setAttribute("viewBox", `${frame.x} ${frame.y} ${frame.w} ${frame.h}`);
  svg.dataset.width = width;
  svg.dataset.height = height;
  svg.replaceChildren();
  drawDefs(svg);
  svgEl("rect", { x: -MARGIN, y: -MARGIN, width: width + 2 * MARGIN, height: height + 2 * MARGIN, class: "rock" }, svg);
  drawSquares(svg, view, index);
  drawStairway(svg, view);
  drawBlocked(svg, view);
  drawFurniture(svg, view);
  drawTraps(svg, view, index);
  drawHighlights(svg, targets, index);
  drawWalls(svg, view);
  drawDoors(svg, view, targets);
  // Over the furniture and the doors along a room's top edge, so that no name is cut; under
  // the figures, but for a crowded room's (a name lets clicks through).
  drawRoomNames(svg, view, index);
  drawFigures(svg, view, index, targets, ui);
  drawRaisedRoomNames(svg, view, index);
  drawPathPreview(svg, ui.pending);
  drawStoryHighlight(svg, ui.highlight);
}

/**
 * The part of the map worth showing: every square this seat's board draws, and every square a
 * legal action points at, with a margin; at least 8 x 6 squares, never beyond the map.
 */
export function knownFrame(view, targets) {
  const { width = 26, height = 19 } = view.map ?? {};
  const xs = [];
  const ys = [];
  for (const s of view.map?.squares ?? []) {
    xs.push(s.x);
    ys.push(s.y);
  }
  for (const k of targets?.squares?.keys() ?? []) {
    const [x, y] = k.split(",").map(Number);
    xs.push(x);
    ys.push(y);
  }
  if (!xs.length) return { x: -MARGIN, y: -MARGIN, w: width + 2 * MARGIN, h: height + 2 * MARGIN };
  const grow = (lo, hi, min, max) => {
    let a = lo;
    let b = hi + 1;
    if (b - a < min) {
      const pad = (min - (b - a)) / 2;
      a -= pad;
      b += pad;
    }
    a = Math.max(-MARGIN, a - 0.5);
    b = Math.min(max + MARGIN, b + 0.5);
    return [a, b - a];
  };
  const [x, w] = grow(Math.min(...xs), Math.max(...xs), 8, width);
  const [y, h] = grow(Math.min(...ys), Math.max(...ys), 6, height);
  return { x, y, w, h };
}

function drawDefs(svg) {
  const defs = svgEl("defs", {}, svg);
  const rock = svgEl("pattern", { id: "rock-pattern", width: 1, height: 1, patternUnits: "userSpaceOnUse" }, defs);
  svgEl("rect", { width: 1, height: 1, class: "rock-base" }, rock);
  svgEl("circle", { cx: 0.25, cy: 0.3, r: 0.05, class: "rock-fleck" }, rock);
  svgEl("circle", { cx: 0.7, cy: 0.65, r: 0.035, class: "rock-fleck" }, rock);
  svgEl("circle", { cx: 0.55, cy: 0.15, r: 0.025, class: "rock-fleck" }, rock);
  const hatch = svgEl(
    "pattern",
    {
      id: "hidden-hatch",
      width: 0.25,
      height: 0.25,
      patternUnits: "userSpaceOnUse",
      patternTransform: "rotate(45)",
    },
    defs,
  );
  svgEl("rect", { width: 0.25, height: 0.25, class: "hidden-hatch-bg" }, hatch);
  svgEl("line", { x1: 0, y1: 0, x2: 0, y2: 0.25, class: "hidden-hatch-line" }, hatch);
  defineFigures(defs);
}

function drawSquares(svg, view, index) {
  const g = svgEl("g", { class: "squares" }, svg);
  const kinds = new Map((view.map?.areas ?? []).map((a) => [a.id, a.kind]));
  const hidden = svgEl("g", { class: "unrevealed" });
  for (const s of view.map?.squares ?? []) {
    const kind = kinds.get(s.area) ?? "room";
    svgEl("rect", { x: s.x, y: s.y, width: 1, height: 1, class: `sq sq-${kind}`, "data-area": s.area }, g);
    if (view.role === "zargon" && s.revealed === false) {
      svgEl("rect", { x: s.x, y: s.y, width: 1, height: 1, class: "sq-hidden" }, hidden);
    }
  }
  if (hidden.childNodes.length) svg.appendChild(hidden);
  return index;
}

function drawStairway(svg, view) {
  const g = svgEl("g", { class: "stairway" }, svg);
  for (const [x, y] of view.map?.stairway ?? []) {
    const cell = svgEl("g", {}, g);
    svgText("title", {}, "Stairway", cell);
    svgEl("rect", { x: x + 0.06, y: y + 0.06, width: 0.88, height: 0.88, class: "stair-base" }, cell);
    for (let i = 1; i <= 4; i++) {
      const yy = y + 0.06 + (0.88 * i) / 5;
      svgEl("line", { x1: x + 0.12, y1: yy, x2: x + 0.88, y2: yy, class: "stair-step" }, cell);
    }
  }
}

function drawBlocked(svg, view) {
  const g = svgEl("g", { class: "blocked" }, svg);
  for (const [x, y] of view.map?.blocked ?? []) {
    const cell = svgEl("g", {}, g);
    svgText("title", {}, "Blocked square", cell);
    svgEl("rect", { x: x + 0.04, y: y + 0.04, width: 0.92, height: 0.92, rx: 0.08, class: "blocked-rock" }, cell);
    svgEl(
      "path",
      { d: `M${x + 0.2} ${y + 0.2} L${x + 0.8} ${y + 0.8} M${x + 0.8} ${y + 0.2} L${x + 0.2} ${y + 0.8}`, class: "blocked-cross" },
      cell,
    );
  }
}

function bounds(squares) {
  const xs = squares.map((s) => s[0]);
  const ys = squares.map((s) => s[1]);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, w: Math.max(...xs) - x + 1, h: Math.max(...ys) - y + 1 };
}

function drawFurniture(svg, view) {
  const g = svgEl("g", { class: "furniture" }, svg);
  for (const f of view.map?.furniture ?? []) {
    if (!f.squares?.length) continue;
    const piece = svgEl("g", { class: `furn furn-${f.kind}`, "data-id": f.id }, g);
    svgText("title", {}, pretty(f.kind), piece);
    drawFurniturePiece(piece, f.kind, bounds(f.squares));
  }
}

/** Squares of each area: id -> [[x, y], ...]. */
function areaSquares(view) {
  const out = new Map();
  for (const s of view.map?.squares ?? []) {
    if (!out.has(s.area)) out.set(s.area, []);
    out.get(s.area).push([s.x, s.y]);
  }
  return out;
}

// One character of a name at font size 1, in squares (the display face's bold runs a little wide).
const NAME_CHAR_WIDTH = 0.62;
const SEARCHED_MARK_WIDTH = 1.2; // the tick and up to four heroes' dots, at the bottom right

/**
 * Where a room's name goes: along its top row, unless a figure stands under it there, which
 * would hide it (figures are drawn over names, to stay whole). Then along the bottom row, if no
 * figure stands under it there and it clears the searched mark. Where both rows are taken (a
 * crowded room) it stays on top, raised over the figures (`over`: it lets clicks through).
 * `b`: the room's bounds; `figures`: the squares ("x,y") with a figure on them.
 */
export function roomNamePlace(b, name, figures, searched) {
  const size = Math.min(0.36, (b.w * 1.7) / Math.max(4, name.length));
  const cx = b.x + b.w / 2;
  const half = Math.min(b.w, name.length * size * NAME_CHAR_WIDTH) / 2;
  const first = Math.floor(cx - half);
  const last = Math.ceil(cx + half) - 1;
  const clear = (row) => {
    for (let x = first; x <= last; x++) if (figures.has(`${x},${row}`)) return false;
    return true;
  };
  const top = { x: cx, y: b.y + 0.3, size, over: false };
  if (clear(b.y)) return top;
  const clearsMark = !searched || cx + half <= b.x + b.w - SEARCHED_MARK_WIDTH;
  if (b.h > 1 && clearsMark && clear(b.y + b.h - 1)) return { ...top, y: b.y + b.h - 0.3 };
  return { ...top, over: true };
}

/** Each room whose name goes on the board: its bounds, and where and how its name is drawn. */
function roomNames(view, index) {
  const squares = areaSquares(view);
  const rooms = [];
  for (const area of view.map?.areas ?? []) {
    const sq = squares.get(area.id);
    if (area.kind !== "room" || !area.name || !sq?.length) continue;
    const b = bounds(sq);
    rooms.push({ area, b, place: roomNamePlace(b, area.name, index.figures, (area.searched ?? []).length > 0) });
  }
  return rooms;
}

function drawRoomName(g, name, place) {
  svgText("text", { x: place.x, y: place.y, class: "room-name", "font-size": place.size.toFixed(3) }, name, g);
}

/** The names of crowded rooms, over the figures that stand under them. */
function drawRaisedRoomNames(svg, view, index) {
  const g = svgEl("g", { class: "room-names raised" }, svg);
  for (const { area, place } of roomNames(view, index)) if (place.over) drawRoomName(g, area.name, place);
}

/** Each room's name along its top edge (or its bottom one, past a figure), and a mark for the
 * heroes who searched it for treasure. A crowded room's name is drawn over its figures. */
function drawRoomNames(svg, view, index) {
  const g = svgEl("g", { class: "room-names" }, svg);
  for (const { area, b, place } of roomNames(view, index)) {
    if (!place.over) drawRoomName(g, area.name, place);
    const searched = area.searched ?? [];
    if (searched.length) {
      const mark = svgEl("g", { class: "searched-mark", "data-area": area.id }, g);
      const names = searched.map((hero) => heroRef(index.heroes.get(hero) ?? { hero }));
      svgText("title", {}, `${area.name}: searched for treasure by ${joinNames(names)}`, mark);
      const x = b.x + b.w - 0.34;
      const y = b.y + b.h - 0.34;
      svgEl("circle", { cx: x, cy: y, r: 0.24, class: "searched-disc" }, mark);
      svgEl("path", { d: `M${x - 0.12} ${y} l0.08 0.09 l0.16 -0.18`, class: "searched-tick" }, mark);
      searched.forEach((hero, i) => {
        svgEl("circle", { cx: x - 0.36 - i * 0.2, cy: y, r: 0.08, class: `searched-dot hero-fill-${hero}` }, mark);
      });
    }
  }
}

function trapIcon(parent, trap, x, y) {
  const cx = x + 0.5;
  const cy = y + 0.5;
  if (trap.kind === "pit") {
    svgEl("ellipse", { cx, cy, rx: 0.38, ry: 0.32, class: "pit-rim" }, parent);
    svgEl("ellipse", { cx, cy: cy + 0.03, rx: 0.28, ry: 0.22, class: trap.state === "sprung" ? "pit-hole open" : "pit-hole" }, parent);
  } else if (trap.kind === "spear") {
    svgEl(
      "path",
      { d: `M${x + 0.2} ${y + 0.8} L${x + 0.8} ${y + 0.2} M${x + 0.2} ${y + 0.2} L${x + 0.8} ${y + 0.8}`, class: "spear-shaft" },
      parent,
    );
    svgEl(
      "path",
      { d: `M${x + 0.8} ${y + 0.2} l-0.2 0.04 l0.16 0.16 Z M${x + 0.2} ${y + 0.2} l0.2 0.04 l-0.16 0.16 Z`, class: "spear-head" },
      parent,
    );
  } else if (trap.kind === "falling_block") {
    svgEl("rect", { x: x + 0.18, y: y + 0.18, width: 0.64, height: 0.64, rx: 0.05, class: "block-stone" }, parent);
    svgEl(
      "path",
      { d: `M${x + 0.3} ${y + 0.35} l0.15 0.12 l-0.05 0.15 l0.2 0.15 M${x + 0.62} ${y + 0.25} l-0.07 0.2`, class: "block-crack" },
      parent,
    );
    svgEl("path", { d: `M${cx} ${y + 0.02} v0.12 M${cx - 0.06} ${y + 0.09} l0.06 0.06 l0.06 -0.06`, class: "block-arrow" }, parent);
  } else {
    svgEl("circle", { cx, cy, r: 0.3, class: "trap-generic" }, parent);
    svgText("text", { x: cx, y: cy, class: "trap-mark" }, "!", parent);
  }
}

function drawTraps(svg, view, index) {
  const g = svgEl("g", { class: "traps" }, svg);
  for (const t of view.map?.traps ?? []) {
    const hiddenCls = t.detected === false ? " trap-undetected" : "";
    const trap = svgEl("g", { class: `trap trap-${t.kind} trap-${t.state}${hiddenCls}`, "data-id": t.id }, g);
    const state = t.detected === false ? "undetected" : t.state;
    svgText("title", {}, `${pretty(trapName(t.kind))} (${state})`, trap);
    if (t.square) {
      trapIcon(trap, t, t.square[0], t.square[1]);
    } else if (t.furniture) {
      const f = index.furniture.get(t.furniture);
      if (!f?.squares?.length) continue;
      const b = bounds(f.squares);
      const cx = b.x + b.w - 0.2;
      const cy = b.y + 0.2;
      svgEl("circle", { cx, cy, r: 0.17, class: "trap-badge" }, trap);
      svgText("text", { x: cx, y: cy, class: "trap-badge-mark" }, "!", trap);
    }
  }
}

function drawHighlights(svg, targets, index) {
  const g = svgEl("g", { class: "highlights" }, svg);
  for (const k of targets.reach.keys()) {
    if (targets.squares.has(k)) continue;
    const [x, y] = k.split(",").map(Number);
    svgEl("rect", { x: x + 0.04, y: y + 0.04, width: 0.92, height: 0.92, rx: 0.1, class: "hl-reach", "data-square": k }, g);
  }
  for (const [k, list] of targets.squares) {
    const kinds = new Set(list.map((t) => t.kind));
    const [x, y] = k.split(",").map(Number);
    for (const kind of ["move", "jump"]) {
      if (!kinds.has(kind)) continue;
      // A legal move onto a square this seat's board does not draw (Pass Through Rock, Veil of
      // Mist): only an outline at the coordinates the action already carries, nothing more.
      const unknown = kind === "move" && !index.squares.has(k);
      const cls = unknown ? "hl-unknown" : `hl-${kind}`;
      const node = svgEl("rect", { x: x + 0.08, y: y + 0.08, width: 0.84, height: 0.84, rx: 0.12, class: cls, "data-square": k }, g);
      if (unknown) svgText("title", {}, `Unknown square ${x}, ${y}: try to move there`, node);
    }
  }
}

function drawWalls(svg, view) {
  const seen = new Set();
  let d = "";
  for (const s of view.map?.squares ?? []) {
    for (const side of s.walls ?? "") {
      let seg;
      if (side === "N") seg = [s.x, s.y, s.x + 1, s.y];
      else if (side === "S") seg = [s.x, s.y + 1, s.x + 1, s.y + 1];
      else if (side === "W") seg = [s.x, s.y, s.x, s.y + 1];
      else if (side === "E") seg = [s.x + 1, s.y, s.x + 1, s.y + 1];
      else continue;
      const k = seg.join(",");
      if (seen.has(k)) continue;
      seen.add(k);
      d += `M${seg[0]} ${seg[1]}L${seg[2]} ${seg[3]}`;
    }
  }
  if (!d) return;
  svgEl("path", { d, class: "walls" }, svg);
  svgEl("path", { d, class: "walls-edge" }, svg);
}

/** Geometry of the edge a door sits on: centre and orientation. */
function doorEdge(door) {
  const [a, b] = door.between;
  if (a[1] === b[1]) return { cx: Math.max(a[0], b[0]), cy: a[1] + 0.5, vertical: true };
  return { cx: a[0] + 0.5, cy: Math.max(a[1], b[1]), vertical: false };
}

function drawDoors(svg, view, targets) {
  const g = svgEl("g", { class: "doors" }, svg);
  for (const door of view.map?.doors ?? []) {
    if (door.between?.length !== 2) continue;
    const { cx, cy, vertical } = doorEdge(door);
    const hidden = door.secret && door.found === false;
    const cls = ["door", door.open ? "door-open" : "door-closed"];
    if (door.secret) cls.push("door-secret");
    if (hidden) cls.push("door-unfound");
    const target = targets.doors.get(door.id);
    if (target) cls.push(`door-target door-target-${target[0].kind}`);
    const node = svgEl("g", { class: cls.join(" "), "data-door": door.id }, g);
    const state = hidden ? "secret, not found" : door.open ? "open" : "closed";
    svgText("title", {}, `${pretty(state)} door${door.secret && !hidden ? " (secret)" : ""}`, node);
    const along = 0.8;
    const across = 0.3;
    const w = vertical ? across : along;
    const h = vertical ? along : across;
    if (target) {
      svgEl(
        "rect",
        {
          x: cx - (vertical ? 0.3 : 0.48),
          y: cy - (vertical ? 0.48 : 0.3),
          width: vertical ? 0.6 : 0.96,
          height: vertical ? 0.96 : 0.6,
          rx: 0.12,
          class: "door-glow",
        },
        node,
      );
    }
    if (door.open) {
      // A bright gap in the wall between two jambs, and the leaf swung into the second square.
      svgEl("rect", { x: cx - w / 2, y: cy - h / 2, width: w, height: h, class: "door-gap" }, node);
      const j = 0.12;
      for (const s of [-1, 1]) {
        const jx = vertical ? cx - across / 2 : cx + s * (along / 2 - j / 2) - j / 2;
        const jy = vertical ? cy + s * (along / 2 - j / 2) - j / 2 : cy - across / 2;
        svgEl("rect", { x: jx, y: jy, width: vertical ? across : j, height: vertical ? j : across, class: "door-jamb" }, node);
      }
      const [, b] = door.between;
      const dir = vertical ? Math.sign(b[0] + 0.5 - cx) : Math.sign(b[1] + 0.5 - cy);
      const hx = vertical ? cx : cx - along / 2 + 0.1;
      const hy = vertical ? cy - along / 2 + 0.1 : cy;
      const ex = vertical ? cx + dir * (along - 0.25) : hx;
      const ey = vertical ? hy : cy + dir * (along - 0.25);
      svgEl("line", { x1: hx, y1: hy, x2: ex, y2: ey, class: "door-leaf" }, node);
    } else {
      svgEl("rect", { x: cx - w / 2, y: cy - h / 2, width: w, height: h, rx: 0.04, class: "door-panel" }, node);
      for (const t of [-0.22, 0.22]) {
        const d = vertical ? `M${cx - across / 2} ${cy + t} h${across}` : `M${cx + t} ${cy - across / 2} v${across}`;
        svgEl("path", { d, class: "door-band" }, node);
      }
      const kx = vertical ? cx : cx + along / 2 - 0.12;
      const ky = vertical ? cy + along / 2 - 0.12 : cy;
      svgEl("circle", { cx: kx, cy: ky, r: 0.05, class: "door-knob" }, node);
    }
    // A generous invisible hit area for taps.
    svgEl(
      "rect",
      {
        x: cx - (vertical ? 0.35 : 0.5),
        y: cy - (vertical ? 0.5 : 0.35),
        width: vertical ? 0.7 : 1,
        height: vertical ? 1 : 0.7,
        class: "door-hit",
      },
      node,
    );
  }
}

function bodyBadge(parent, x, y, figure) {
  const low = figure.body_max && figure.body <= Math.ceil(figure.body_max / 3);
  const cx = x + 0.8;
  const cy = y + 0.78;
  // A heart: Body is what a figure has left.
  svgEl(
    "path",
    {
      d: `M${cx} ${cy + 0.2} C${cx - 0.32} ${cy - 0.02} ${cx - 0.2} ${cy - 0.26} ${cx} ${cy - 0.12} C${cx + 0.2} ${cy - 0.26} ${cx + 0.32} ${cy - 0.02} ${cx} ${cy + 0.2} Z`,
      class: low ? "body-badge low" : "body-badge",
    },
    parent,
  );
  svgText("text", { x: cx, y: cy - 0.02, class: "body-text" }, String(figure.body ?? "?"), parent);
}

function drawHero(g, h, isActing) {
  const [x, y] = h.position;
  const node = svgEl(
    "g",
    { class: `figure hero hero-${h.hero}${isActing ? " acting" : ""}${h.in_pit ? " in-pit" : ""}`, "data-hero": h.hero },
    g,
  );
  const effects = (h.effects ?? []).map(pretty).join(", ");
  svgText(
    "title",
    {},
    `${heroDisplay(h)}: Body ${h.body}/${h.body_max}, Mind ${h.mind}/${h.mind_max}${effects ? `; ${effects}` : ""}${h.in_pit ? "; in a pit" : ""}`,
    node,
  );
  if (isActing) svgEl("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.49, class: "acting-ring" }, node);
  svgEl("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.43, class: `hero-token hero-fill-${h.hero}` }, node);
  placeFigure(node, h.hero, x, y, 0.05);
  bodyBadge(node, x, y, h);
}

function drawMonster(g, m, selected) {
  const [x, y] = m.position;
  const cls = ["figure", "monster", `monster-${m.kind}`];
  if (m.revealed === false) cls.push("monster-hidden");
  if (m.activated) cls.push("monster-activated");
  if (m.asleep) cls.push("monster-asleep");
  if (selected) cls.push("selected");
  const node = svgEl("g", { class: cls.join(" "), "data-monster": m.id }, g);
  const notes = [m.asleep ? "asleep" : "", m.activated ? "already activated" : "", m.revealed === false ? "not yet revealed" : ""].filter(
    Boolean,
  );
  svgText("title", {}, `${monsterLabel(m)}: Body ${m.body}/${m.body_max}${notes.length ? `; ${notes.join(", ")}` : ""}`, node);
  if (selected) svgEl("rect", { x: x + 0.02, y: y + 0.02, width: 0.96, height: 0.96, rx: 0.18, class: "selected-ring" }, node);
  svgEl("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.44, class: "monster-token" }, node);
  placeFigure(node, m.kind, x, y, 0.03);
  const badge = monsterBadge(m);
  if (badge) svgText("text", { x: x + 0.17, y: y + 0.14, class: "monster-id", "aria-hidden": "true" }, badge, node);
  if (m.asleep) svgText("text", { x: x + 0.82, y: y + 0.2, class: "asleep-mark" }, "z", node);
  bodyBadge(node, x, y, m);
}

function drawFallenMarks(g, view) {
  for (const h of view.heroes ?? []) if (h.position && h.status === "fallen") drawFallen(g, h);
}

function drawFallen(g, h) {
  const [x, y] = h.position;
  const node = svgEl("g", { class: "figure fallen" }, g);
  svgText("title", {}, `${heroDisplay(h)} has fallen here`, node);
  svgEl("path", { d: `M${x + 0.5} ${y + 0.2} v0.6 M${x + 0.3} ${y + 0.4} h0.4`, class: `fallen-mark hero-stroke-${h.hero}` }, node);
}

function drawBelongings(g, drop, index) {
  const [x, y] = drop.square;
  const node = svgEl("g", { class: "figure belongings" }, g);
  const owner = index.heroes.get(drop.hero);
  svgText("title", {}, `${owner ? heroDisplay(owner) : heroName(drop.hero)}'s belongings`, node);
  svgEl(
    "path",
    {
      d: `M${x + 0.32} ${y + 0.42} Q${x + 0.2} ${y + 0.82} ${x + 0.5} ${y + 0.82} Q${x + 0.8} ${y + 0.82} ${x + 0.68} ${y + 0.42} Z`,
      class: "bag",
    },
    node,
  );
  svgEl(
    "path",
    {
      d: `M${x + 0.36} ${y + 0.42} L${x + 0.42} ${y + 0.28} H${x + 0.58} L${x + 0.64} ${y + 0.42}`,
      class: `bag-neck hero-stroke-${drop.hero}`,
    },
    node,
  );
}

function drawFigures(svg, view, index, targets, ui) {
  const g = svgEl("g", { class: "figures" }, svg);
  drawFallenMarks(g, view);
  for (const h of view.heroes ?? []) {
    if (h.position && h.status === "playing") drawHero(g, h, view.turn?.phase === "heroes" && view.turn?.hero === h.hero);
  }
  for (const drop of view.belongings ?? []) {
    if (drop.square && !index.figures.has(keyOf(drop.square))) drawBelongings(g, drop, index);
  }
  for (const m of view.monsters ?? []) {
    if (m.position) drawMonster(g, m, ui.monster === m.id);
  }
  const rings = svgEl("g", { class: "target-rings" }, svg);
  for (const [k, list] of targets.squares) {
    const kinds = new Set(list.map((t) => t.kind));
    const [x, y] = k.split(",").map(Number);
    for (const kind of ["attack", "spell", "throw"]) {
      if (kinds.has(kind)) svgEl("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.46, class: `ring-${kind}`, "data-square": k }, rings);
    }
  }
  for (const k of targets.selectable.keys()) {
    if (ui.monster && keyOf(index.monsters.get(ui.monster)?.position ?? []) === k) continue;
    const [x, y] = k.split(",").map(Number);
    svgEl("rect", { x: x + 0.05, y: y + 0.05, width: 0.9, height: 0.9, rx: 0.16, class: "ring-select", "data-square": k }, rings);
  }
}

/** The path a far move would take, numbered, and its cost at the end. */
function drawPathPreview(svg, pending) {
  if (!pending?.path?.length) return;
  const g = svgEl("g", { class: "path-preview" }, svg);
  const pts = [pending.from, ...pending.path].filter(Boolean).map(([x, y]) => `${x + 0.5} ${y + 0.5}`);
  svgEl("path", { d: `M${pts.join(" L")}`, class: "path-line" }, g);
  pending.path.forEach(([x, y], i) => {
    const last = i === pending.path.length - 1;
    svgEl("circle", { cx: x + 0.5, cy: y + 0.5, r: last ? 0.34 : 0.16, class: last ? "path-end" : "path-dot" }, g);
    if (last) svgText("text", { x: x + 0.5, y: y + 0.52, class: "path-cost" }, String(pending.path.length), g);
  });
}

/** Squares picked out by a click on a story entry. */
function drawStoryHighlight(svg, squares) {
  if (!squares?.length) return;
  const g = svgEl("g", { class: "story-highlight" }, svg);
  for (const [x, y] of squares) svgEl("rect", { x: x + 0.03, y: y + 0.03, width: 0.94, height: 0.94, rx: 0.12, class: "hl-story" }, g);
}

/** The board square under a pointer event, or null. */
export function squareAt(svg, clientX, clientY) {
  const ctm = svg.getScreenCTM();
  if (!ctm) return null;
  const pt = new DOMPoint(clientX, clientY).matrixTransform(ctm.inverse());
  const x = Math.floor(pt.x);
  const y = Math.floor(pt.y);
  if (x < 0 || y < 0 || x >= Number(svg.dataset.width) || y >= Number(svg.dataset.height)) return null;
  return [x, y];
}
