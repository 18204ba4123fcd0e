// Dice faces as small inline SVGs: combat dice (skull, white shield, black shield) and red dice
// (pips). Each die carries an accessible label.

import { el, svgEl, svgText } from "../../table/dom.js";
import { monsterLabel } from "./names.js";

const SHIELD = "M12 4.2 L18.6 6.6 V11.6 C18.6 15.8 15.6 18.9 12 20.4 C8.4 18.9 5.4 15.8 5.4 11.6 V6.6 Z";

const PIPS = {
  1: [[12, 12]],
  2: [
    [7.5, 7.5],
    [16.5, 16.5],
  ],
  3: [
    [7, 7],
    [12, 12],
    [17, 17],
  ],
  4: [
    [7.5, 7.5],
    [16.5, 7.5],
    [7.5, 16.5],
    [16.5, 16.5],
  ],
  5: [
    [7, 7],
    [17, 7],
    [12, 12],
    [7, 17],
    [17, 17],
  ],
  6: [
    [7.5, 6.5],
    [16.5, 6.5],
    [7.5, 12],
    [16.5, 12],
    [7.5, 17.5],
    [16.5, 17.5],
  ],
};

const FACE_LABELS = { skull: "skull", white_shield: "white shield", black_shield: "black shield" };

function dieFrame(kind, label) {
  const svg = svgEl("svg", { viewBox: "0 0 24 24", class: `die die-${kind}`, role: "img", "aria-label": label });
  svgText("title", {}, label, svg);
  svgEl("rect", { x: 1, y: 1, width: 22, height: 22, rx: 4.5, class: "die-body" }, svg);
  return svg;
}

function drawSkull(svg) {
  svgEl(
    "path",
    {
      d: "M12 4.5 C7.8 4.5 5.2 7.3 5.2 10.9 C5.2 13 6.2 14.4 7.6 15.2 V18.3 H16.4 V15.2 C17.8 14.4 18.8 13 18.8 10.9 C18.8 7.3 16.2 4.5 12 4.5 Z",
      class: "skull",
    },
    svg,
  );
  svgEl("circle", { cx: 9.3, cy: 11, r: 1.9, class: "skull-hole" }, svg);
  svgEl("circle", { cx: 14.7, cy: 11, r: 1.9, class: "skull-hole" }, svg);
  svgEl("path", { d: "M12 12.9 L10.9 14.8 H13.1 Z", class: "skull-hole" }, svg);
  for (const x of [10, 12, 14]) svgEl("rect", { x: x - 0.4, y: 16.2, width: 0.8, height: 2.1, class: "skull-hole" }, svg);
}

/** One combat die face: "skull" | "white_shield" | "black_shield". */
export function combatDie(face) {
  const label = FACE_LABELS[face] ?? String(face);
  const svg = dieFrame("combat", label);
  if (face === "skull") drawSkull(svg);
  else if (face === "white_shield") svgEl("path", { d: SHIELD, class: "shield-white" }, svg);
  else if (face === "black_shield") svgEl("path", { d: SHIELD, class: "shield-black" }, svg);
  else svgText("text", { x: 12, y: 16, "text-anchor": "middle", class: "die-fallback" }, label.slice(0, 2), svg);
  return svg;
}

/** One red (movement/spell) die showing `value` pips. */
export function redDie(value) {
  const label = `red die: ${value}`;
  const svg = dieFrame("red", label);
  for (const [cx, cy] of PIPS[value] ?? []) svgEl("circle", { cx, cy, r: 2.1, class: "pip" }, svg);
  if (!PIPS[value]) svgText("text", { x: 12, y: 16, "text-anchor": "middle", class: "die-fallback" }, String(value), svg);
  return svg;
}

/** A group of dice for one roll: {"kind": "combat", "faces": [...]} or {"kind": "red", "values": [...]}. */
export function diceRoll(roll, label = "") {
  const group = el("span", { class: `dice-roll dice-roll-${roll?.kind ?? "unknown"}` });
  if (label) group.appendChild(el("span", { class: "dice-label" }, label));
  if (roll?.kind === "combat") for (const face of roll.faces ?? []) group.appendChild(combatDie(face));
  else if (roll?.kind === "red") {
    const values = roll.values ?? [];
    for (const v of values) group.appendChild(redDie(v));
    if (values.length > 1) group.appendChild(el("span", { class: "dice-total" }, `= ${values.reduce((a, b) => a + b, 0)}`));
  }
  return group;
}

/** Who rolled: "Barbarian", "Durin", "Orc 2" (never an id). */
function rollerName(who, index) {
  if (!who || !index) return "";
  const h = index.heroes.get(who);
  if (h) return h.name || h.hero;
  const m = index.monsters.get(who);
  if (m) return monsterLabel(m);
  return "";
}

const rolled = (roll) => (roll?.faces ?? roll?.values ?? []).length > 0;

/** All rolls of one log entry or event, side by side; `labels` names each roll's role. */
export function diceList(dice, { labels = null, index = null } = {}) {
  const wrap = el("span", { class: "dice" });
  (dice ?? []).forEach((roll, i) => {
    // A side that rolled nothing (a monster that could not or need not defend) gets no label.
    if (!rolled(roll)) return;
    const role = labels?.[i] ?? "";
    const who = rollerName(roll?.who, index);
    const label = role ? `${role.charAt(0).toUpperCase()}${role.slice(1)}${who ? ` (${who})` : ""}:` : "";
    wrap.appendChild(diceRoll(roll, label));
  });
  return wrap;
}
