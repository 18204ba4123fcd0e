// Standing orders and the recap of what you missed: what every game that takes orders shares
// (its wing's orders.js calls startOrders with what only the game knows). ES module, no build step.
//
// The page holds #orders-panel (the queued lines, the last stop's note, Queue / Cancel, the form
// with #orders-fields) and the #recap dialog (templates/games/<game>/_orders.html,
// templates/games/<game>/_orders.html). Orders: GET/PUT/DELETE /api/games/<id>/orders (the seat's
// own; no other seat ever sees them). Recap: GET /api/games/<id>/recap gives the seat's own views
// since its last visit, drawn with the game's board code; POST /api/games/<id>/seen moves it on.
//
// The game gives startOrders({ fields, collect, beforeSave, boardClick, afterView, drawFrame }):
//   fields(view, orders, panel) -> the form's fields for the seat (view: GET /view),
//   collect(view) -> the orders JSON to PUT,
//   beforeSave(view, panel) -> a promise: standing rules sent as private settings first (optional),
//   boardClick(event, panel) -> true when the click was the form's (picking a square or space),
//   afterView(orders) -> draw what is queued on the live board after each view (optional),
//   drawFrame(svg, list, frame) -> one recap frame: frame.view on svg, frame.entries in list.
// `panel` offers message(text), api(path, method, body) and editing() (the form is open).

import { el, fill } from "./dom.js";
import { csrfToken } from "./net.js";

const $ = (id) => document.getElementById(id);

export function startOrders(game) {
  const root = $("play");
  const box = $("orders-panel");
  if (!root || !box || root.dataset.spectator) return null;
  const base = `/api/games/${root.dataset.gameId}`;
  const ui = { view: null, orders: null };

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

  function message(text) {
    const p = $("orders-error");
    p.hidden = !text;
    p.textContent = text ?? "";
  }

  const panel = { api, message, editing: () => !$("orders-form").hidden };

  // ---- standing orders ----------------------------------------------------------------

  function showOrders(out) {
    ui.orders = out;
    fill(
      $("orders-queued"),
      out.lines.length ? out.lines.map((line) => el("li", {}, line)) : [el("li", { class: "muted" }, "Nothing queued.")],
    );
    $("orders-cancel").hidden = !out.lines.length;
    const note = $("orders-note");
    note.hidden = !out.note;
    note.textContent = out.note ? `Your last orders stopped: ${out.note}` : "";
    box.dataset.queued = out.lines.length ? "yes" : "no";
    game.afterView?.(out.orders ?? {});
  }

  async function loadOrders() {
    try {
      showOrders(await api("/orders"));
    } catch (err) {
      message(err.message);
    }
  }

  async function openEditor() {
    message("");
    ui.view = await api("/view");
    fill($("orders-fields"), game.fields(ui.view, ui.orders?.orders ?? {}, panel));
    $("orders-form").hidden = false;
    root.classList.add("orders-editing");
  }

  function closeEditor() {
    $("orders-form").hidden = true;
    root.classList.remove("orders-editing");
    message("");
  }

  async function submit(event) {
    event.preventDefault();
    try {
      const orders = game.collect(ui.view);
      await game.beforeSave?.(ui.view, panel);
      showOrders(await api("/orders", "PUT", { orders }));
      closeEditor();
    } catch (err) {
      message(err.message);
    }
  }

  // ---- the recap ----------------------------------------------------------------------

  const recap = { frames: [], at: 0, timer: null, version: 0, decided: false };

  function drawFrame(n) {
    recap.at = Math.max(0, Math.min(recap.frames.length - 1, n));
    game.drawFrame($("recap-board"), $("recap-entries"), recap.frames[recap.at]);
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
    $("recap").showModal();
    drawFrame(0);
    recap.timer = setInterval(() => {
      if (recap.at >= recap.frames.length - 1) clearInterval(recap.timer);
      else drawFrame(recap.at + 1);
    }, 900);
  }

  /** Leaving the page (a reload too) records what it showed, so coming back recaps only what is new. */
  function seenOnLeave() {
    if (!recap.decided) return;
    fetch(`${base}/seen`, {
      method: "POST",
      keepalive: true,
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify({ version: Number(root.dataset.version || 0) }),
    }).catch(() => {});
  }

  let seenTimer = null;
  function onView() {
    game.afterView?.(ui.orders?.orders ?? {}); // the board was drawn afresh: what is queued on it
    loadOrders();
    if (!recap.decided) return; // the recap starts from the last visit: not moved before it
    clearTimeout(seenTimer);
    seenTimer = setTimeout(() => seen(Number(root.dataset.version || 0)), 500);
  }

  $("orders-edit").addEventListener("click", () => openEditor().catch((err) => message(err.message)));
  $("orders-form").addEventListener("submit", submit);
  $("orders-close").addEventListener("click", closeEditor);
  $("orders-cancel").addEventListener("click", async () => {
    try {
      showOrders(await api("/orders", "DELETE"));
    } catch (err) {
      message(err.message);
    }
  });
  // Capturing: while the form picks a square or a space, the board's own click does nothing.
  $("board").addEventListener(
    "click",
    (event) => {
      if (!panel.editing() || !game.boardClick?.(event, panel)) return;
      event.stopPropagation();
      event.preventDefault();
    },
    true,
  );
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
  return panel;
}
