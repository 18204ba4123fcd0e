// Legend of Zagor's replay page: a finished game step by step (GET /api/games/{id}/replay), drawn
// with the table's own code from each step's replay view (every tile's face shown), the dice
// checked against the revealed seed (static/js/fairness.js). First / back / forward / last are
// drawn icons; ArrowLeft / ArrowRight step; `?step=N` opens step N.

import { el, fill, svgEl } from "../../table/dom.js";
import { verifyReplay } from "../../fairness.js";
import { drawBoard } from "./draw.js";
import { heroOf, levelsInPlay, mergeReplayView, outcomeText } from "./model.js";
import { renderDice, renderFight, renderSheets, renderTurn } from "./panels.js";
import { storyItem } from "./story.js";

const root = document.getElementById("replay");
const $ = (id) => document.getElementById(id);
const dom = {
  svg: $("board"),
  turn: $("turn-panel"),
  dice: $("dice-tray"),
  heroes: $("heroes-panel"),
  log: $("game-log"),
  logScroll: $("log-scroll"),
  status: $("replay-status"),
  slider: $("replay-slider"),
  stepOut: $("replay-step"),
  round: $("replay-round"),
  speed: $("replay-speed"),
  play: $("replay-play"),
  verify: $("verify-dice"),
  result: $("verify-result"),
};
const LOG_SHOWN = 300;
const replay = { fairness: null, steps: [], views: [], current: 0, timer: null };

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
  setPlayButton(false);
}

function setPlayButton(playing) {
  fill(dom.play, icon(playing ? "pause" : "play"), el("span", { class: "sr-only" }, playing ? "Pause" : "Play"));
  dom.play.setAttribute("aria-label", playing ? "Pause" : "Play");
  dom.play.setAttribute("aria-pressed", playing ? "true" : "false");
}

async function load() {
  const url = root.dataset.apiReplayUrl;
  let total = null;
  while (total === null || replay.steps.length < total) {
    const response = await fetch(`${url}?start=${replay.steps.length}&count=200`, { headers: { Accept: "application/json" } });
    if (!response.ok) throw new Error(`The replay could not be loaded (${response.status}).`);
    const page = await response.json();
    total = page.total;
    replay.fairness = page.fairness;
    if (!page.steps.length) break;
    for (const step of page.steps) {
      replay.views.push(mergeReplayView(replay.views[replay.views.length - 1], step));
      replay.steps.push(step);
    }
    dom.status.textContent = `Loading… ${replay.steps.length} of ${total} steps`;
  }
}

function entriesUpTo(n) {
  const out = [];
  for (let i = n; i >= 0 && out.length < LOG_SHOWN; i--) out.unshift(...replay.steps[i].entries);
  return out.slice(-LOG_SHOWN);
}

/** What the step did, in words: who acted and the step's first line. */
function stepSummary(step, view) {
  if (step.step === 0) return "The game begins.";
  const who = heroOf(view, step.action?.hero)?.name ?? `Seat ${step.seat}`;
  return `${who}: ${step.action?.type ?? "?"}`;
}

function show(n) {
  const last = replay.steps.length - 1;
  n = Math.max(0, Math.min(last, n));
  replay.current = n;
  const step = replay.steps[n];
  const view = { ...replay.views[n], legal_actions: [], me: null };
  const drawn = drawBoard(dom.svg, view, {});
  const boxes = drawn.boxes;
  if (boxes.length) {
    const width = boxes[boxes.length - 1].x + boxes[boxes.length - 1].width;
    const height = Math.max(...boxes.map((b) => b.height));
    dom.svg.setAttribute("viewBox", `-0.15 -0.15 ${width + 0.3} ${height + 0.3}`);
  }
  dom.svg.setAttribute("aria-label", `The dungeon at step ${n}: ${levelsInPlay(view).length} level(s)`);
  renderTurn(dom.turn, view);
  dom.turn.append(el("p", { class: "replay-action small" }, stepSummary(step, view)));
  renderDice(dom.dice, step.entries);
  renderSheets(dom.heroes, view);
  renderFight(ensureFightCard(), view);
  fill(dom.log, entriesUpTo(n).map(storyItem));
  dom.logScroll.scrollTop = dom.logScroll.scrollHeight;
  dom.slider.value = String(n);
  dom.stepOut.textContent = `${n} / ${last}`;
  dom.round.value = String(step.round);
  root.dataset.step = String(n);
  const params = new URLSearchParams(window.location.search);
  params.set("step", String(n));
  history.replaceState(null, "", `?${params}`);
  if (n === last) stop();
}

