// The play page: draws the seat view, offers exactly its legal actions, and keeps it live.
// ES module, no build step. Reads #seat-view (json_script) and the data-* URLs on #play.

import { el, fill } from "./board/dom.js";
import { drawBoard, squareAt } from "./board/map.js";
import { actionsOf, activeMonsterIds, boardTargets, castableSpells, indexView, keyOf, SIDES, samePoint, throwableWeapons } from "./board/model.js";
import { LiveSocket, detailOf, fetchView, postAction, socketUrl, viewFromResponse } from "./board/net.js";
import { Chat } from "./board/chat.js";
import { renderActions, renderDiceTray, renderHeroes, renderLog, renderMonsters, renderOutcome, renderQuest, renderTurn } from "./board/panel.js";

const MIN_CELL_PX = 30;

const root = document.getElementById("play");
const $ = (id) => document.getElementById(id);
const dom = {
  svg: $("board"),
  scroller: $("board-scroll"),
  turn: $("turn-panel"),
  actions: $("actions-panel"),
  error: $("play-error"),
  errorText: $("play-error-text"),
  heroes: $("heroes-panel"),
  monsters: $("monsters-panel"),
  quest: $("quest-panel"),
  log: $("game-log"),
  dice: $("dice-tray"),
  outcome: $("outcome-banner"),
  conn: $("connection"),
};
const urls = {
  view: root.dataset.apiViewUrl,
  actions: root.dataset.apiActionsUrl,
  ws: root.dataset.wsUrl,
};

const state = {
  view: null,
  index: null,
  targets: null,
  ui: { spell: null, throw: null, monster: null },
  busy: false,
  walking: false,
  zoom: 1,
  centred: false,
  suppressClickUntil: 0,
};

// ---- View -------------------------------------------------------------------------------

/** Replace the view if it is newer (or `force`, for the authoritative GET), then redraw. */
function setView(view, { force = false } = {}) {
  if (!view || typeof view !== "object") return;
  const current = state.view?.version ?? -1;
  const next = view.version ?? current;
  if (state.view && (force ? next < current : next <= current)) return;
  state.view = view;
  reconcileSelection();
  render();
}

/** Drop selections the new view no longer allows; pick up Zargon's active monster. */
function reconcileSelection() {
  const view = state.view;
  const ui = state.ui;
  if (ui.spell && !castableSpells(view).includes(ui.spell)) ui.spell = null;
  if (ui.throw && !throwableWeapons(view).includes(ui.throw)) ui.throw = null;
  const movable = activeMonsterIds(view);
  if (ui.monster && !movable.includes(ui.monster)) ui.monster = null;
  const active = view.turn?.active_monster;
  if (view.role === "zargon" && active && movable.includes(active)) ui.monster = active;
}

async function refreshView() {
  try {
    setView(await fetchView(urls.view), { force: true });
  } catch (err) {
    showMessage(err.message, "error");
  }
}

// ---- Drawing ----------------------------------------------------------------------------

function render() {
  const view = state.view;
  state.index = indexView(view);
  state.targets = boardTargets(view, state.index, state.ui);
  drawBoard(dom.svg, view, state.index, state.targets, state.ui);
  dom.svg.setAttribute("aria-label", boardSummary(view));
  root.dataset.version = String(view.version ?? "");
  root.classList.toggle("selecting", selecting());
  renderTurn(dom.turn, view, state.index);
  renderActions(dom.actions, view, state.index, state.ui, {
    onAction: (a) => perform(a),
    onSelectSpell: (spell) => select({ spell, throw: null }),
    onSelectThrow: (weapon) => select({ throw: weapon, spell: null }),
    onSelectMonster: (monster) => select({ monster }),
  });
  renderHeroes(dom.heroes, view, (a) => perform(a));
  renderMonsters(dom.monsters, view);
  renderQuest(dom.quest, view);
  renderLog(dom.log, view);
  renderDiceTray(dom.dice, view);
  renderOutcome(dom.outcome, view);
  setBusy(state.busy);
  applyZoom();
  if (!state.centred) {
    state.centred = true;
    requestAnimationFrame(centreOnAction);
  }
}

