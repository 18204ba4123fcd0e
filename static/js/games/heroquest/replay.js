// The replay page: a finished quest step by step, drawn with the board's own code from Zargon's
// view of each step (the whole map). The controls, `?step=N` and the dice checked against the
// revealed seed are every game's (static/js/table/replay_controls.js). ES module, no build step.

import { fill } from "../../table/dom.js";
import { entriesUpTo, startReplay } from "../../table/replay_controls.js";
import { drawBoard } from "./map.js";
import { boardTargets, indexView } from "./model.js";
import { renderDiceTray, renderHeroes, renderMonsters, renderTurn } from "./panel.js";
import { groupEntries, storyItem } from "./story.js";
import { BoardZoom } from "../../table/zoom.js";

const root = document.getElementById("replay");
const $ = (id) => document.getElementById(id);
const dom = {
  svg: $("board"),
  turn: $("turn-panel"),
  dice: $("dice-tray"),
  heroes: $("heroes-panel"),
  monsters: $("monsters-panel"),
  log: $("game-log"),
  logScroll: $("log-scroll"),
};
const LOG_SHOWN = 300; // the newest entries up to the step (a long quest's whole tale is slow to redraw)
const NO_UI = { pending: null, highlight: null, monster: null, spell: null, throw: null };
let logged = null; // the step the log shows
// The table's zoom: "Fit" shows the whole map, + and a pinch zoom in (static/js/table/zoom.js).
const zoom = new BoardZoom({ svg: dom.svg, scroller: $("board-scroll"), fallbackBox: [26.5, 19.5] });

/** A step's whole view: the page's changes on the view before it. */
function merge(before, step) {
  const changes = step.view_changes;
  return step.view ?? { ...before, ...changes, map: { ...before.map, ...(changes.map ?? {}) } };
}

function show(n, step, stepView, replay) {
  const entries = entriesUpTo(replay.steps, n, LOG_SHOWN);
  const view = { ...stepView, log: entries, legal_actions: [] };
  const index = indexView(view);
  drawBoard(dom.svg, view, index, boardTargets(view, index, NO_UI), NO_UI);
  zoom.settle(); // the first step opens at the table's zoom; later ones keep the reader's
  renderTurn(dom.turn, view, index, {}, { step: { n, action: step.action } });
  renderDiceTray(dom.dice, { ...view, log: step.entries }, index);
  renderHeroes(dom.heroes, view);
  renderMonsters(dom.monsters, view);
  renderLog(n, entries, index, replay);
}

/** The tale up to step n: redrawn whole, except while playing on, when the step's lines are added. */
function renderLog(n, entries, index, replay) {
  const item = (group) => storyItem(group, index, { rulesUrl: root.dataset.rulesUrl });
  if (replay.timer && logged === n - 1) {
    dom.log.append(...groupEntries(replay.steps[n].entries).map(item));
    while (dom.log.children.length > LOG_SHOWN) dom.log.firstElementChild.remove();
  } else {
    fill(dom.log, groupEntries(entries).map(item));
  }
  logged = n;
  dom.logScroll.scrollTop = dom.logScroll.scrollHeight;
}

const OUTCOME_WORDS = {
  heroes: "the heroes won",
  zargon: "Zargon won: no hero was left standing",
  retreat: "the heroes retreated by the stairway",
  abandoned: "the game was abandoned",
};

/** "312 actions over 23 rounds, and Zargon won: no hero was left standing." */
export function summaryText(actions, rounds, outcome) {
  const over = Number.isInteger(rounds) && rounds > 0 ? ` over ${rounds} round${rounds === 1 ? "" : "s"}` : "";
  const how = OUTCOME_WORDS[outcome] ?? (outcome ? `it ended (${String(outcome).replace(/_/g, " ")})` : "it ended");
  return `${actions} action${actions === 1 ? "" : "s"}${over}, and ${how}.`;
}

zoom.wire({ zoomIn: $("zoom-in"), zoomOut: $("zoom-out"), fit: $("zoom-fit") });
startReplay({
  merge,
  show,
  summary: (replay) => summaryText(replay.steps.length - 1, replay.steps[replay.steps.length - 1]?.round, root.dataset.outcome),
  diceWords: "dice in the log, the rest shuffles",
  statusWhileChecking: true,
});
