// Legend of Zagor's play page: draws the seat view it is given (docs/zagor/face.md), offers
// exactly its legal actions, and keeps it live over the game socket. The page contract is the
// platform's (templates/play/game.html): #play with data-* URLs, the `seat-view` and
// `seat-names` json_scripts; what the page shows is only what the view and the seat's log give.

import { el, fill } from "../../table/dom.js";
import { detailOf, fetchView, postAction, viewFromResponse } from "../../table/net.js";
import { ask, playAction, readJson, showConnection, showError, startChat, startLive, tableFrame } from "../../table/page.js";
import { BoardZoom } from "../../table/zoom.js";
import { drawBoard } from "./draw.js";
import {
  actionsOf,
  focusLevel,
  groupActions,
  levelBoxes,
  levelsInPlay,
  levelsWithMoves,
  placeSpaces,
  unusedThisTurn,
  viewBoxOf,
  voiceLines,
  lastRoll,
  rollBeforeThisTurn,
} from "./model.js";
import {
  boardSummary,
  renderActions,
  renderDice,
  renderFight,
  renderOutcome,
  renderSheets,
  renderSpells,
  renderStore,
  renderTurn,
  targetsOf,
  turnAnnouncement,
} from "./panels.js";
import { Story } from "./story.js";
import { Voice } from "./voice.js";

const root = document.getElementById("play");
const $ = (id) => document.getElementById(id);

/** The panels this game adds to the platform's page, placed among the page's own. */
function layoutPage() {
  const make = (id, label, cls = "") => el("section", { id, class: `panel-card ${cls}`.trim(), "aria-label": label });
  const voice = make("voice-panel", "The voice of Zagor", "voice-panel");
  const store = make("store-panel", "The Dungeon Store", "store-panel");
  const spells = make("spells-panel", "Your spell cards", "spells-panel");
  const turn = $("turn-panel");
  turn.after(voice);
  // The fight and the dice come before the buttons: a phone reads the panel top down.
  const actions = $("actions-panel");
  actions.before($("monster-card"), $("dice-tray"));
  actions.after(store, spells);
  // What the page has for another game stays out of the way.
  for (const id of ["find-card", "start-screen", "monsters-panel", "quest-panel", "move-confirm"]) {
    const node = $(id);
    if (node) node.hidden = true;
  }
  // Nobody narrates: the server speaks for Zagor.
  $("chat-narrator")?.closest("label")?.remove();
  const tabs = el("div", { class: "level-tabs", id: "level-tabs", role: "group", "aria-label": "Levels" });
  $("board-scroll").before(tabs);
  return { voice, store, spells, tabs };
}

const added = layoutPage();
const dom = {
  svg: $("board"),
  scroller: $("board-scroll"),
  turn: $("turn-panel"),
  actions: $("actions-panel"),
  heroes: $("heroes-panel"),
  dice: $("dice-tray"),
  fight: $("monster-card"),
  outcome: $("outcome-banner"),
  dialog: $("confirm-dialog"),
  turnAnnouncer: $("turn-announcer"),
  ...added,
};
const urls = {
  view: root.dataset.apiViewUrl,
  actions: root.dataset.apiActionsUrl,
  ws: root.dataset.wsUrl,
  events: root.dataset.apiEventsUrl,
  lobby: root.dataset.lobbyUrl ?? "/",
};
const seatNames = readJson("seat-names") ?? {};
const narrow = window.matchMedia("(max-width: 60rem)");

const state = {
  view: null,
  placed: new Map(),
  ui: { selecting: null },
  level: null, // the level a phone shows (null: follow the turn)
  busy: false,
  networkError: false,
  lastTurnKey: null,
  confirm: root.dataset.confirm !== "off",
  suppressClickUntil: 0, // a pinch's fingers lifting is not a tap
};

// Spaces a finger can hit on a touch screen; + and pinch make the names readable.
const zoom = new BoardZoom({
  svg: dom.svg,
  scroller: dom.scroller,
  onPinch: () => {
    state.suppressClickUntil = performance.now() + 400;
  },
});

const voice = new Voice(dom.voice);
const story = new Story({
  list: $("game-log"),
  scroller: $("log-scroll"),
  older: $("log-older"),
  order: $("log-order"),
  announcer: $("log-announcer"),
  eventsUrl: urls.events,
  onNew: (entries) => {
    voice.heard(voiceLines(entries));
    showLastRoll({ fresh: lastRoll(entries).length > 0 });
  },
});

/** The tray: the newest roll in the log, marked when a turn has begun since. */
function showLastRoll({ fresh = false } = {}) {
  const entries = story.sorted();
  renderDice(dom.dice, lastRoll(entries), { fresh, earlier: rollBeforeThisTurn(entries) });
}

