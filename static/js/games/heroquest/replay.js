// The replay page: a finished quest step by step, drawn with the board's own code from Zargon's
// view of each step (the whole map), with the dice checked against the revealed seed.
// ES module, no build step. Reads the data-* URL on #replay; `?step=N` opens step N.

import { el, fill } from "../../table/dom.js";
import { drawBoard } from "./map.js";
import { boardTargets, indexView } from "./model.js";
import { renderDiceTray, renderHeroes, renderMonsters, renderTurn } from "./panel.js";
import { groupEntries, storyItem } from "./story.js";
import { verifyReplay } from "../../fairness.js";

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
  status: $("replay-status"),
  slider: $("replay-slider"),
  stepOut: $("replay-step"),
  round: $("replay-round"),
  speed: $("replay-speed"),
  play: $("replay-play"),
  verify: $("verify-dice"),
  result: $("verify-result"),
};
const LOG_SHOWN = 300; // the newest entries up to the step (a long quest's whole tale is slow to redraw)
const NO_UI = { pending: null, highlight: null, monster: null, spell: null, throw: null };

const replay = { fairness: null, steps: [], views: [], current: 0, timer: null, logged: null };

/** Every page of the replay; each step's whole view rebuilt from the page's changes. */
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
      const before = replay.views[replay.views.length - 1];
      const changes = step.view_changes;
      const view = step.view ?? { ...before, ...changes, map: { ...before.map, ...(changes.map ?? {}) } };
      replay.views.push(view);
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

function show(n) {
  const last = replay.steps.length - 1;
  n = Math.max(0, Math.min(last, n));
  replay.current = n;
  const step = replay.steps[n];
  const entries = entriesUpTo(n);
  const view = { ...replay.views[n], log: entries, legal_actions: [] };
  const index = indexView(view);
  drawBoard(dom.svg, view, index, boardTargets(view, index, NO_UI), NO_UI);
  renderTurn(dom.turn, view, index, {}, { step: { n, action: step.action } });
  renderDiceTray(dom.dice, { ...view, log: step.entries }, index);
  renderHeroes(dom.heroes, view);
  renderMonsters(dom.monsters, view);
  renderLog(n, entries, index);
  dom.slider.value = String(n);
  dom.stepOut.textContent = `${n} / ${last}`;
  dom.round.value = String(step.round);
  root.dataset.step = String(n);
  const params = new URLSearchParams(window.location.search);
  params.set("step", String(n));
  history.replaceState(null, "", `?${params}`);
  if (n === last) stop();
}

/** The tale up to step n: redrawn whole, except while playing on, when the step's lines are added. */
function renderLog(n, entries, index) {
  const item = (group) => storyItem(group, index, { rulesUrl: root.dataset.rulesUrl });
  if (replay.timer && replay.logged === n - 1) {
    dom.log.append(...groupEntries(replay.steps[n].entries).map(item));
    while (dom.log.children.length > LOG_SHOWN) dom.log.firstElementChild.remove();
  } else {
    fill(dom.log, groupEntries(entries).map(item));
  }
  replay.logged = n;
  dom.logScroll.scrollTop = dom.logScroll.scrollHeight;
}

function stop() {
  clearTimeout(replay.timer);
  replay.timer = null;
  dom.play.textContent = "Play";
  dom.play.setAttribute("aria-pressed", "false");
}

function play() {
  if (replay.timer) return stop();
  if (replay.current === replay.steps.length - 1) show(0);
  dom.play.textContent = "Pause";
  dom.play.setAttribute("aria-pressed", "true");
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
  root.dataset.checking = "true";
  dom.result.textContent = "Checking every die against the seed…";
  const summary = dom.status.textContent;
  dom.status.textContent = `${summary} Checking the dice…`;
  dom.status.classList.add("checking");
  // Let the page show that the check runs before the hashing and the walk through the seed.
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 30)));
  const result = await verifyReplay(replay.fairness, replay.steps);
  dom.status.classList.remove("checking");
  delete root.dataset.checking;
  dom.status.textContent = `${summary} ${result.ok ? "The dice are fair." : "The dice check failed."}`;
  root.dataset.verified = result.ok ? "ok" : "failed";
  dom.result.className = `small ${result.ok ? "verify-ok" : "error"}`;
  dom.result.textContent = result.ok
    ? `✓ Fair: the seed matches its commitment, and all ${result.draws} draws (${result.dice} dice in the log, the rest shuffles) are the seed's.`
    : `✗ ${result.problem}`;
  if (!result.ok && result.step !== null) show(result.step);
  dom.verify.disabled = false;
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

/** ArrowRight / ArrowLeft step, Home / End jump, except in a control that uses the keys itself. */
function onKey(e) {
  if (e.altKey || e.ctrlKey || e.metaKey || !replay.steps.length) return;
  if (e.target.closest?.("input, select, textarea, [contenteditable]")) return;
  const moves = { ArrowRight: replay.current + 1, ArrowLeft: replay.current - 1, Home: 0, End: replay.steps.length - 1 };
  if (!(e.key in moves)) return;
  e.preventDefault();
  stop();
  show(moves[e.key]);
}

function wire() {
  document.addEventListener("keydown", onKey);
  $("replay-first").addEventListener("click", () => {
    stop();
    show(0);
  });
  $("replay-back").addEventListener("click", () => {
    stop();
    show(replay.current - 1);
  });
  $("replay-forward").addEventListener("click", () => {
    stop();
    show(replay.current + 1);
  });
  $("replay-last").addEventListener("click", () => {
    stop();
    show(replay.steps.length - 1);
  });
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
}

function showFairness() {
  const f = replay.fairness ?? {};
  $("seed-commitment").textContent = f.commitment || "none (this game was launched before the dice were sealed)";
  $("seed-revealed").textContent = f.seed ?? "";
  $("salt-revealed").textContent = f.salt ?? "";
  dom.verify.disabled = !(f.revealed && f.commitment);
}

async function main() {
  wire();
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
  dom.status.textContent = summaryText(replay.steps.length - 1, replay.steps[replay.steps.length - 1]?.round, root.dataset.outcome);
  root.dataset.loaded = "true";
  if (!dom.verify.disabled) await verify();
}

main();
