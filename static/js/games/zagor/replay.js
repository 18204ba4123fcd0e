// Legend of Zagor's replay page: a finished game step by step (GET /api/games/{id}/replay), drawn
// with the table's own code from each step's replay view (every tile's face shown). The
// controls, the keys, `?step=N` and the dice checked against the revealed seed are every game's
// (static/js/table/replay_controls.js); first / back / play / forward / last are drawn icons here.

import { el, fill, svgEl } from "../../table/dom.js";
import { entriesUpTo, startReplay } from "../../table/replay_controls.js";
import { drawBoard } from "./draw.js";
import { heroOf, levelsInPlay, mergeReplayView, outcomeText } from "./model.js";
import { renderDice, renderFight, renderSheets, renderTurn } from "./panels.js";
import { storyItem } from "./story.js";
import { BoardZoom } from "../../table/zoom.js";

const $ = (id) => document.getElementById(id);
const dom = {
  svg: $("board"),
  turn: $("turn-panel"),
  dice: $("dice-tray"),
  heroes: $("heroes-panel"),
  log: $("game-log"),
  logScroll: $("log-scroll"),
  play: $("replay-play"),
};
const LOG_SHOWN = 300;
// The table's zoom: "Fit" shows every level in play, + and a pinch make the names readable.
const zoom = new BoardZoom({ svg: dom.svg, scroller: $("board-scroll") });

// Icons as paths on a 24 x 24 grid: bar + triangle (first / last), chevrons (back / forward),
// and play / pause.
const ICONS = {
  first: "M5 5h2.5v14H5z M19 5v14L8.5 12z",
  back: "M15.5 4.5 17.6 6.6 12.2 12l5.4 5.4-2.1 2.1L8 12z",
  forward: "M8.5 4.5 6.4 6.6 11.8 12l-5.4 5.4 2.1 2.1L16 12z",
  last: "M16.5 5H19v14h-2.5z M5 5v14l10.5-7z",
  play: "M7 5v14l11-7z",
  pause: "M6 5h4v14H6z M14 5h4v14h-4z",
};

function icon(name) {
  const svg = svgEl("svg", { viewBox: "0 0 24 24", class: `icon icon-${name}`, "aria-hidden": "true", focusable: "false" });
  svgEl("path", { d: ICONS[name] }, svg);
  return svg;
}

function drawIcons() {
  for (const [id, name] of [
    ["replay-first", "first"],
    ["replay-back", "back"],
    ["replay-forward", "forward"],
    ["replay-last", "last"],
  ]) {
    const b = $(id);
    if (b) fill(b, icon(name));
  }
  setPlayButton(dom.play, false);
}

function setPlayButton(button, playing) {
  fill(button, icon(playing ? "pause" : "play"), el("span", { class: "sr-only" }, playing ? "Pause" : "Play"));
  button.setAttribute("aria-label", playing ? "Pause" : "Play");
  button.setAttribute("aria-pressed", playing ? "true" : "false");
}

/** What the step did, in words: who acted and the step's first line. */
function stepSummary(step, view) {
  if (step.step === 0) return "The game begins.";
  const who = heroOf(view, step.action?.hero)?.name ?? `Seat ${step.seat}`;
  return `${who}: ${step.action?.type ?? "?"}`;
}

function show(n, step, stepView, replay) {
  const view = { ...stepView, legal_actions: [], me: null };
  const drawn = drawBoard(dom.svg, view, {});
  const boxes = drawn.boxes;
  if (boxes.length) {
    const width = boxes[boxes.length - 1].x + boxes[boxes.length - 1].width;
    const height = Math.max(...boxes.map((b) => b.height));
    dom.svg.setAttribute("viewBox", `-0.15 -0.15 ${width + 0.3} ${height + 0.3}`);
  }
  zoom.settle(); // a level revealed changes the fitted size; the reader keeps their zoom
  dom.svg.setAttribute("aria-label", `The dungeon at step ${n}: ${levelsInPlay(view).length} level(s)`);
  renderTurn(dom.turn, view);
  dom.turn.append(el("p", { class: "replay-action small" }, stepSummary(step, view)));
  renderDice(dom.dice, step.entries, { title: "This step's roll" });
  renderSheets(dom.heroes, view);
  renderFight(ensureFightCard(), view);
  fill(dom.log, entriesUpTo(replay.steps, n, LOG_SHOWN).map(storyItem));
  dom.logScroll.scrollTop = dom.logScroll.scrollHeight;
}

function ensureFightCard() {
  let card = $("monster-card");
  if (!card) {
    card = el("section", { id: "monster-card", class: "panel-card monster-card", "aria-label": "The fight", hidden: true });
    dom.dice.after(card);
  }
  return card;
}

/** "312 actions. The heroes won: ..." */
function summary(replay) {
  const outcome = $("replay")?.dataset.outcome;
  const lastView = replay.views[replay.views.length - 1] ?? {};
  return `${replay.steps.length - 1} actions. ${outcomeText({ ...lastView, outcome: outcome || lastView.outcome })}`;
}

drawIcons();
zoom.wire({ zoomIn: $("zoom-in"), zoomOut: $("zoom-out"), fit: $("zoom-fit") });
startReplay({
  merge: mergeReplayView,
  show,
  summary,
  diceWords: "d10s in the log, the rest shuffles and the voice's choices",
  showPlaying: setPlayButton,
});
