// The game page's turn clock (#clock-bar: deadline, pause, away) is drawn by the server. When the
// board shows another turn (round, phase, hero), or the game socket says the clock changed (the
// host paused or resumed, an away player's time moved), the page is fetched again and its clock
// swapped in: every open page follows the clock without a reload.
let shown = null; // the turn whose clock is on screen
let wanted = null; // the turn the board shows
let stale = false; // the clock changed within the same turn
let running = false;

async function refreshClock() {
  if (running) return;
  running = true;
  try {
    while (wanted !== shown || stale) {
      const turn = wanted;
      stale = false;
      const response = await fetch(location.href, { credentials: "same-origin", cache: "no-store" });
      if (!response.ok) return;
      const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
      const current = document.getElementById("clock-bar");
      const replacement = fresh.getElementById("clock-bar");
      if (current && replacement) current.replaceWith(document.importNode(replacement, true));
      else if (current) current.remove(); // the quest is over: no clock any more
      shown = turn;
    }
  } catch {
    // offline for a moment: the next view fetches again
  } finally {
    running = false;
  }
}

document.addEventListener("board:view", (event) => {
  wanted = event.detail?.turn ?? null;
  if (shown === null)
    shown = wanted; // the page came with this turn's clock
  else refreshClock();
});

document.addEventListener("board:clock", () => {
  stale = true;
  refreshClock();
});
