// The play page: draws the seat view, offers exactly its legal actions, and keeps it live.
// ES module, no build step. Reads #seat-view (json_script) and the data-* URLs on #play.

import { el, fill } from "../../table/dom.js";
import { drawBoard, squareAt } from "./map.js";
import {
  actionsOf,
  activeMonsterIds,
  boardTargets,
  castableSpells,
  findLegal,
  indexView,
  keyOf,
  placeName,
  SIDES,
  samePoint,
  throwableWeapons,
} from "./model.js";
import { fetchView } from "../../table/net.js";
import { ask, playAction, readJson, showConnection, showError, startChat, startLive, tableFrame } from "../../table/page.js";
import { BoardZoom } from "../../table/zoom.js";
import { StoryLog } from "./log.js";
import { heroRef, monsterRef } from "./names.js";
import { heroStories } from "./quest_end.js";
import {
  renderActions,
  renderDiceTray,
  renderFindCard,
  renderHeroes,
  renderMonsterCard,
  renderMonsters,
  renderOutcome,
  renderQuest,
  renderStart,
  renderTurn,
  turnAnnouncement,
} from "./panel.js";

const root = document.getElementById("play");
const $ = (id) => document.getElementById(id);
const dom = {
  svg: $("board"),
  scroller: $("board-scroll"),
  turn: $("turn-panel"),
  actions: $("actions-panel"),
  heroes: $("heroes-panel"),
  monsters: $("monsters-panel"),
  quest: $("quest-panel"),
  log: $("game-log"),
  dice: $("dice-tray"),
  outcome: $("outcome-banner"),
  conn: $("connection"),
  confirmBar: $("move-confirm"),
  dialog: $("confirm-dialog"),
  start: $("start-screen"),
  findCard: $("find-card"),
  monsterCard: $("monster-card"),
  turnAnnouncer: $("turn-announcer"),
};
const urls = {
  view: root.dataset.apiViewUrl,
  actions: root.dataset.apiActionsUrl,
  ws: root.dataset.wsUrl,
  events: root.dataset.apiEventsUrl,
  rules: root.dataset.rulesUrl ?? "",
  lobby: root.dataset.lobbyUrl ?? "/",
  armory: root.dataset.armoryUrl ?? "",
};

const seatNames = readJson("seat-names") ?? {};
const story = new StoryLog({
  list: $("game-log"),
  scroller: $("log-scroll"),
  older: $("log-older"),
  order: $("log-order"),
  away: $("log-away"),
  announcer: $("log-announcer"),
  eventsUrl: urls.events,
  rulesUrl: urls.rules,
  onHighlight: (squares) => {
    state.ui.highlight = squares;
    render();
  },
});

const state = {
  view: null,
  index: null,
  targets: null,
  ui: { spell: null, throw: null, monster: null, pending: null, highlight: null },
  busy: false,
  networkError: false,
  shownMonster: null,
  findSeq: null,
  lastTurnKey: null,
  confirm: root.dataset.confirm !== "off",
  walking: false,
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
  // The server-drawn turn clock (static/js/clock.js) follows the turn.
  const turn = [view.round, view.turn?.phase, view.turn?.hero, view.turn?.seat].join("/");
  document.dispatchEvent(new CustomEvent("board:view", { detail: { turn } }));
}

/** Drop selections the new view no longer allows; pick up Zargon's active monster. */
function reconcileSelection() {
  const view = state.view;
  const ui = state.ui;
  if (ui.pending && !samePoint(ui.pending.from, currentOrigin(view))) ui.pending = null;
  if (ui.pending?.action && !findLegal(view, ui.pending.action)) ui.pending = null;
  if (ui.spell && !castableSpells(view).includes(ui.spell)) ui.spell = null;
  if (ui.throw && !throwableWeapons(view).includes(ui.throw)) ui.throw = null;
  const movable = activeMonsterIds(view);
  if (ui.monster && !movable.includes(ui.monster)) ui.monster = null;
  const active = view.turn?.active_monster;
  if (view.role === "zargon" && active && movable.includes(active)) ui.monster = active;
}