// ---- View -------------------------------------------------------------------------------

function setView(view, { force = false } = {}) {
  if (!view || typeof view !== "object") return false;
  const current = state.view?.version ?? -1;
  const next = view.version ?? current;
  if (state.view && (force ? next < current : next <= current)) return false;
  const turnBefore = turnKey(state.view);
  state.view = view;
  if (turnKey(view) !== turnBefore) state.level = null;
  if (state.ui.selecting && !targetsOf(view, state.ui.selecting).length) state.ui.selecting = null;
  render();
  document.dispatchEvent(new CustomEvent("board:view", { detail: { turn: turnKey(view) } }));
  return next > current;
}

function turnKey(view) {
  return view ? [view.round, view.turn?.hero, view.outcome ?? ""].join("/") : null;
}

async function refreshView() {
  try {
    if (setView(await fetchView(urls.view), { force: true })) story.catchUp();
  } catch (err) {
    showMessage(err.message, "error");
  }
}

// ---- Drawing ----------------------------------------------------------------------------

/** The spaces and heroes the board lights: legal moves, or the targets of a waiting cast. */
function marks(view) {
  const moves = new Set();
  const targets = new Set();
  const heroTargets = new Set();
  if (state.ui.selecting) {
    for (const a of targetsOf(view, state.ui.selecting)) {
      if (state.placed.has(a.target)) targets.add(a.target);
      else if ((view.heroes ?? []).some((h) => h.hero === a.target)) heroTargets.add(a.target);
    }
  } else {
    for (const a of actionsOf(view, "move")) moves.add(a.to);
    for (const a of actionsOf(view, "attack_hero")) heroTargets.add(a.target);
  }
  return { moves, targets, heroTargets };
}

function shownLevel(view) {
  const inPlay = view.levels ?? [];
  if (state.level !== null && inPlay.includes(state.level)) return state.level;
  return focusLevel(view);
}

function render() {
  const view = state.view;
  state.placed = placeSpaces(view);
  const drawn = drawBoard(dom.svg, view, marks(view));
  const single = narrow.matches && levelsInPlay(view).length > 1 ? shownLevel(view) : null;
  const box = viewBoxOf(drawn.boxes, single).join(" ");
  if (dom.svg.getAttribute("viewBox") !== box) {
    dom.svg.setAttribute("viewBox", box);
    zoom.apply(); // a level shown or revealed: the fitted size changed
  }
  dom.svg.dataset.level = single === null ? "all" : String(single);
  dom.svg.setAttribute("aria-label", boardSummary(view, state.placed));
  renderTabs(view, single);
  root.dataset.version = String(view.version ?? "");
  root.classList.toggle("selecting", Boolean(state.ui.selecting));
  renderTurn(dom.turn, view, seatNames);
  announceTurn(view);
  voice.render(view);
  renderFight(dom.fight, view);
  const on = { act: (a) => perform(a), select: (what) => select(what) };
  renderActions(dom.actions, view, state.placed, state.ui, on);
  renderStore(dom.store, view, on);
  renderSpells(dom.spells, view, state.placed, state.ui, on);
  renderSheets(dom.heroes, view, seatNames, { saveSurrender });
  renderOutcome(dom.outcome, view, urls.lobby);
  setBusy(state.busy);
}

/** The level tabs (a phone shows one level at a time; a dot marks levels with a legal move). */
function renderTabs(view, single) {
  const levels = levelBoxes(view);
  dom.tabs.hidden = single === null;
  if (single === null) return;
  const withMoves = levelsWithMoves(view, state.placed);
  fill(
    dom.tabs,
    levels.map((box) =>
      el(
        "button",
        {
          type: "button",
          class: "level-tab",
          "aria-pressed": box.level === single ? "true" : "false",
          dataset: { level: String(box.level) },
          onclick: () => {
            state.level = box.level;
            render();
          },
        },
        `Level ${box.level}`,
        withMoves.has(box.level) ? el("span", { class: "tab-dot", "aria-label": " (you may move here)" }) : null,
      ),
    ),
  );
}

function announceTurn(view) {
  const key = turnKey(view);
  if (state.lastTurnKey !== null && state.lastTurnKey !== key) dom.turnAnnouncer.textContent = turnAnnouncement(view);
  state.lastTurnKey = key;
}

function select(what) {
  state.ui.selecting = what;
  render();
}

function setBusy(busy) {
  state.busy = busy;
  root.classList.toggle("busy", busy);
  root.setAttribute("aria-busy", busy ? "true" : "false");
  for (const b of document.querySelectorAll(".play-panel .actions button, #store-panel button, #spells-panel button")) b.disabled = busy;
}

