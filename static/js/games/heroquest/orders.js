// HeroQuest's standing orders and recap beside the board (templates/games/heroquest/_orders.html): the
// heroes' plans (walk to a square picked on the map, a door, one action), the drink rule, Zargon's
// idle rule and AI, and the recap's frames drawn with the board's code. The panel, the API and
// the recap's playing are the table's (static/js/table/orders.js).

import { el, fill } from "../../table/dom.js";
import { startOrders } from "../../table/orders.js";
import { drawBoard } from "./map.js";
import { boardTargets, indexView } from "./model.js";
import { doorName, groupEntries, storyItem } from "./story.js";

const $ = (id) => document.getElementById(id);
const NO_UI = { pending: null, highlight: null, monster: null, spell: null, throw: null };
const THEN = [
  ["end_turn", "end the turn"],
  ["search_treasure", "search for treasure"],
  ["search_traps", "search for traps"],
  ["search_secret_doors", "search for secret doors"],
];
const ON_TIMEOUT = [
  ["end_turn", "end the turn where the hero stands"],
  ["search_treasure", "search for treasure first, if it may"],
  ["search_traps", "search for traps first, if it may"],
  ["search_secret_doors", "search for secret doors first, if it may"],
];
/** The controls this module gives actions beside the board's own (board/panel.js CONTROLS). */
export const CONTROLS = {
  set_drink_at: "Standing orders: the drink rule of each hero",
  set_on_timeout: "Standing orders: what each hero does when its turn runs out",
};
const ui = { picking: null, plans: {} };

/** Each door as a player reads it ("open the door of the Guard Room"), never its id; two doors
 * of one name are told apart by a number counted among the doors on this list. */
function doorOptions(view, doors) {
  const index = indexView(view);
  const seen = new Map();
  return doors.map((d) => {
    const name = doorName(index, d.id);
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return { id: d.id, label: `open ${name}${n > 1 ? ` (${n})` : ""}` };
  });
}

function heroEditor(view, hero, panel) {
  ui.plans[hero] ??= { to: null, door: null, act: "end_turn" };
  const plan = ui.plans[hero];
  const doors = (view.map?.doors ?? []).filter((d) => !d.open && d.found);
  const toLabel = el("span", { class: "orders-to" }, plan.to ? `${plan.to[0]},${plan.to[1]}` : "where it stands");
  const pick = el(
    "button",
    {
      type: "button",
      class: "small-button",
      dataset: { hero },
      onclick: () => {
        ui.picking = hero;
        panel.message("Click the square to walk to on the map.");
      },
    },
    "Pick a square",
  );
  const doorSelect = el(
    "select",
    {
      "aria-label": `Door for the ${hero} to open`,
      onchange: (e) => {
        plan.door = e.target.value || null;
      },
    },
    el("option", { value: "" }, "no door"),
    doorOptions(view, doors).map((d) => el("option", { value: d.id, selected: plan.door === d.id }, d.label)),
  );
  const thenSelect = el(
    "select",
    {
      "aria-label": `What the ${hero} does then`,
      onchange: (e) => {
        plan.act = e.target.value;
      },
    },
    THEN.map(([value, label]) => el("option", { value, selected: plan.act === value }, label)),
  );
  const me = (view.heroes ?? []).find((h) => h.hero === hero) ?? {};
  const drink = el("input", {
    type: "number",
    min: "0",
    max: String(me.body_max ?? 20),
    value: String(me.drink_at ?? 0),
    class: "orders-drink",
    dataset: { hero, was: String(me.drink_at ?? 0) },
    "aria-label": `The ${hero} drinks a healing potion at this Body or less (0: only at death's door)`,
  });
  const was = me.on_timeout ?? "end_turn";
  const onTimeout = el(
    "select",
    {
      class: "orders-timeout",
      dataset: { hero, was },
      "aria-label": `What the ${hero} does when its turn runs out`,
    },
    ON_TIMEOUT.map(([value, label]) => el("option", { value, selected: was === value }, label)),
  );
  return el(
    "fieldset",
    { class: "orders-hero", dataset: { hero } },
    el("legend", {}, hero[0].toUpperCase() + hero.slice(1)),
    el("p", {}, "Walk to ", toLabel, " ", pick),
    el("p", {}, doorSelect, " ", thenSelect),
    el("p", { class: "small" }, "Standing rule: drink a healing potion at Body ", drink, " or less"),
    el("p", { class: "small" }, "Standing rule: on a timeout, ", onTimeout),
  );
}

function zargonEditor(orders) {
  const idle = el("input", { type: "checkbox", id: "orders-idle", checked: Boolean(orders.idle_ends_phase) });
  const ai = el(
    "select",
    { id: "orders-ai", "aria-label": "The monster AI" },
    el("option", { value: "" }, "I play my phases"),
    el("option", { value: "phase", selected: orders.ai === "phase" }, "The AI plays the next phase"),
    el("option", { value: "always", selected: orders.ai === "always" }, "The AI plays every phase until I revoke it"),
  );
  return el("div", {}, el("label", {}, idle, " Monsters that see no hero do nothing (the phase ends by itself)"), el("p", {}, ai));
}

function fields(view, orders, panel) {
  ui.picking = null;
  if (view.role === "zargon") return zargonEditor(orders);
  ui.plans = structuredClone(orders.heroes ?? {});
  const playing = new Set((view.heroes ?? []).filter((h) => h.status === "playing").map((h) => h.hero));
  return view.heroes_owned.filter((h) => playing.has(h)).map((h) => heroEditor(view, h, panel));
}

function collect(view) {
  ui.picking = null;
  if (view.role === "zargon") return { idle_ends_phase: $("orders-idle").checked, ai: $("orders-ai").value || null };
  return { heroes: ui.plans };
}

function freshKey() {
  return globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/** The standing rules changed in the form (drink at Body N, on a timeout): private settings, sent as actions. */
async function standingRules(view, panel) {
  const send = (action) => panel.api("/actions", "POST", { action, expected_version: view.version, idempotency_key: freshKey() });
  for (const input of document.querySelectorAll(".orders-drink")) {
    if (input.value === input.dataset.was) continue;
    await send({ type: "set_drink_at", hero: input.dataset.hero, body: Number(input.value) });
    input.dataset.was = input.value;
  }
  for (const select of document.querySelectorAll(".orders-timeout")) {
    if (select.value === select.dataset.was) continue;
    await send({ type: "set_on_timeout", hero: select.dataset.hero, act: select.value });
    select.dataset.was = select.value;
  }
}

/** While picking, a click on the map chooses the square (and does nothing else). */
function boardClick(event, panel) {
  if (!ui.picking) return false;
  const matrix = $("board").getScreenCTM?.();
  if (!matrix) return false;
  const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
  const square = [Math.floor(point.x), Math.floor(point.y)];
  ui.plans[ui.picking].to = square;
  const label = document.querySelector(`.orders-hero[data-hero="${ui.picking}"] .orders-to`);
  if (label) label.textContent = `${square[0]},${square[1]}`;
  ui.picking = null;
  panel.message("");
  return true;
}

function drawFrame(svg, list, frame) {
  const view = { ...frame.view, log: frame.entries, legal_actions: [] };
  const index = indexView(view);
  drawBoard(svg, view, index, boardTargets(view, index, NO_UI), NO_UI);
  fill(
    list,
    groupEntries(frame.entries).map((group) => storyItem(group, index)),
  );
}

startOrders({ fields, collect, beforeSave: standingRules, boardClick, drawFrame });
