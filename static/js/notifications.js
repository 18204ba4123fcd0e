// Live notifications: one websocket per page (/ws/notifications/). A frame
// {"type": "notification", "title", "body", "url", "read"} bumps the header badge and shows a toast.
// A notice that arrived read (its game is open: the server marked it) leaves the badge alone, and
// the page of that game shows no toast at all: the turn card says it already. On the game page
// other notices go into the panel (#play-notices), in the flow, never over the turn card or End
// turn. The page still works without it: /notifications/ lists everything.

const badge = document.getElementById("notif-count");
const toasts = document.getElementById("play-notices") ?? document.getElementById("toasts");
const TOAST_MS = 10000;
let retry = 1000;

function bump() {
  if (!badge) return;
  badge.textContent = String((parseInt(badge.textContent, 10) || 0) + 1);
  badge.hidden = false;
}

/** Is `url` the page we are on (a notice about the game on screen)? */
function here(url) {
  try {
    return Boolean(url) && new URL(url, location.href).pathname === location.pathname;
  } catch {
    return false;
  }
}

function toast({ title, body, url }) {
  if (!toasts) return;
  const box = document.createElement("div");
  box.className = "toast";
  box.setAttribute("role", "status");
  const head = document.createElement(url ? "a" : "strong");
  head.textContent = title || "Notification";
  if (url) head.href = url;
  box.append(head);
  if (body) {
    const p = document.createElement("p");
    p.textContent = body;
    box.append(p);
  }
  toasts.append(box);
  setTimeout(() => box.remove(), TOAST_MS);
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/notifications/`);
  socket.addEventListener("open", () => {
    retry = 1000;
  });
  socket.addEventListener("message", (event) => {
    let frame;
    try {
      frame = JSON.parse(event.data);
    } catch {
      return;
    }
    if (frame && frame.type === "notification") {
      if (!frame.read) bump();
      if (!(frame.read && here(frame.url))) toast(frame);
    }
  });
  socket.addEventListener("close", (event) => {
    if (event.code === 4403) return; // logged out: nothing to listen for
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 60000);
  });
}

if (badge) connect();