function ensureFightCard() {
  let card = $("monster-card");
  if (!card) {
    card = el("section", { id: "monster-card", class: "panel-card monster-card", "aria-label": "The fight", hidden: true });
    dom.dice.after(card);
  }
  return card;
}

function stop() {
  clearTimeout(replay.timer);
  replay.timer = null;
  setPlayButton(false);
}

function play() {
  if (replay.timer) return stop();
  if (replay.current === replay.steps.length - 1) show(0);
  setPlayButton(true);
  const next = () => {
    replay.timer = setTimeout(() => {
      show(replay.current + 1);
      if (replay.timer) next();
    }, Number(dom.speed.value));
  };
  next();
}

function fillRounds() {
  const firstOf = new Map();
  replay.steps.forEach((s, i) => {
    if (!firstOf.has(s.round)) firstOf.set(s.round, i);
  });
  fill(
    dom.round,
    [...firstOf].map(([round, i]) => el("option", { value: String(round), dataset: { step: String(i) } }, `Round ${round}`)),
  );
  dom.round.addEventListener("change", () => show(Number(dom.round.selectedOptions[0].dataset.step)));
}

async function verify() {
  dom.verify.disabled = true;
  dom.result.textContent = "Checking every die against the seed…";
  const result = await verifyReplay(replay.fairness, replay.steps);
  root.dataset.verified = result.ok ? "ok" : "failed";
  dom.result.className = `small ${result.ok ? "verify-ok" : "error"}`;
  dom.result.textContent = result.ok
    ? `✓ Fair: the seed matches its commitment, and all ${result.draws} draws (${result.dice} d10s in the log, the rest shuffles and the voice's choices) are the seed's.`
    : `✗ ${result.problem}`;
  if (!result.ok && result.step !== null) show(result.step);
  dom.verify.disabled = false;
}

function wire() {
  const go = (to) => () => {
    stop();
    show(to());
  };
  $("replay-first").addEventListener(
    "click",
    go(() => 0),
  );
  $("replay-back").addEventListener(
    "click",
    go(() => replay.current - 1),
  );
  $("replay-forward").addEventListener(
    "click",
    go(() => replay.current + 1),
  );
  $("replay-last").addEventListener(
    "click",
    go(() => replay.steps.length - 1),
  );
  dom.play.addEventListener("click", play);
  dom.speed.addEventListener("change", () => {
    if (replay.timer) {
      stop();
      play();
    }
  });
  dom.slider.addEventListener("input", () => {
    stop();
    show(Number(dom.slider.value));
  });
  dom.verify.addEventListener("click", verify);
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || !replay.steps.length) return;
    if (e.target.closest?.("input, textarea, select, [contenteditable]")) return;
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      e.preventDefault();
      stop();
      show(replay.current + (e.key === "ArrowRight" ? 1 : -1));
    }
  });
}

function showFairness() {
  const f = replay.fairness ?? {};
  $("seed-commitment").textContent = f.commitment || "none (this game was launched before the dice were sealed)";
  $("seed-revealed").textContent = f.seed ?? "";
  $("salt-revealed").textContent = f.salt ?? "";
  dom.verify.disabled = !(f.revealed && f.commitment);
}

async function main() {
  drawIcons();
  wire();
  // HeroQuest's monster list has no place here.
  const monsters = $("monsters-panel");
  if (monsters) monsters.hidden = true;
  try {
    await load();
  } catch (err) {
    dom.status.textContent = err.message;
    return;
  }
  dom.slider.max = String(replay.steps.length - 1);
  fillRounds();
  showFairness();
  const wanted = Number(new URLSearchParams(window.location.search).get("step") ?? 0);
  show(Number.isFinite(wanted) ? wanted : 0);
  const lastView = replay.views[replay.views.length - 1] ?? {};
  dom.status.textContent = `${replay.steps.length - 1} actions. ${outcomeText({ ...lastView, outcome: root.dataset.outcome || lastView.outcome })}`;
  root.dataset.loaded = "true";
  if (!dom.verify.disabled) await verify();
}

main();