function showMessage(text, kind = "error") {
  if (!text) state.networkError = false;
  showError(text, kind);
}

// ---- Acting -----------------------------------------------------------------------------

async function perform(action) {
  if (state.busy || !action) return false;
  if (action.type === "end_turn" && state.confirm && dom.dialog?.showModal) {
    const unused = unusedThisTurn(state.view);
    if (unused.length && !(await ask("End your turn?", unused, "End turn anyway"))) return false;
  }
  setBusy(true);
  const { ok, body } = await playAction({
    url: urls.actions,
    action,
    version: state.view.version,
    accepted: (answer) => {
      state.ui.selecting = null;
      story.add(answer?.entries ?? []);
    },
    setView,
    refreshView,
    showMessage,
    networkError: (flag) => {
      state.networkError = flag;
    },
  });
  if (ok && !(body?.entries ?? []).length) story.catchUp();
  setBusy(false);
  return ok;
}

/** The standing setting "surrender at Stamina N or less" (private; never in legal_actions). */
async function saveSurrender(at) {
  const hero = state.view?.me?.hero;
  if (!hero || state.busy) return;
  setBusy(true);
  const res = await postAction(urls.actions, { type: "set_surrender", hero, at }, state.view.version);
  setBusy(false);
  if (res.status >= 200 && res.status < 300) {
    const view = viewFromResponse(res.body);
    if (view) setView(view, { force: true });
    else await refreshView();
    const saved = $("surrender-saved");
    if (saved) saved.textContent = at ? `Saved: you surrender a duel at Stamina ${at} or less.` : "Saved: you never surrender.";
    root.dataset.surrenderAt = String(at);
  } else {
    showMessage(detailOf(res.body, res.status), "error");
  }
}

function onBoardClick(e) {
  if (state.busy || !state.view || performance.now() < state.suppressClickUntil) return;
  const view = state.view;
  const heroNode = e.target.closest?.("[data-hero]");
  const spaceNode = e.target.closest?.("[data-space]");
  if (state.ui.selecting) {
    const list = targetsOf(view, state.ui.selecting);
    const hero = heroNode?.dataset.hero;
    const space = spaceNode?.dataset.space;
    const hit = list.find((a) => a.target === hero) ?? list.find((a) => a.target === space);
    if (hit) perform(hit);
    return;
  }
  const g = groupActions(view);
  const hero = heroNode?.dataset.hero;
  if (hero && g.attacks.has(hero)) {
    perform(g.attacks.get(hero));
    return;
  }
  const space = spaceNode?.dataset.space;
  if (space && g.moves.has(space)) perform(g.moves.get(space));
}

function onKey(e) {
  if (e.altKey || e.ctrlKey || e.metaKey || !state.view || dom.dialog?.open) return;
  if (e.key === "Escape" && state.ui.selecting) {
    select(null);
    return;
  }
  if (e.key !== "Enter" || e.target.closest?.("input, textarea, select, button, a, summary")) return;
  if (!(e.target === dom.scroller || dom.scroller.contains(e.target))) return;
  const end = actionsOf(state.view, "end_turn", (a) => !a.swap)[0];
  if (end) {
    e.preventDefault();
    perform(end);
  }
}

// ---- Live updates -----------------------------------------------------------------------

function setConnection(kind) {
  if (kind === "live" && state.networkError) showMessage("");
  showConnection(kind);
}

let chat = null;

function onFrame(frame) {
  tableFrame(frame, {
    chat,
    version: () => state.view?.version ?? -1,
    onView: (view) => {
      if (setView(view)) story.catchUp();
    },
    onError: (text) => showMessage(text, "error"),
  });
}

async function init() {
  dom.svg.addEventListener("click", onBoardClick);
  document.addEventListener("keydown", onKey);
  $("play-error-close")?.addEventListener("click", () => showMessage(""));
  narrow.addEventListener("change", () => state.view && render());
  zoom.wire({ zoomIn: $("zoom-in"), zoomOut: $("zoom-out"), fit: $("zoom-fit") });
  const view = readJson("seat-view");
  if (view) setView(view, { force: true });
  else await refreshView();
  zoom.initial();
  chat = startChat();
  await story.start();
  showLastRoll();
  root.dataset.ready = "true";
  if (root.dataset.live !== "off") {
    const onOpen = () => {
      chat?.catchUp();
      story.catchUp();
    };
    startLive({ url: urls.ws, onFrame, onOpen, onState: setConnection, refreshView, idle: () => !state.busy });
  }
}

init();
