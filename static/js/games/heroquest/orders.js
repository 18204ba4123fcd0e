// Standing orders and the recap of what you missed, beside the board (templates/games/heroquest/_orders.html).
// ES module, no build step. Orders: GET/PUT/DELETE /api/games/<id>/orders (your seat's own; no
// other seat ever sees them). Recap: GET /api/games/<id>/recap gives your seat's own views since
// your last visit, drawn here with the board's code; POST /api/games/<id>/seen moves the visit on.

import { el, fill } from "../../table/dom.js";
import { drawBoard } from "./map.js";
import { boardTargets, indexView } from "./model.js";
import { csrfToken } from "../../table/net.js";
import { doorName, groupEntries, storyItem } from "./story.js";

const root = document.getElementById("play");
const box = document.getElementById("orders-panel");
const $ = (id) => document.getElementById(id);
const NO_UI = { pending: null, highlight: null, monster: null, spell: null, throw: null };
const THEN = [
  ["end_turn", "end the turn"],
  ["search_treasure", "search for treasure"],
  ["search_traps", "search for traps"],
  ["search_secret_doors", "search for secret doors"],
];
/** The controls this module gives actions beside the board's own (board/panel.js CONTROLS). */
export const CONTROLS = { set_drink_at: "Standing orders: the drink rule of each hero" };
const base = root ? `/api/games/${root.dataset.gameId}` : "";
const ui = { picking: null, plans: {}, view: null, orders: null };

