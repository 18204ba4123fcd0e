// Talking to the server: the view GET, action POSTs and the live websocket.

/** The csrftoken cookie (falls back to the form token rendered on the page). */
export function csrfToken() {
  for (const part of document.cookie.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === "csrftoken") return decodeURIComponent(rest.join("="));
  }
  return document.querySelector("input[name=csrfmiddlewaretoken]")?.value ?? "";
}

/** A fresh idempotency key (crypto.randomUUID needs a secure context; fall back to getRandomValues). */
export function newKey() {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * This page's id for its game socket: the socket opens with it (`?socket=`) and every action
 * POST sends it (`X-Socket-Id`), so the server does not send this page over its socket the view
 * the action's answer already brought. The page's other tabs and every other seat still get it.
 */
export const socketId = newKey();

/** The socket URL with this page's socket id in its query. */
export function withSocketId(url) {
  const absolute = new URL(url, location.href);
  absolute.searchParams.set("socket", socketId);
  return absolute.href;
}

/** A readable message from an error body: every refusal of the API is {"detail": "..."}. */
export function detailOf(body, status) {
  const d = body?.detail;
  if (typeof d === "string" && d) return d;
  if (status === 403) return "You may not do that from this seat.";
  return `The server refused the action (${status}).`;
}

async function readJson(res) {
  try {
    return await res.json();
  } catch {
    return null;
  }
}

/** GET the seat view. Returns the view or throws. */
export async function fetchView(url) {
  const res = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" }, cache: "no-store" });
  if (!res.ok) throw new Error(`Could not load the board (${res.status}).`);
  return res.json();
}

/**
 * POST one action. Resolves to {status, body}; status 0 means the network failed.
 */
export async function postAction(url, action, expectedVersion) {
  const payload = { action, expected_version: expectedVersion, idempotency_key: newKey() };
  try {
    const res = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        "X-CSRFToken": csrfToken(),
        "X-Socket-Id": socketId,
      },
      body: JSON.stringify(payload),
    });
    return { status: res.status, body: await readJson(res) };
  } catch (err) {
    return { status: 0, body: { detail: "Could not reach the server. Check your connection and try again." }, error: err };
  }
}

/** The view an accepted action's answer carries ({version, entries, view}); null for a refusal. */
export function viewFromResponse(body) {
  return body?.view ?? null;
}

/** ws_url made absolute with ws:// or wss:// matching the page's protocol. */
export function socketUrl(raw) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  if (!raw) return `${proto}//${location.host}/ws/`;
  if (/^wss?:\/\//.test(raw)) return raw.replace(/^wss?:/, proto);
  if (/^https?:\/\//.test(raw)) return raw.replace(/^https?:/, proto);
  return `${proto}//${location.host}${raw.startsWith("/") ? "" : "/"}${raw}`;
}

/**
 * A websocket that reconnects with backoff. Callbacks: onFrame(obj), onOpen(), onState("live" |
 * "connecting" | "offline").
 */
const HEARTBEAT_MS = 30000;

export class LiveSocket {
  constructor(url, { onFrame, onOpen, onState }) {
    this.url = url;
    this.onFrame = onFrame;
    this.onOpen = onOpen;
    this.onState = onState;
    this.attempt = 0;
    this.timer = null;
    this.stopped = false;
  }

  start() {
    this.stopped = false;
    this.connect();
  }

  connect() {
    clearTimeout(this.timer);
    this.onState("connecting");
    let ws;
    try {
      ws = new WebSocket(withSocketId(this.url));
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.attempt = 0;
      this.onState("live");
      this.onOpen();
      // The heartbeat keeps our presence fresh: no email about a game we are watching.
      clearInterval(this.heartbeat);
      this.heartbeat = setInterval(() => {
        if (this.ws === ws && ws.readyState === WebSocket.OPEN) ws.send('{"type":"ping"}');
      }, HEARTBEAT_MS);
    });
    ws.addEventListener("message", (e) => {
      let frame;
      try {
        frame = JSON.parse(e.data);
      } catch {
        return;
      }
      this.onFrame(frame);
    });
    ws.addEventListener("close", (e) => {
      if (this.ws !== ws) return;
      if (e.code === 4403) {
        // Not a member any more (spectators switched off, the seat given away, logged out):
        // retrying will not help.
        this.stopped = true;
        clearInterval(this.heartbeat);
        this.onState("closed");
        return;
      }
      this.retry();
    });
  }

  retry() {
    if (this.stopped) return;
    this.onState("offline");
    const delay = Math.min(30000, 1000 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
    this.attempt += 1;
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /** Ask the server for the current view over the open socket; false if it is not open. */
  refresh() {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify({ type: "refresh" }));
    return true;
  }

  /** Reconnect now (e.g. when the page becomes visible again). */
  nudge() {
    if (this.stopped) return;
    if (this.ws?.readyState === WebSocket.OPEN || this.ws?.readyState === WebSocket.CONNECTING) return;
    this.attempt = 0;
    this.connect();
  }
}