function boardSummary(view) {
  const turn = view.turn ?? {};
  const whose = turn.phase === "monsters" ? "Zargon's phase" : turn.hero ? `the ${turn.hero}'s turn` : "";
  return `Dungeon map, round ${view.round ?? "?"}, ${whose}. Use the action buttons beside the map for a list of moves.`;
}

/** True while a spell or a thrown weapon waits for its target. */
function selecting() {
  return Boolean(state.ui.spell || state.ui.throw);
}

function select({ spell, throw: weapon, monster }) {
  if (spell !== undefined) state.ui.spell = spell;
  if (weapon !== undefined) state.ui.throw = weapon;
  if (monster !== undefined) state.ui.monster = monster;
  render();
}

function cancelSelection() {
  const had = selecting() || (state.ui.monster && !state.view?.turn?.active_monster);
  state.ui.spell = null;
  state.ui.throw = null;
  if (!state.view?.turn?.active_monster) state.ui.monster = null;
  state.walking = false;
  if (had) render();
}

function setBusy(busy) {
  state.busy = busy;
  root.classList.toggle("busy", busy);
  root.setAttribute("aria-busy", busy ? "true" : "false");
  for (const b of dom.actions.querySelectorAll("button")) b.disabled = busy;
}

function showMessage(text, kind = "error") {
  dom.error.hidden = !text;
  dom.error.dataset.kind = kind;
  dom.errorText.textContent = text ?? "";
}

// ---- Acting -----------------------------------------------------------------------------

/** Post one legal action. Resolves true when the server accepted it. */
async function perform(action) {
  if (state.busy || !action) return false;
  setBusy(true);
  const res = await postAction(urls.actions, action, state.view.version);
  let ok = false;
  if (res.status >= 200 && res.status < 300) {
    ok = true;
    showMessage("");
    if (action.type === "cast" || action.type === "throw") {
      state.ui.spell = null;
      state.ui.throw = null;
    }
    const view = viewFromResponse(res.body);
    if (view?.version !== undefined) setView(view, { force: true });
    else await refreshView();
  } else if (res.status === 409) {
    await refreshView();
    showMessage("The game moved on before your action arrived; the board is up to date now.", "info");
  } else {
    showMessage(detailOf(res.body, res.status), "error");
    if (res.status === 0) refreshView();
  }
  setBusy(false);
  return ok;
}

/** Walk a path of single steps, each posted only once the previous one returned and only if legal. */
async function walk(path, who) {
  state.walking = true;
  root.dataset.walking = "1";
  const seenMonsters = (state.view.monsters ?? []).length;
  for (const step of path) {
    if (!state.walking) break;
    const type = who.monster ? "monster_move" : "move";
    const action = actionsOf(state.view, type, (a) => samePoint(a.to, step) && (who.monster ? a.monster === who.monster : a.hero === who.hero))[0];
    if (!action) {
      if (step !== path[0]) showMessage("Stopped: the next step is no longer possible.", "info");
      break;
    }
    if (!(await perform(action))) break;
    if ((state.view.monsters ?? []).length > seenMonsters) {
      showMessage("Stopped: something came into view.", "info");
      break;
    }
  }
  state.walking = false;
  root.dataset.walking = "0";
}

function pickTarget(list) {
  const order = ["attack", "spell", "throw", "move", "jump", "door"];
  return [...list].sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind))[0];
}

function onSquare(sq) {
  const k = keyOf(sq);
  const t = state.targets;
  const list = t.squares.get(k);
  const selectId = t.selectable.get(k);
  if (selectId && selectId !== state.ui.monster && !selecting()) {
    select({ monster: selectId });
    return;
  }
  if (list?.length) {
    perform(pickTarget(list).action);
    return;
  }
  const path = t.reach.get(k);
  if (path && !selecting()) {
    const who = state.view.role === "zargon" ? { monster: state.ui.monster } : { hero: state.view.turn?.hero };
    walk(path, who);
  }
}

