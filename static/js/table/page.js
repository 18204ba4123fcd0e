// What every game's table page shares (templates/play/game.html), beside its board: the page's
// json_scripts, the error line, the end-of-turn question, the connection badge, the live socket
// and its catching up, the socket's frames, and the table talk. A game's board module draws the
// seat view and offers its actions; it hands these what only it knows.

import { Chat } from "./chat.js";
import { el, fill } from "./dom.js";
import { detailOf, LiveSocket, postAction, socketUrl, viewFromResponse } from "./net.js";

const $ = (id) => document.getElementById(id);

/** A json_script's value (`seat-view`, `seat-names`), or null. */
export function readJson(id) {
  try {
    const value = JSON.parse($(id)?.textContent ?? "null");
    return typeof value === "string" ? JSON.parse(value) : value;
  } catch {
    return null;
  }
}

/** The page's error line (#play-error): `text` as an error or "info", or nothing. */
export function showError(text, kind = "error") {
  const line = $("play-error");
  if (!line) return;
  line.hidden = !text;
  line.dataset.kind = kind;
  const out = $("play-error-text");
  if (out) out.textContent = text ?? "";
}

/** A modal question (#confirm-dialog) with two answers; resolves true for `yes`. */
export function ask(title, lines, yes) {
  const d = /** @type {HTMLDialogElement} */ ($("confirm-dialog"));
  fill($("confirm-title"), title);
  fill(
    $("confirm-body"),
    lines.map((line) => el("p", {}, line)),
  );
  fill($("confirm-yes"), yes);
  return new Promise((resolve) => {
    const done = () => {
      d.removeEventListener("close", done);
      resolve(d.returnValue === "yes");
    };
    d.returnValue = "";
    d.addEventListener("close", done);
    d.showModal();
    $("confirm-no").focus();
  });
}

/**
 * Post one action and show its answer. Accepted: `accepted(body)`, then the answer's view
 * (`setView(view, {force: true})`, or a GET when it has none). A stale version (409): the view
 * fetched again, and said so. Refused: the refusal shown, `networkError(true)` when the server
 * could not be reached (and the view fetched again), else `networkError(false)`. Resolves to
 * {ok, body}.
 */
export async function playAction({ url, action, version, accepted, setView, refreshView, showMessage, networkError }) {
  const res = await postAction(url, action, version);
  if (res.status >= 200 && res.status < 300) {
    showMessage("");
    accepted?.(res.body);
    const view = viewFromResponse(res.body);
    if (view?.version !== undefined) setView(view, { force: true });
    else await refreshView();
    return { ok: true, body: res.body };
  }
  if (res.status === 409) {
    await refreshView();
    showMessage("The game moved on before your action arrived; the board is up to date now.", "info");
  } else {
    showMessage(detailOf(res.body, res.status), "error");
    networkError(res.status === 0);
    if (res.status === 0) refreshView();
  }
  return { ok: false, body: res.body };
}

const CONN_TEXT = { live: "Live", connecting: "Connecting…", offline: "Offline – retrying", closed: "Closed" };

/** The connection badge (#connection): live, connecting, offline or closed. */
/** The story's order button says what pressing it does ("Show oldest first"), never the order shown. */
export function showOrderButton(button, newestFirst) {
  fill(button, newestFirst ? "Show oldest first" : "Show newest first");
}

export function showConnection(kind) {
  const badge = $("connection");
  if (!badge) return;
  badge.dataset.state = kind;
  fill(badge, el("span", { class: "conn-dot", "aria-hidden": "true" }), CONN_TEXT[kind] ?? kind);
}

/**
 * One frame of the game socket: a chat message to `chat`, a view newer than `version()` to
 * `onView`, a clock change to the clock bar (static/js/clock.js), an error to `onError`.
 */
export function tableFrame(frame, { chat, version, onView, onError }) {
  if (frame?.type === "chat") {
    chat?.receive(frame.message);
  } else if (frame?.type === "view" && frame.view) {
    const next = frame.version ?? frame.view.version;
    if (next > version()) onView({ ...frame.view, version: next });
  } else if (frame?.type === "clock") {
    // The host paused or resumed, an away player's clock moved: the clock bar is drawn again.
    document.dispatchEvent(new CustomEvent("board:clock"));
  } else if (frame?.type === "error") {
    onError(String(frame.error ?? "The server reported an error."));
  }
}

/**
 * Keep the page live over the game socket (`url`, with this page's socket id): no view GET
 * when it opens (the server sends the seat's view on every connect); the view asked for again
 * when the page is shown again; fetched every 20 s while the socket is down and the page is
 * `idle()`. Once the socket is closed for good (4403) nothing is caught up any more.
 * Returns the socket.
 */
export function startLive({ url, onFrame, onOpen, onState, refreshView, idle = () => true }) {
  let closed = false;
  const socket = new LiveSocket(socketUrl(url), {
    onFrame,
    onOpen,
    onState: (kind) => {
      if (kind === "closed") closed = true;
      onState(kind);
    },
  });
  socket.start();
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && !closed) {
      if (!socket.refresh()) refreshView();
      socket.nudge();
    }
  });
  setInterval(() => {
    const down = $("connection")?.dataset.state !== "live";
    if (down && !closed && document.visibilityState === "visible" && idle()) refreshView();
  }, 20000);
  return socket;
}

/** The table talk, when the page has a chat URL (the in-memory test harnesses have none). */
export function startChat() {
  const url = $("play")?.dataset.apiChatUrl;
  if (!url || !$("chat-log")) return null;
  const text = $("chat-text");
  const started = new Chat({
    url,
    form: $("chat-form"), // absent for spectators: they read, they do not post
    text,
    log: $("chat-log"),
    scroller: $("chat-scroll"),
    older: $("chat-older"),
    narrator: $("chat-narrator"),
    count: $("chat-count"),
    error: $("chat-error"),
    maxLength: Number(text?.getAttribute("maxlength")) || 1000,
    timeZone: $("play")?.dataset.timeZone ?? "",
  });
  started.start();
  return started;
}
