// Live pages (the lobby, a room): an element [data-live-socket="/ws/..."] names a websocket that
// only ever says {"type": "changed"}. The page then fetches itself again and swaps in its
// [data-live] regions (matched by id), so it shows exactly what a reload would: the socket
// carries nothing the page would not. If the new page has a [data-live-go] link (a seated
// player's room was launched), the browser follows it; if the page is no longer the user's to
// see, the regions show [data-live-gone]'s text. Without the socket the page still works on
// reload.

const root = document.querySelector("[data-live-socket]");
const DEBOUNCE_MS = 150;
let retry = 1000;
let timer = null;
let running = false;
let again = false;

async function refresh() {
  if (running) {
    again = true;
    return;
  }
  running = true;
  try {
    const response = await fetch(location.href, {
      credentials: "same-origin",
      headers: { "X-Live-Refresh": "1" },
    });
    if (!response.ok) {
      // No longer ours to see (a room launched without us): say so instead of stale buttons.
      if (response.status === 404 && root.dataset.liveGone) showGone(root.dataset.liveGone);
      return;
    }
    const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
    const go = fresh.querySelector("[data-live-go]");
    if (go) {
      location.assign(go.getAttribute("href"));
      return;
    }
    for (const region of document.querySelectorAll("[data-live]")) {
      const replacement = fresh.getElementById(region.id);
      if (replacement) region.replaceWith(document.importNode(replacement, true));
    }
    document.dispatchEvent(new CustomEvent("live:refreshed"));
  } catch {
    // offline for a moment: the next poke or reconnect fetches again
  } finally {
    running = false;
    if (again) {
      again = false;
      schedule();
    }
  }
}

function showGone(text) {
  for (const region of document.querySelectorAll("[data-live]")) {
    const note = document.createElement("p");
    note.className = "muted";
    note.id = "live-gone";
    note.textContent = text;
    region.replaceChildren(note);
  }
}

function schedule() {
  clearTimeout(timer);
  timer = setTimeout(refresh, DEBOUNCE_MS);
}

function connect(first) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}${root.dataset.liveSocket}`);
  socket.addEventListener("open", () => {
    retry = 1000;
    root.dataset.liveState = "live";
    if (!first) schedule(); // pokes sent while we were away are lost: catch up once
  });
  socket.addEventListener("message", (event) => {
    let frame;
    try {
      frame = JSON.parse(event.data);
    } catch {
      return;
    }
    if (frame && frame.type === "changed") schedule();
  });
  socket.addEventListener("close", (event) => {
    root.dataset.liveState = "offline";
    if (event.code === 4403) return; // not ours to listen to
    setTimeout(() => connect(false), retry);
    retry = Math.min(retry * 2, 60000);
  });
}

if (root) connect(true);