function onBoardClick(e) {
  if (state.busy || !state.targets || performance.now() < state.suppressClickUntil) return;
  const doorNode = e.target.closest?.("[data-door]");
  const doorTargets = doorNode && state.targets.doors.get(doorNode.dataset.door);
  if (doorTargets?.length) {
    perform(pickTarget(doorTargets).action);
    return;
  }
  const sq = squareAt(dom.svg, e.clientX, e.clientY);
  if (sq) onSquare(sq);
}

// ---- Keyboard ---------------------------------------------------------------------------

const ARROWS = { ArrowUp: SIDES.N, ArrowRight: SIDES.E, ArrowDown: SIDES.S, ArrowLeft: SIDES.W };

function onKey(e) {
  if (e.altKey || e.ctrlKey || e.metaKey || !state.view) return;
  if (e.key === "Escape") {
    cancelSelection();
    return;
  }
  if (e.target.closest?.("input, textarea, select, button, a, summary, [contenteditable]")) return;
  if (e.key === "Enter") {
    const end = actionsOf(state.view, "end_turn")[0] ?? actionsOf(state.view, "end_phase")[0];
    if (end) {
      e.preventDefault();
      perform(end);
    }
    return;
  }
  const dir = ARROWS[e.key];
  const origin = state.targets?.origin;
  if (!dir || !origin || selecting()) return;
  const to = [origin[0] + dir[0], origin[1] + dir[1]];
  const type = state.view.role === "zargon" ? "monster_move" : "move";
  const action = actionsOf(state.view, type, (a) => samePoint(a.to, to) && (type === "move" || a.monster === state.ui.monster))[0];
  if (action) {
    e.preventDefault();
    perform(action);
  }
}

// ---- Zoom, pinch and scroll ------------------------------------------------------------

function fitWidth() {
  return Math.max(200, dom.scroller.clientWidth - 2);
}

function applyZoom() {
  dom.svg.style.width = `${Math.round(fitWidth() * state.zoom)}px`;
}

function setZoom(zoom, focus = null) {
  const old = state.zoom;
  state.zoom = Math.min(6, Math.max(1, zoom));
  const s = dom.scroller;
  const fx = focus?.x ?? s.clientWidth / 2;
  const fy = focus?.y ?? s.clientHeight / 2;
  const ratio = state.zoom / old;
  const left = (s.scrollLeft + fx) * ratio - fx;
  const top = (s.scrollTop + fy) * ratio - fy;
  applyZoom();
  s.scrollLeft = left;
  s.scrollTop = top;
}

function initialZoom() {
  const w = Number(state.view?.map?.width ?? 26) + 0.5;
  state.zoom = Math.max(1, (MIN_CELL_PX * w) / fitWidth());
  applyZoom();
}

function centreOnAction() {
  const origin = state.targets?.origin ?? state.view?.heroes?.find((h) => (state.view.heroes_owned ?? []).includes(h.hero) && h.position)?.position;
  if (!origin) return;
  const w = Number(state.view.map?.width ?? 26) + 0.5;
  const cell = dom.svg.getBoundingClientRect().width / w;
  const s = dom.scroller;
  s.scrollLeft = (origin[0] + 0.75) * cell - s.clientWidth / 2;
  s.scrollTop = (origin[1] + 0.75) * cell - s.clientHeight / 2;
}

