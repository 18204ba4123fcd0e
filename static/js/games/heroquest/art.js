// The board's own drawings: a figure for each hero and monster kind, and the furniture.
// Figures are SVG <symbol>s (viewBox 0 0 100 100) placed with <use>; all art is drawn here.

import { svgEl } from "../../table/dom.js";

// Each figure: a list of [tag, attributes] drawn inside its token, over a round base.
const P = (d, cls) => ["path", { d, class: cls }];
const C = (cx, cy, r, cls) => ["circle", { cx, cy, r, class: cls }];
const E = (cx, cy, rx, ry, cls) => ["ellipse", { cx, cy, rx, ry, class: cls }];
const R = (x, y, width, height, cls, rx = 0) => ["rect", { x, y, width, height, rx, class: cls }];

const FIGURES = {
  // Heroes: head-and-shoulders emblems on their colour.
  barbarian: [
    P("M30 86 Q50 70 70 86 Z", "a-fur"),
    P("M33 47 Q14 44 10 18 Q24 34 38 36 Z M67 47 Q86 44 90 18 Q76 34 62 36 Z", "a-horn"),
    P("M31 56 Q31 28 50 28 Q69 28 69 56 Z", "a-steel"),
    R(29, 52, 42, 8, "a-steel-dark", 2),
    P("M36 60 Q36 80 50 82 Q64 80 64 60 Z", "a-skin"),
    R(47, 55, 6, 17, "a-steel-dark", 1),
    P("M38 67 h7 M55 67 h7", "a-eye-line"),
  ],
  dwarf: [
    P("M33 42 Q33 20 50 20 Q67 20 67 42 Z", "a-steel"),
    R(31, 39, 38, 6, "a-steel-dark", 2),
    E(50, 50, 15, 8, "a-skin"),
    C(44, 49, 2.4, "a-eye"),
    C(56, 49, 2.4, "a-eye"),
    P("M31 48 Q28 74 50 90 Q72 74 69 48 Q62 60 50 60 Q38 60 31 48 Z", "a-beard"),
    P("M42 64 Q50 70 58 64 M46 74 Q50 78 54 74", "a-beard-line"),
  ],
  elf: [
    P("M37 50 L10 30 L37 62 Z M63 50 L90 30 L63 62 Z", "a-skin"),
    E(50, 54, 15, 20, "a-skin"),
    P("M34 52 Q33 26 50 25 Q67 26 66 52 Q60 38 50 39 Q40 38 34 52 Z", "a-hair"),
    P("M35 50 Q34 74 30 84 L38 80 Q40 66 38 52 Z M65 50 Q66 74 70 84 L62 80 Q60 66 62 52 Z", "a-hair"),
    P("M42 54 l6 2 M58 54 l-6 2", "a-eye-line"),
    P("M45 66 Q50 69 55 66", "a-mouth"),
  ],
  wizard: [
    P("M50 6 Q56 24 70 48 L30 48 Q44 24 50 6 Z", "a-hat"),
    E(50, 49, 30, 7, "a-hat"),
    P("M48 24 l2 -6 l2 6 l6 0 l-5 4 l2 6 l-5 -4 l-5 4 l2 -6 l-5 -4 Z", "a-star"),
    P("M37 54 Q50 60 63 54 Q62 82 50 94 Q38 82 37 54 Z", "a-beard-white"),
    C(43, 58, 2.3, "a-eye"),
    C(57, 58, 2.3, "a-eye"),
  ],
  // Monsters: a face or silhouette in its own colours on a dark base.
  goblin: [
    P("M36 46 L6 30 L34 62 Z M64 46 L94 30 L66 62 Z", "a-goblin"),
    E(50, 54, 19, 22, "a-goblin"),
    P("M38 46 L48 52 L38 54 Z M62 46 L52 52 L62 54 Z", "a-eye-yellow"),
    P("M38 66 L42 71 L46 66 L50 71 L54 66 L58 71 L62 66 Q50 78 38 66 Z", "a-teeth"),
  ],
  orc: [
    P("M28 42 Q28 22 50 22 Q72 22 72 42 L74 62 Q70 82 50 84 Q30 82 26 62 Z", "a-orc"),
    P("M26 40 L14 34 L28 50 Z M74 40 L86 34 L72 50 Z", "a-orc"),
    P("M31 40 L69 40 L66 48 L34 48 Z", "a-brow"),
    C(41, 52, 3.4, "a-eye-red"),
    C(59, 52, 3.4, "a-eye-red"),
    P("M38 70 Q50 76 62 70", "a-mouth"),
    P("M38 73 L35 58 L43 71 Z M62 73 L65 58 L57 71 Z", "a-tusk"),
  ],
  abomination: [
    P("M26 46 L32 18 L40 38 L50 12 L60 38 L68 18 L74 46 Z", "a-fin"),
    E(50, 56, 25, 24, "a-fish"),
    C(38, 50, 6, "a-eye-yellow"),
    C(62, 50, 6, "a-eye-yellow"),
    C(38, 50, 2.4, "a-pupil"),
    C(62, 50, 2.4, "a-pupil"),
    P("M32 66 Q50 80 68 66 Q50 72 32 66 Z", "a-maw"),
    P("M26 58 L14 52 L16 64 Z M74 58 L86 52 L84 64 Z", "a-fin"),
  ],
  skeleton: [
    P("M20 80 L80 20 M20 20 L80 80", "a-bone-line"),
    C(19, 80, 5, "a-bone"),
    C(81, 20, 5, "a-bone"),
    C(19, 20, 5, "a-bone"),
    C(81, 80, 5, "a-bone"),
    P("M50 22 Q30 22 30 44 Q30 56 38 60 L38 70 L62 70 L62 60 Q70 56 70 44 Q70 22 50 22 Z", "a-bone"),
    E(42, 45, 6, 7, "a-socket"),
    E(58, 45, 6, 7, "a-socket"),
    P("M50 53 L46 60 L54 60 Z", "a-socket"),
    P("M44 64 v6 M50 64 v6 M56 64 v6", "a-jaw-line"),
  ],
  zombie: [
    P("M14 64 L30 54 L34 62 L18 72 Z M86 64 L70 54 L66 62 L82 72 Z", "a-zombie-dark"),
    P("M32 40 Q34 20 52 22 Q70 24 68 44 L66 66 Q58 82 46 80 Q32 76 32 60 Z", "a-zombie"),
    C(42, 44, 5, "a-eye-pale"),
    C(59, 46, 3.4, "a-socket"),
    P("M40 66 Q48 62 60 68", "a-mouth"),
    P("M52 26 l8 10 M54 32 l4 -2 M57 36 l4 -2", "a-stitch"),
  ],
  mummy: [
    P("M32 44 Q32 20 50 20 Q68 20 68 44 L68 70 Q60 84 50 84 Q40 84 32 70 Z", "a-wrap"),
    P("M32 32 Q50 28 68 36 M32 42 Q50 38 68 44 M32 58 Q50 54 68 62 M32 68 Q50 64 68 72 M36 78 Q50 74 64 80", "a-wrap-line"),
    R(36, 46, 28, 8, "a-socket", 3),
    C(43, 50, 2.4, "a-eye-glow"),
    C(57, 50, 2.4, "a-eye-glow"),
  ],
  dread_warrior: [
    P("M30 30 L22 12 L38 26 Z M70 30 L78 12 L62 26 Z", "a-spike"),
    P("M30 30 Q50 18 70 30 L70 70 Q50 86 30 70 Z", "a-dark-steel"),
    P("M34 46 H66 V51 H53 V70 H47 V51 H34 Z", "a-visor"),
    P("M38 46 h8 M54 46 h8", "a-eye-line-red"),
  ],
  gargoyle: [
    P("M50 40 Q30 20 6 24 Q18 32 14 44 Q24 40 28 50 Q34 44 42 54 Z", "a-wing"),
    P("M50 40 Q70 20 94 24 Q82 32 86 44 Q76 40 72 50 Q66 44 58 54 Z", "a-wing"),
    P("M38 36 L34 20 L44 32 Z M62 36 L66 20 L56 32 Z", "a-stone-dark"),
    P("M36 40 Q36 30 50 30 Q64 30 64 40 L62 62 Q56 78 50 80 Q44 78 38 62 Z", "a-stone"),
    P("M41 46 L48 49 L41 51 Z M59 46 L52 49 L59 51 Z", "a-eye-red"),
    P("M43 64 L47 68 L50 64 L53 68 L57 64", "a-mouth"),
  ],
  dread_warden: [
    P("M22 78 Q14 50 28 34 Q28 50 38 52 Q30 30 50 12 Q70 30 62 52 Q72 50 72 34 Q86 50 78 78 Z", "a-flame"),
    P("M34 36 L34 22 L42 30 L50 18 L58 30 L66 22 L66 36 Z", "a-crown"),
    P("M50 34 Q33 34 33 52 Q33 62 40 66 L40 76 L60 76 L60 66 Q67 62 67 52 Q67 34 50 34 Z", "a-bone"),
    E(43, 52, 5, 6, "a-socket"),
    E(57, 52, 5, 6, "a-socket"),
    C(43, 52, 2, "a-eye-ember"),
    C(57, 52, 2, "a-eye-ember"),
    P("M45 70 v6 M50 70 v6 M55 70 v6", "a-jaw-line"),
  ],
};