/** Where the acting figure stands in `view`. */
function currentOrigin(view) {
  if (view.role === "zargon") return (view.monsters ?? []).find((m) => m.id === state.ui.monster)?.position ?? null;
  return (view.heroes ?? []).find((h) => h.hero === view.turn?.hero)?.position ?? null;
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
  renderTurn(dom.turn, view, state.index, seatNames);
  announceTurn(view);
  renderActions(dom.actions, view, state.index, state.ui, {
    onAction: (a) => perform(a),
    onSelectSpell: (spell) => select({ spell, throw: null }),
    onSelectThrow: (weapon) => select({ throw: weapon, spell: null }),
    onSelectMonster: (monster) => select({ monster }),
  });
  renderHeroes(dom.heroes, view, (a) => perform(a));
  renderMonsters(dom.monsters, view);
  renderQuest(dom.quest, view);
  story.update(view, state.index);
  renderDiceTray(dom.dice, view, state.index);
  renderPending();
  renderMonsterCard(dom.monsterCard, view, state.shownMonster, () => showMonster(null));
  renderFindCard(dom.findCard, findOfMine(view), () => {
    state.findSeq = state.findShown?.seq ?? state.findSeq;
    renderFindCard(dom.findCard, null);
  });
  renderEnd(view);
  renderStartScreen(view);
  setBusy(state.busy);
  zoom.apply();
  if (!state.centred && zoom.level > 1) {
    state.centred = true;
    requestAnimationFrame(centreOnAction);
  }
}

// ---- The end of the quest ----------------------------------------------------------------

const end = { loading: false, stories: null, extras: null };

/** The end screen, live: once the view has an outcome, the whole story and the server's part
 * (the seed revealed, the replay link) are fetched, without a reload. */
function renderEnd(view) {
  if (view.outcome && !end.loading) {
    end.loading = true;
    end.extras = $("quest-end-extras");
    loadEnd();
  }
  renderOutcome(dom.outcome, view, { lobby: urls.lobby, armory: urls.armory }, { stories: end.stories, extras: end.extras });
}

async function loadEnd() {
  document.dispatchEvent(new CustomEvent("board:clock")); // the clock bar goes: nothing runs now
  const [entries] = await Promise.all([wholeStory(), end.extras ? null : endExtras()]);
  end.stories = heroStories(entries, state.view);
  render();
  if (!end.shown) {
    end.shown = true;
    dom.outcome.scrollIntoView({ block: "start" });
  }
}

/** Every entry of the story this seat may read (the view keeps only the last ones). */
async function wholeStory() {
  const entries = [];
  try {
    for (let after = 0; ; ) {
      const res = await fetch(`${urls.events}?after=${after}&limit=1000`, { credentials: "same-origin", cache: "no-store" });
      if (!res.ok) throw new Error(String(res.status));
      const page = await res.json();
      const list = Array.isArray(page) ? page : (page.entries ?? []);
      entries.push(...list);
      if (list.length < 1000) return entries;
      after = list[list.length - 1].seq;
    }
  } catch {
    return state.view.log ?? [];
  }
}

/** The server's part of the end screen, and the opened seal in the fair-dice panel. */
async function endExtras() {
  try {
    const res = await fetch(location.href, { credentials: "same-origin", cache: "no-store" });
    if (!res.ok) return;
    const fresh = new DOMParser().parseFromString(await res.text(), "text/html");
    const extras = fresh.getElementById("quest-end-extras");
    if (extras) end.extras = document.importNode(extras, true);
    const panel = fresh.getElementById("fairness-panel");
    const current = $("fairness-panel");
    if (panel && current) current.replaceWith(document.importNode(panel, true));
    else if (panel) document.querySelector(".log-panel")?.before(document.importNode(panel, true));
  } catch {
    // offline: a reload shows them
  }
}