async function api(path, method = "GET", body = undefined) {
  const response = await fetch(`${base}${path}`, {
    method,
    credentials: "same-origin",
    headers: { Accept: "application/json", "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.detail ?? `The site answered ${response.status}.`);
  return data;
}

// ---- standing orders ------------------------------------------------------------------

function showOrders(out) {
  ui.orders = out;
  const queued = $("orders-queued");
  fill(queued, out.lines.length ? out.lines.map((line) => el("li", {}, line)) : [el("li", { class: "muted" }, "Nothing queued.")]);
  $("orders-cancel").hidden = !out.lines.length;
  const note = $("orders-note");
  note.hidden = !out.note;
  note.textContent = out.note ? `Your last orders stopped: ${out.note}` : "";
  box.dataset.queued = out.lines.length ? "yes" : "no";
}

function message(text) {
  const p = $("orders-error");
  p.hidden = !text;
  p.textContent = text ?? "";
}

async function loadOrders() {
  try {
    showOrders(await api("/orders"));
  } catch (err) {
    message(err.message);
  }
}

/** Each door as a player reads it ("open the door of the Guard Room"), never its id; two doors
 * of one name are told apart by a number counted among the doors on this list. */
function doorOptions(doors) {
  const index = indexView(ui.view);
  const seen = new Map();
  return doors.map((d) => {
    const name = doorName(index, d.id);
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return { id: d.id, label: `open ${name}${n > 1 ? ` (${n})` : ""}` };
  });
}

function heroEditor(hero) {
  ui.plans[hero] ??= { to: null, door: null, act: "end_turn" };
  const plan = ui.plans[hero];
  const doors = (ui.view.map?.doors ?? []).filter((d) => !d.open && d.found);
  const toLabel = el("span", { class: "orders-to" }, plan.to ? `${plan.to[0]},${plan.to[1]}` : "where it stands");
  const pick = el(
    "button",
    {
      type: "button",
      class: "small-button",
      dataset: { hero },
      onclick: () => {
        ui.picking = hero;
        message("Click the square to walk to on the map.");
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
    doorOptions(doors).map((d) => el("option", { value: d.id, selected: plan.door === d.id }, d.label)),
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
  const me = (ui.view.heroes ?? []).find((h) => h.hero === hero) ?? {};
  const drink = el("input", {
    type: "number",
    min: "0",
    max: String(me.body_max ?? 20),
    value: String(me.drink_at ?? 0),
    class: "orders-drink",
    dataset: { hero, was: String(me.drink_at ?? 0) },
    "aria-label": `The ${hero} drinks a healing potion at this Body or less (0: only at death's door)`,
  });
  return el(
    "fieldset",
    { class: "orders-hero", dataset: { hero } },
    el("legend", {}, hero[0].toUpperCase() + hero.slice(1)),
    el("p", {}, "Walk to ", toLabel, " ", pick),
    el("p", {}, doorSelect, " ", thenSelect),
    el("p", { class: "small" }, "Standing rule: drink a healing potion at Body ", drink, " or less"),
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

async function openEditor() {
  message("");
  ui.view = await api("/view");
  const form = $("orders-form");
  const fields = $("orders-fields");
  if (ui.view.role === "zargon") {
    fill(fields, zargonEditor(ui.orders?.orders ?? {}));
  } else {
    ui.plans = structuredClone(ui.orders?.orders?.heroes ?? {});
    const playing = new Set((ui.view.heroes ?? []).filter((h) => h.status === "playing").map((h) => h.hero));
    fill(fields, ui.view.heroes_owned.filter((h) => playing.has(h)).map(heroEditor));
  }
  form.hidden = false;
}

async function submit(event) {
  event.preventDefault();
  let orders;
  if (ui.view.role === "zargon") {
    orders = { idle_ends_phase: $("orders-idle").checked, ai: $("orders-ai").value || null };
  } else {
    orders = { heroes: ui.plans };
  }
  try {
    await drinkRules();
    showOrders(await api("/orders", "PUT", { orders }));
    $("orders-form").hidden = true;
    ui.picking = null;
    message("");
  } catch (err) {
    message(err.message);
  }
}

function freshKey() {
  return globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/** The "drink at Body N" rules changed in the form: private settings, sent as actions. */
async function drinkRules() {
  for (const input of document.querySelectorAll(".orders-drink")) {
    if (input.value === input.dataset.was) continue;
    const body = Number(input.value);
    const action = { type: "set_drink_at", hero: input.dataset.hero, body };
    await api("/actions", "POST", { action, expected_version: ui.view.version, idempotency_key: freshKey() });
    input.dataset.was = input.value;
  }
}

/** While picking, a click on the map chooses the square (and does nothing else). */
function onBoardClick(event) {
  if (!ui.picking) return;
  const svg = $("board");
  const matrix = svg.getScreenCTM?.();
  if (!matrix) return;
  event.stopPropagation();
  event.preventDefault();
  const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
  const square = [Math.floor(point.x), Math.floor(point.y)];
  ui.plans[ui.picking].to = square;
  const fieldset = document.querySelector(`.orders-hero[data-hero="${ui.picking}"] .orders-to`);
  if (fieldset) fieldset.textContent = `${square[0]},${square[1]}`;
  ui.picking = null;
  message("");
}

// ---- the recap ------------------------------------------------------------------------

const recap = { frames: [], at: 0, timer: null, version: 0, decided: false };

function drawFrame(n) {
  recap.at = Math.max(0, Math.min(recap.frames.length - 1, n));
  const frame = recap.frames[recap.at];
  const view = { ...frame.view, log: frame.entries, legal_actions: [] };
  const index = indexView(view);
  drawBoard($("recap-board"), view, index, boardTargets(view, index, NO_UI), NO_UI);
  fill(
    $("recap-entries"),
    groupEntries(frame.entries).map((group) => storyItem(group, index)),
  );
  $("recap-step").textContent = `${recap.at + 1} / ${recap.frames.length}`;
  $("recap").dataset.frame = String(recap.at);
}

function seen(version) {
  api("/seen", "POST", { version }).catch(() => {});
}

function closeRecap() {
  clearInterval(recap.timer);
  $("recap").close();
  recap.decided = true;
  seen(Math.max(recap.version, Number(root.dataset.version || 0)));
}

async function startRecap() {
  let data;
  try {
    data = await api("/recap");
  } catch {
    recap.decided = true;
    return;
  }
  recap.version = data.version;
  if (data.frames.length < 2) {
    recap.decided = true;
    seen(Math.max(data.version, Number(root.dataset.version || 0)));
    return;
  }
  recap.frames = data.frames;
  fill(
    $("recap-lines"),
    data.lines.map((line) => el("li", {}, line)),
  );
  const dialog = $("recap");
  dialog.showModal();
  drawFrame(0);
  recap.timer = setInterval(() => {
    if (recap.at >= recap.frames.length - 1) clearInterval(recap.timer);
    else drawFrame(recap.at + 1);
  }, 900);
}

/** Leaving the page (a reload too) records what it showed, so coming back recaps only what is new. */
function seenOnLeave() {
  if (!recap.decided) return;
  const version = Number(root.dataset.version || 0);
  fetch(`${base}/seen`, {
    method: "POST",
    keepalive: true,
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    body: JSON.stringify({ version }),
  }).catch(() => {});
}

let seenTimer = null;
function onView() {
  loadOrders();
  if (!recap.decided) return; // the recap starts from the last visit: not moved before it
  clearTimeout(seenTimer);
  seenTimer = setTimeout(() => seen(Number(root.dataset.version || 0)), 500);
}

if (root && box && !root.dataset.spectator) {
  $("orders-edit").addEventListener("click", () => openEditor().catch((err) => message(err.message)));
  $("orders-form").addEventListener("submit", submit);
  $("orders-close").addEventListener("click", () => {
    $("orders-form").hidden = true;
    ui.picking = null;
  });
  $("orders-cancel").addEventListener("click", async () => {
    try {
      showOrders(await api("/orders", "DELETE"));
    } catch (err) {
      message(err.message);
    }
  });
  $("board").addEventListener("click", onBoardClick, true);
  $("recap-skip").addEventListener("click", closeRecap);
  $("recap").addEventListener("cancel", closeRecap);
  $("recap-prev").addEventListener("click", () => {
    clearInterval(recap.timer);
    drawFrame(recap.at - 1);
  });
  $("recap-next").addEventListener("click", () => {
    clearInterval(recap.timer);
    drawFrame(recap.at + 1);
  });
  document.addEventListener("board:view", onView);
  window.addEventListener("pagehide", seenOnLeave);
  loadOrders();
  startRecap();
}
