// Legend of Zagor's standing orders and recap beside the board (templates/games/zagor/_orders.html):
// the hero's next turn (walk toward a space picked on the board, then end the turn; or end it
// where he stands), the queued space marked on the board, and the recap's frames drawn with the
// board's own code. The panel, the API and the recap's playing are the table's
// (static/js/table/orders.js); the game judges the orders on the seat's view
// (apps/games/zagor/orders.py).

import { el, fill, svgEl } from "../../table/dom.js";
import { startOrders } from "../../table/orders.js";
import { drawBoard } from "./draw.js";
import { firstName, placeSpaces, spaceLabel, viewBoxOf } from "./model.js";
import { storyItem } from "./story.js";

const $ = (id) => document.getElementById(id);
const ui = { picking: false, to: null, from: null, placed: null, queued: null, show: null };

/** Where each space is drawn (the layout never changes during a game): from the page's view. */
function placed() {
  if (!ui.placed) {
    try {
      const raw = JSON.parse($("seat-view")?.textContent ?? "null");
      ui.placed = placeSpaces(typeof raw === "string" ? JSON.parse(raw) : (raw ?? {}));
    } catch {
      ui.placed = new Map();
    }
  }
  return ui.placed;
}

function toText() {
  return ui.to ? spaceLabel(placed(), ui.to) : "nowhere: he ends the turn where he stands";
}

function fields(view, orders, panel) {
  ui.picking = false;
  ui.to = orders.to ?? null;
  const hero = view.me?.hero;
  ui.from = (view.heroes ?? []).find((h) => h.hero === hero)?.space ?? null;
  const label = el("span", { class: "orders-to" }, toText());
  const show = () => {
    label.textContent = toText();
  };
  ui.show = show;
  const pick = el(
    "button",
    {
      type: "button",
      class: "small-button",
      onclick: () => {
        ui.picking = true;
        panel.message("Tap the space to walk toward on the board.");
      },
    },
    "Pick a space",
  );
  const stay = el(
    "button",
    {
      type: "button",
      class: "small-button",
      onclick: () => {
        ui.to = null;
        ui.picking = false;
        show();
        panel.message("");
      },
    },
    "Stay where he stands",
  );
  return el(
    "fieldset",
    { class: "orders-hero", dataset: { hero: hero ?? "" } },
    el("legend", {}, firstName(view, hero)),
    el("p", {}, "Walk toward ", label, " ", pick, " ", stay),
    el(
      "p",
      { class: "small muted" },
      "Each move of the turn goes as far along the way as it reaches (into a room only if that is the space), then the turn ends. " +
        "A tile turned up, a fight, a wound or a loss stops them, and the rest of the turn is yours.",
    ),
  );
}

function collect() {
  ui.picking = false;
  return { to: ui.to, from: ui.from };
}

/** While picking, a tap on a space chooses it (and does nothing else). */
function boardClick(event, panel) {
  if (!ui.picking) return false;
  const space = event.target.closest?.("[data-space]")?.dataset.space;
  if (!space) return true; // between the spaces: still picking
  ui.to = space;
  ui.picking = false;
  ui.show?.();
  panel.message("");
  return true;
}

/** The queued space, ringed on the live board (again whenever the board is drawn afresh). */
function afterView(orders) {
  ui.queued = orders?.to ?? null;
  ringQueued();
}

function ringQueued() {
  const svg = $("board");
  if (!svg) return;
  const s = ui.queued ? placed().get(ui.queued) : null;
  const old = svg.querySelector(".order-target");
  if (old && s && old.dataset.queued === ui.queued) return;
  old?.remove();
  if (!s) return;
  const mark = svgEl("g", { class: "order-target", "data-queued": ui.queued, "aria-hidden": "true" }, svg);
  svgEl("circle", { cx: s.gx, cy: s.gy, r: 0.47, class: "order-target-ring" }, mark);
}

const board = $("board");
if (board) new MutationObserver(ringQueued).observe(board, { childList: true });

function drawFrame(svg, list, frame) {
  const drawn = drawBoard(svg, frame.view, {});
  svg.setAttribute("viewBox", viewBoxOf(drawn.boxes).join(" "));
  fill(
    list,
    frame.entries.map((entry) => storyItem(entry)),
  );
}

startOrders({ fields, collect, boardClick, afterView, drawFrame });