/** Tell the screen reader when the turn passes (only then: the live region stays quiet otherwise). */
function announceTurn(view) {
  const turn = view.turn ?? {};
  const key = `${view.round}:${turn.phase}:${turn.hero ?? ""}:${view.outcome ?? ""}`;
  if (state.lastTurnKey !== null && state.lastTurnKey !== key)
    dom.turnAnnouncer.textContent = turnAnnouncement(view, state.index, seatNames);
  state.lastTurnKey = key;
}

/** The newest treasure find of this seat's heroes since the page opened (shown as a card). */
function findOfMine(view) {
  const owned = view.heroes_owned ?? [];
  const log = view.log ?? [];
  const find = [...log].reverse().find((e) => e.type === "search" && e.find && e.find !== "treasure" && owned.includes(e.hero));
  if (state.findSeq === null) {
    // Opening the page shows no old finds: remember where the story stood.
    state.findSeq = find?.seq ?? 0;
    state.findShown = null;
    return null;
  }
  if (find && find.seq > state.findSeq) state.findShown = find;
  if (state.findShown && state.findShown.seq > state.findSeq) return state.findShown;
  return null;
}

function showMonster(id) {
  state.shownMonster = id;
  renderMonsterCard(dom.monsterCard, state.view, id, () => showMonster(null));
  if (id) dom.monsterCard.scrollIntoView({ block: "nearest" });
}

const startKey = () => `ashen-vault:started:${root.dataset.gameId}:${root.dataset.seat}`;

/** The parchment before the first round, until the seat begins the quest. */
function renderStartScreen(view) {
  let begun = true;
  try {
    begun = localStorage.getItem(startKey()) === "1";
  } catch {
    begun = true;
  }
  if (begun || view.role === "spectator" || view.outcome || (view.round ?? 1) > 1) {
    dom.start.hidden = true;
    return;
  }
  renderStart(dom.start, view, () => {
    try {
      localStorage.setItem(startKey(), "1");
    } catch {
      // Private mode: the screen simply closes for now.
    }
    dom.start.hidden = true;
    dom.turn.scrollIntoView({ block: "nearest" });
  });
}

