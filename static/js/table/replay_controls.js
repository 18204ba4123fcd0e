// The replay page's controls, shared by every game (templates/play/replay.html): the steps read
// page by page from the replay API, first / back / play / forward / last, the slider, the round
// list, the speed, the keys (ArrowLeft / ArrowRight step, Home / End jump), `?step=N`, and the
// fair-dice check against the revealed seed (static/js/fairness.js). What a step looks like is
// the game's: its replay module hands `startReplay` the drawing and the words.

import { verifyReplay } from "../fairness.js";
import { el, fill } from "./dom.js";

const $ = (id) => document.getElementById(id);

/** The newest entries of the log up to step n (at most `shown`: a long game's whole tale is slow to redraw). */
export function entriesUpTo(steps, n, shown) {
  const out = [];
  for (let i = n; i >= 0 && out.length < shown; i--) out.unshift(...steps[i].entries);
  return out.slice(-shown);
}

/** The Play button as text ("Play" / "Pause"); a game may draw it otherwise (`showPlaying`). */
function playText(button, playing) {
  button.textContent = playing ? "Pause" : "Play";
  button.setAttribute("aria-pressed", playing ? "true" : "false");
}

/**
 * Run the replay page of `#replay`.
 *
 * game.merge(before, step): the step's whole view, from the view before it and the step.
 * game.show(n, step, view, replay): draw step n (the board, the panels, the log).
 * game.summary(replay): the status line once every step is loaded.
 * game.diceWords: what the draws are besides dice, for the check's verdict.
 * game.showPlaying(button, playing): draw the Play button (default: its text).
 * game.statusWhileChecking: the status line says that the dice are being checked.
 * Returns the replay's state: {fairness, steps, views, current, timer}.
 */
export function startReplay(game) {
  const root = $("replay");
  const dom = {
    status: $("replay-status"),
    slider: $("replay-slider"),
    stepOut: $("replay-step"),
    round: $("replay-round"),
    speed: $("replay-speed"),
    play: $("replay-play"),
    verify: $("verify-dice"),
    result: $("verify-result"),
  };
  const showPlaying = game.showPlaying ?? playText;
  const replay = { fairness: null, steps: [], views: [], current: 0, timer: null };

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
        replay.views.push(game.merge(replay.views[replay.views.length - 1], step));
        replay.steps.push(step);
      }
      dom.status.textContent = `Loading… ${replay.steps.length} of ${total} steps`;
    }
  }

  function show(n) {
    const last = replay.steps.length - 1;
    n = Math.max(0, Math.min(last, n));
    replay.current = n;
    const step = replay.steps[n];
    game.show(n, step, replay.views[n], replay);
    dom.slider.value = String(n);
    dom.stepOut.textContent = `${n} / ${last}`;
    dom.round.value = String(step.round);
    root.dataset.step = String(n);
    const params = new URLSearchParams(window.location.search);
    params.set("step", String(n));
    history.replaceState(null, "", `?${params}`);
    if (n === last) stop();
  }

  function stop() {
    clearTimeout(replay.timer);
    replay.timer = null;
    showPlaying(dom.play, false);
  }

  function play() {
    if (replay.timer) return stop();
    if (replay.current === replay.steps.length - 1) show(0);
    showPlaying(dom.play, true);
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
    const summary = dom.status.textContent;
    if (game.statusWhileChecking) {
      root.dataset.checking = "true";
      dom.status.textContent = `${summary} Checking the dice…`;
      dom.status.classList.add("checking");
      // Let the page show that the check runs before the hashing and the walk through the seed.
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 30)));
    }
    const result = await verifyReplay(replay.fairness, replay.steps);
    if (game.statusWhileChecking) {
      dom.status.classList.remove("checking");
      delete root.dataset.checking;
      dom.status.textContent = `${summary} ${result.ok ? "The dice are fair." : "The dice check failed."}`;
    }
    root.dataset.verified = result.ok ? "ok" : "failed";
    dom.result.className = `small ${result.ok ? "verify-ok" : "error"}`;
    dom.result.textContent = result.ok
      ? `✓ Fair: the seed matches its commitment, and all ${result.draws} draws (${result.dice} ${game.diceWords}) are the seed's.`
      : `✗ ${result.problem}`;
    if (!result.ok && result.step !== null) show(result.step);
    dom.verify.disabled = false;
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
    const buttons = {
      "replay-first": () => 0,
      "replay-back": () => replay.current - 1,
      "replay-forward": () => replay.current + 1,
      "replay-last": () => replay.steps.length - 1,
    };
    for (const [id, to] of Object.entries(buttons)) {
      $(id).addEventListener("click", () => {
        stop();
        show(to());
      });
    }
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
    dom.status.textContent = game.summary(replay);
    root.dataset.loaded = "true";
    if (!dom.verify.disabled) await verify();
  }

  main();
  return replay;
}