export const FIGURE_KINDS = Object.keys(FIGURES);

/** Put one <symbol> per figure kind into `defs`. */
export function defineFigures(defs) {
  for (const [kind, parts] of Object.entries(FIGURES)) {
    const symbol = svgEl("symbol", { id: `fig-${kind}`, viewBox: "0 0 100 100", class: `fig-art fig-${kind}` }, defs);
    for (const [tag, attrs] of parts) svgEl(tag, attrs, symbol);
  }
}

/** The drawing of `kind` filling the square at (x, y), or a plain mark for unknown kinds. */
export function placeFigure(parent, kind, x, y, inset = 0.1) {
  if (!FIGURES[kind]) {
    svgEl("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.2, class: "fig-unknown" }, parent);
    return;
  }
  const size = 1 - 2 * inset;
  svgEl("use", { href: `#fig-${kind}`, x: x + inset, y: y + inset, width: size, height: size, class: "fig-use" }, parent);
}

// ---- Furniture ---------------------------------------------------------------------------
// Drawn lying along its long side in a local frame centred on (0, 0): `w` long, `h` deep.

function plank(g, w, h, cls = "f-wood") {
  svgEl("rect", { x: -w / 2, y: -h / 2, width: w, height: h, rx: 0.06, class: cls }, g);
}

const FURNITURE = {
  table(g, w, h) {
    plank(g, w, h);
    for (let i = 1; i < Math.round(w * 2); i++) {
      const x = -w / 2 + (i * w) / Math.round(w * 2);
      svgEl("line", { x1: x, y1: -h / 2 + 0.05, x2: x, y2: h / 2 - 0.05, class: "f-grain" }, g);
    }
    svgEl("rect", { x: -w / 2 + 0.08, y: -h / 2 + 0.08, width: w - 0.16, height: h - 0.16, rx: 0.04, class: "f-edge" }, g);
  },
  sorcerer_table(g, w, h) {
    plank(g, w, h, "f-wood-dark");
    const r = Math.min(w, h) * 0.36;
    svgEl("circle", { cx: 0, cy: 0, r, class: "f-rune" }, g);
    const star = [0, 1, 2, 3, 4].map((i) => {
      const a = -Math.PI / 2 + (i * 4 * Math.PI) / 5;
      return `${(r * Math.cos(a)).toFixed(3)} ${(r * Math.sin(a)).toFixed(3)}`;
    });
    svgEl("path", { d: `M${star.join(" L")} Z`, class: "f-rune" }, g);
    svgEl("circle", { cx: -w / 2 + 0.3, cy: -h / 2 + 0.3, r: 0.12, class: "f-candle" }, g);
    svgEl("circle", { cx: w / 2 - 0.3, cy: h / 2 - 0.3, r: 0.12, class: "f-candle" }, g);
  },
  tomb(g, w, h) {
    svgEl("rect", { x: -w / 2, y: -h / 2, width: w, height: h, rx: 0.12, class: "f-stone" }, g);
    svgEl("rect", { x: -w / 2 + 0.12, y: -h / 2 + 0.12, width: w - 0.24, height: h - 0.24, rx: 0.08, class: "f-stone-lid" }, g);
    const s = Math.min(h * 0.3, 0.3);
    svgEl("path", { d: `M${-w / 4} ${-s} v${2 * s} M${-w / 4 - s * 0.7} ${-s * 0.35} h${1.4 * s}`, class: "f-carve" }, g);
    svgEl("path", { d: `M${w / 8} 0 h${w / 4}`, class: "f-carve" }, g);
  },
  throne(g, w, h) {
    // Long side across the back: a high back, two arms and the seat.
    svgEl("rect", { x: -w / 2, y: -h / 2, width: w, height: h * 0.32, rx: 0.06, class: "f-throne-back" }, g);
    svgEl("rect", { x: -w / 2, y: -h / 2, width: w * 0.18, height: h, rx: 0.05, class: "f-throne-back" }, g);
    svgEl("rect", { x: w / 2 - w * 0.18, y: -h / 2, width: w * 0.18, height: h, rx: 0.05, class: "f-throne-back" }, g);
    svgEl("rect", { x: -w / 2 + w * 0.18, y: -h / 2 + h * 0.32, width: w * 0.64, height: h * 0.6, rx: 0.05, class: "f-cushion" }, g);
    svgEl(
      "path",
      {
        d: `M${-w * 0.2} ${-h / 2 + 0.08} l${w * 0.1} ${h * 0.16} l${w * 0.1} ${-h * 0.16} l${w * 0.1} ${h * 0.16} l${w * 0.1} ${-h * 0.16}`,
        class: "f-gold-line",
      },
      g,
    );
  },
  bookcase(g, w, h) {
    plank(g, w, h, "f-wood-dark");
    const colours = ["f-book-a", "f-book-b", "f-book-c", "f-book-d"];
    const n = Math.max(4, Math.round(w * 5));
    const bw = (w - 0.12) / n;
    for (let i = 0; i < n; i++) {
      const depth = h * (0.55 + (0.25 * ((i * 7) % 3)) / 2);
      svgEl("rect", { x: -w / 2 + 0.06 + i * bw + 0.01, y: -h / 2 + 0.06, width: bw - 0.02, height: depth, class: colours[i % 4] }, g);
    }
  },
  chest(g, w, h) {
    svgEl("rect", { x: -w / 2 + 0.06, y: -h / 2 + 0.1, width: w - 0.12, height: h - 0.2, rx: 0.06, class: "f-chest" }, g);
    for (const x of [-w / 2 + 0.22, w / 2 - 0.22]) {
      svgEl("rect", { x: x - 0.04, y: -h / 2 + 0.1, width: 0.08, height: h - 0.2, class: "f-iron" }, g);
    }
    svgEl("rect", { x: -w / 2 + 0.06, y: -0.04, width: w - 0.12, height: 0.08, class: "f-iron" }, g);
    svgEl("rect", { x: -0.08, y: -0.1, width: 0.16, height: 0.2, rx: 0.03, class: "f-lock" }, g);
  },
  cupboard(g, w, h) {
    plank(g, w, h);
    svgEl("line", { x1: 0, y1: -h / 2 + 0.08, x2: 0, y2: h / 2 - 0.08, class: "f-seam" }, g);
    svgEl("rect", { x: -w / 2 + 0.08, y: -h / 2 + 0.08, width: w - 0.16, height: h - 0.16, rx: 0.03, class: "f-edge" }, g);
    svgEl("circle", { cx: -0.08, cy: 0, r: 0.045, class: "f-knob" }, g);
    svgEl("circle", { cx: 0.08, cy: 0, r: 0.045, class: "f-knob" }, g);
  },
  fireplace(g, w, h) {
    svgEl("rect", { x: -w / 2, y: -h / 2, width: w, height: h, rx: 0.05, class: "f-stone" }, g);
    for (let i = 1; i < Math.round(w * 3); i++) {
      const x = -w / 2 + i / 3;
      svgEl("line", { x1: x, y1: -h / 2, x2: x, y2: -h / 2 + h * 0.3, class: "f-mortar" }, g);
    }
    svgEl("rect", { x: -w / 2 + 0.15, y: -h / 2 + h * 0.3, width: w - 0.3, height: h * 0.62, rx: 0.05, class: "f-hearth" }, g);
    const fy = -h / 2 + h * 0.92;
    const fh = h * 0.55;
    svgEl(
      "path",
      {
        d: `M${-w * 0.3} ${fy} Q${-w * 0.28} ${fy - fh * 0.6} ${-w * 0.12} ${fy - fh} Q${-w * 0.08} ${fy - fh * 0.45} 0 ${fy - fh * 0.8} Q${w * 0.1} ${fy - fh * 0.4} ${w * 0.16} ${fy - fh * 0.95} Q${w * 0.3} ${fy - fh * 0.5} ${w * 0.3} ${fy} Z`,
        class: "f-flame",
      },
      g,
    );
    svgEl(
      "path",
      {
        d: `M${-w * 0.15} ${fy} Q${-w * 0.1} ${fy - fh * 0.4} 0 ${fy - fh * 0.5} Q${w * 0.12} ${fy - fh * 0.35} ${w * 0.15} ${fy} Z`,
        class: "f-flame-core",
      },
      g,
    );
  },
  alchemist_bench(g, w, h) {
    plank(g, w, h);
    const n = Math.max(2, Math.round(w * 1.5));
    const cls = ["f-flask-a", "f-flask-b", "f-flask-c"];
    for (let i = 0; i < n; i++) {
      const x = -w / 2 + ((i + 0.5) * w) / n;
      svgEl("circle", { cx: x, cy: h * 0.08, r: Math.min(0.17, h * 0.28), class: cls[i % 3] }, g);
      svgEl("rect", { x: x - 0.035, y: -h / 2 + 0.12, width: 0.07, height: h * 0.3, class: "f-glass" }, g);
    }
  },
  rack(g, w, h) {
    plank(g, w, h * 0.4, "f-wood-dark");
    const n = Math.max(2, Math.round(w * 2));
    for (let i = 0; i < n; i++) {
      const x = -w / 2 + ((i + 0.5) * w) / n;
      const kind = i % 3;
      svgEl("line", { x1: x, y1: -h / 2 + 0.06, x2: x, y2: h / 2 - 0.06, class: "f-haft" }, g);
      if (kind === 0) svgEl("path", { d: `M${x} ${-h / 2 + 0.05} l0.09 0.18 h-0.18 Z`, class: "f-blade" }, g);
      else if (kind === 1) svgEl("path", { d: `M${x} ${-h / 2 + 0.12} q0.2 0.08 0 0.28 Z`, class: "f-blade" }, g);
      else svgEl("rect", { x: x - 0.03, y: -h / 2 + 0.06, width: 0.06, height: h * 0.5, class: "f-blade" }, g);
    }
  },
};
FURNITURE.weapons_rack = FURNITURE.rack;

/** Draw a piece of furniture over its bounds {x, y, w, h} (in squares). */
export function drawFurniturePiece(parent, kind, b) {
  const vertical = b.h > b.w;
  const long = Math.max(b.w, b.h) - 0.16;
  const deep = Math.min(b.w, b.h) - 0.16;
  const cx = b.x + b.w / 2;
  const cy = b.y + b.h / 2;
  const g = svgEl("g", { transform: `translate(${cx} ${cy})${vertical ? " rotate(90)" : ""}`, class: "furn-art" }, parent);
  (FURNITURE[kind] ?? ((gg, w, h) => plank(gg, w, h)))(g, long, deep);
  return g;
}