function boardSummary(view) {
  const turn = view.turn ?? {};
  const acting = turn.hero ? (state.index?.heroes.get(turn.hero) ?? { hero: turn.hero }) : null;
  const whose = turn.phase === "monsters" ? "Zargon's phase" : acting ? `${heroRef(acting)}'s turn` : "";
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

/** What ending now would waste, in words; empty when nothing is left unused. */
function unusedThisTurn(view, action) {
  const turn = view.turn ?? {};
  if (action.type === "end_phase") {
    const ready = activeMonsterIds(view).length;
    const acted = (view.monsters ?? []).some((m) => m.activated);
    return ready && !acted ? [`No monster has acted yet this phase; ${ready} could.`] : [];
  }
  const out = [];
  if (!turn.movement_rolled) out.push("You have not rolled for movement.");
  if (!turn.has_acted) out.push("Your action (attack, spell, search...) is unused.");
  return out;
}

/** End the turn at once, or ask first when something is still unused. Resolves true to go on. */
async function endConfirmed(action) {
  const unused = unusedThisTurn(state.view, action);
  if (!state.confirm || !unused.length || !dom.dialog?.showModal) return true;
  const title = action.type === "end_phase" ? "End Zargon's phase?" : "End your turn?";
  return ask(title, unused, action.type === "end_phase" ? "End the phase" : "End turn anyway");
}

function showMessage(text, kind = "error") {
  if (!text) state.networkError = false;
  showError(text, kind);
}

// ---- Acting -----------------------------------------------------------------------------

/** Post one legal action. Resolves true when the server accepted it. */
async function perform(action) {
  if (state.busy || !action) return false;
  if ((action.type === "end_turn" || action.type === "end_phase") && !(await endConfirmed(action))) return false;
  clearPending();
  if (state.ui.highlight) {
    state.ui.highlight = null;
    story.release();
  }
  setBusy(true);
  const { ok } = await playAction({
    url: urls.actions,
    action,
    version: state.view.version,
    accepted: () => {
      if (action.type === "cast" || action.type === "throw") {
        state.ui.spell = null;
        state.ui.throw = null;
      }
    },
    setView,
    refreshView,
    showMessage,
    networkError: (flag) => {
      state.networkError = flag;
    },
  });
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
    const action = actionsOf(
      state.view,
      type,
      (a) => samePoint(a.to, step) && (who.monster ? a.monster === who.monster : a.hero === who.hero),
    )[0];
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

/** Who walks now: the acting hero, or Zargon's selected monster. */
function walker() {
  return state.view.role === "zargon" ? { monster: state.ui.monster } : { hero: state.view.turn?.hero };
}

function onSquare(sq) {
  const k = keyOf(sq);
  const t = state.targets;
  const list = t.squares.get(k);
  const selectId = t.selectable.get(k);
  if (selectId && selectId !== state.ui.monster && !selecting()) {
    clearPending();
    state.shownMonster = selectId;
    select({ monster: selectId });
    return;
  }
  if (list?.length) {
    const target = pickTarget(list);
    // An attack is a click on a figure, which also shows its card: ask first, as for a far
    // move, unless the player turned confirmations off (a second tap, Enter or the button).
    if (target.kind === "attack" && state.confirm && state.ui.pending?.key !== k) {
      proposeAttack(k, target.action);
      return;
    }
    clearPending();
    perform(target.action);
    return;
  }
  const path = t.reach.get(k);
  const figure = state.index.figures.get(k);
  if (!path && figure?.kind === "monster") {
    clearPending();
    showMonster(figure.data.id);
    return;
  }
  if (path && !selecting()) {
    // A far move costs several squares of movement: show its path and cost, take it on a second
    // tap (or Enter, or the Move button) unless the player turned confirmations off.
    if (state.confirm && state.ui.pending?.key !== k) {
      proposeWalk(k, path);
      return;
    }
    clearPending();
    walk(path, walker());
    return;
  }
  clearPending();
}

function proposeWalk(k, path) {
  state.ui.pending = { key: k, path, from: state.targets.origin, who: walker() };
  render();
}

function proposeAttack(k, action) {
  const figure = state.index.figures.get(k);
  if (figure?.kind === "monster") state.shownMonster = figure.data.id;
  state.ui.pending = { key: k, action, from: state.targets.origin, who: walker() };
  render();
}

function confirmPending() {
  const pending = state.ui.pending;
  if (!pending) return;
  clearPending();
  if (pending.action) perform(pending.action);
  else walk(pending.path, pending.who);
}

function clearPending() {
  if (!state.ui.pending) return;
  state.ui.pending = null;
  render();
}

/** The "Move N squares to ...? [Move] [Cancel]" bar under the board. */
function renderPending() {
  const bar = dom.confirmBar;
  const pending = state.ui.pending;
  if (!bar) return;
  if (!pending) {
    bar.hidden = true;
    return;
  }
  bar.setAttribute("aria-label", pending.action ? "Confirm the attack" : "Confirm the move");
  if (pending.action) {
    const figure = state.index.figures.get(pending.key);
    const name = figure?.kind === "hero" ? heroRef(figure.data) : monsterRef(figure?.data);
    bar.hidden = false;
    fill(
      bar,
      el(
        "p",
        { class: "confirm-text" },
        `Attack ${name}?`,
        el("span", { class: "muted small" }, " Tap it again", el("span", { class: "enter-hint" }, " or press Enter"), "."),
      ),
      el(
        "div",
        { class: "actions" },
        el("button", { type: "button", class: "primary", id: "attack-confirm-go", onclick: confirmPending }, "Attack"),
        el("button", { type: "button", id: "move-confirm-cancel", onclick: clearPending }, "Cancel"),
      ),
    );
    return;
  }
  const where = placeName(state.index, pending.path[pending.path.length - 1]);
  const left = state.view.role === "zargon" ? state.view.turn?.monster_movement_left : state.view.turn?.movement_left;
  const cost = pending.path.length;
  bar.hidden = false;
  fill(
    bar,
    el(
      "p",
      { class: "confirm-text" },
      `Move ${cost} squares ${where ? `to ${where}` : ""}`.trim(),
      Number.isInteger(left) && left ? el("span", { class: "muted small" }, ` (${cost} of ${left} movement)`) : null,
      el("span", { class: "muted small" }, ". Tap the square again", el("span", { class: "enter-hint" }, " or press Enter"), "."),
    ),
    el(
      "div",
      { class: "actions" },
      el("button", { type: "button", class: "primary", id: "move-confirm-go", onclick: confirmPending }, `Move ${cost} squares`),
      el("button", { type: "button", id: "move-confirm-cancel", onclick: clearPending }, "Cancel"),
    ),
  );
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

function onBoardFocus(target) {
  return target === dom.scroller || target === dom.svg || dom.scroller.contains(target);
}

function onKey(e) {
  if (e.altKey || e.ctrlKey || e.metaKey || !state.view || dom.dialog?.open) return;
  if (e.key === "Escape") {
    clearPending();
    if (state.ui.highlight) {
      state.ui.highlight = null;
      story.release();
      render();
    }
    cancelSelection();
    return;
  }
  if (e.target.closest?.("input, textarea, select, button, a, summary, [contenteditable]")) return;
  if (e.key === "Enter") {
    if (state.ui.pending) {
      e.preventDefault();
      confirmPending();
      return;
    }
    // Enter ends the turn only from the board itself (or the End turn button, natively).
    if (!onBoardFocus(e.target)) return;
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

// A touch screen opens the map with squares a finger can hit, scrolled to the acting figure;
// "Fit" shows the whole map, + and pinch zoom in (static/js/table/zoom.js).
const zoom = new BoardZoom({
  svg: dom.svg,
  scroller: dom.scroller,
  fallbackBox: [26.5, 19.5],
  onPinch: () => {
    state.suppressClickUntil = performance.now() + 400;
  },
});

function centreOnAction() {
  const origin =
    state.targets?.origin ?? state.view?.heroes?.find((h) => (state.view.heroes_owned ?? []).includes(h.hero) && h.position)?.position;
  if (origin) zoom.centreOn(origin[0] + 0.5, origin[1] + 0.5);
}

// ---- Live updates -----------------------------------------------------------------------

/** The socket was closed for good (4403): say why, and stop trying to catch up. */
function tableClosed() {
  state.closed = true;
  const spectator = root.dataset.spectator === "yes";
  showMessage(
    spectator
      ? "The host closed this table to spectators: the game goes on, but you can no longer watch it."
      : "You no longer hold a seat in this game: it goes on without you.",
    "info",
  );
  if (spectator) fill($("spectator-note") ?? dom.conn, "The host closed the table to spectators.");
}

function setConnection(kind) {
  if (kind === "closed") tableClosed();
  // The connection is back: an error about reaching the server no longer holds.
  if (kind === "live" && state.networkError) showMessage("");
  showConnection(kind);
}

function onFrame(frame) {
  tableFrame(frame, {
    chat,
    version: () => state.view?.version ?? -1,
    onView: (view) => setView(view),
    onError: (text) => showMessage(text, "error"),
  });
}

// ---- Start ------------------------------------------------------------------------------

let chat = null;

function init() {
  const view = readJson("seat-view");
  dom.svg.addEventListener("click", onBoardClick);
  document.addEventListener("keydown", onKey);
  $("play-error-close")?.addEventListener("click", () => showMessage(""));
  zoom.wire({ zoomIn: $("zoom-in"), zoomOut: $("zoom-out"), fit: $("zoom-fit") });
  window.addEventListener("online", () => {
    if (state.networkError) showMessage("");
    refreshView();
  });
  if (view) {
    state.view = view;
    zoom.initial();
    reconcileSelection();
    render();
  } else {
    refreshView();
  }
  chat = startChat();
  // The table talk catches up on what was said while the socket was down.
  if (root.dataset.live !== "off") {
    startLive({ url: urls.ws, onFrame, onOpen: () => chat?.catchUp(), onState: setConnection, refreshView, idle: () => !state.busy });
  }
}

init();