function initPinch() {
  const pointers = new Map();
  let start = null;
  const dist = () => {
    const [a, b] = [...pointers.values()];
    return Math.hypot(a.x - b.x, a.y - b.y);
  };
  dom.scroller.addEventListener("pointerdown", (e) => {
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.size === 2) start = { d: dist(), zoom: state.zoom };
  });
  dom.scroller.addEventListener("pointermove", (e) => {
    if (!pointers.has(e.pointerId)) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.size === 2 && start?.d) {
      const [a, b] = [...pointers.values()];
      const rect = dom.scroller.getBoundingClientRect();
      setZoom(start.zoom * (dist() / start.d), { x: (a.x + b.x) / 2 - rect.left, y: (a.y + b.y) / 2 - rect.top });
      state.suppressClickUntil = performance.now() + 400;
    }
  });
  const end = (e) => {
    pointers.delete(e.pointerId);
    if (pointers.size < 2) start = null;
  };
  for (const type of ["pointerup", "pointercancel", "pointerleave"]) dom.scroller.addEventListener(type, end);
  dom.scroller.addEventListener("wheel", (e) => {
    if (!e.ctrlKey) return;
    e.preventDefault();
    const rect = dom.scroller.getBoundingClientRect();
    setZoom(state.zoom * Math.exp(-e.deltaY / 300), { x: e.clientX - rect.left, y: e.clientY - rect.top });
  }, { passive: false });
}

// ---- Live updates -----------------------------------------------------------------------

const CONN_TEXT = { live: "Live", connecting: "Connecting…", offline: "Offline – retrying" };

function setConnection(kind) {
  dom.conn.dataset.state = kind;
  fill(dom.conn, el("span", { class: "conn-dot", "aria-hidden": "true" }), CONN_TEXT[kind] ?? kind);
}

function onFrame(frame) {
  if (frame?.type === "chat") {
    chat?.receive(frame.message);
  } else if (frame?.type === "view" && frame.view) {
    const version = frame.version ?? frame.view.version;
    if (version > (state.view?.version ?? -1)) setView({ ...frame.view, version });
  } else if (frame?.type === "error") {
    showMessage(String(frame.error ?? "The server reported an error."), "error");
  }
}

function startLive() {
  const onOpen = () => {
    refreshView();
    chat?.catchUp();
  };
  const socket = new LiveSocket(socketUrl(urls.ws), { onFrame, onOpen, onState: setConnection });
  socket.start();
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") {
      refreshView();
      socket.nudge();
    }
  });
  // If the socket is down, still catch up now and then: the view is the whole truth.
  setInterval(() => {
    if (dom.conn.dataset.state !== "live" && document.visibilityState === "visible" && !state.busy) refreshView();
  }, 20000);
}

// ---- Start ------------------------------------------------------------------------------

/** Table talk, when the page has a chat URL (the in-memory test harness has none). */
function startChat() {
  const url = root.dataset.apiChatUrl;
  const form = $("chat-form");
  if (!url || !form) return null;
  const text = $("chat-text");
  const started = new Chat({
    url, form, text,
    log: $("chat-log"), scroller: $("chat-scroll"), older: $("chat-older"),
    narrator: $("chat-narrator"), count: $("chat-count"), error: $("chat-error"),
    maxLength: Number(text.getAttribute("maxlength")) || 1000,
  });
  started.start();
  return started;
}

let chat = null;

function init() {
  const data = $("seat-view");
  let view = null;
  try {
    view = JSON.parse(data?.textContent ?? "null");
    if (typeof view === "string") view = JSON.parse(view); // view_json given as a JSON string
  } catch {
    view = null;
  }
  dom.svg.addEventListener("click", onBoardClick);
  document.addEventListener("keydown", onKey);
  $("play-error-close")?.addEventListener("click", () => showMessage(""));
  $("zoom-in")?.addEventListener("click", () => setZoom(state.zoom * 1.25));
  $("zoom-out")?.addEventListener("click", () => setZoom(state.zoom / 1.25));
  $("zoom-fit")?.addEventListener("click", () => setZoom(1));
  window.addEventListener("resize", applyZoom);
  initPinch();
  if (view) {
    state.view = view;
    initialZoom();
    reconcileSelection();
    render();
  } else {
    refreshView();
  }
  chat = startChat();
  if (root.dataset.live !== "off") startLive();
}

init();
