// Table talk beside the log: the latest page on load, earlier pages on demand, new messages live
// from the game websocket ({"type": "chat", "message"}) and caught up over HTTP after a reconnect.
// Messages are plain text: every one goes into the page through textContent (el()), never as HTML.

import { el } from "./dom.js";
import { csrfToken, detailOf } from "./net.js";

const KIND_CLASS = { player: "chat-player", narrator: "chat-narrator", parchment: "chat-parchment" };

/**
 * The paragraphs of a narrated text: a blank line starts a new one, a single line break inside a
 * paragraph (a quest file's wrapped lines) is only a space.
 */
export function paragraphs(text) {
  return String(text ?? "")
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s*\n\s*/g, " ").trim())
    .filter(Boolean);
}

/** "14:05" in the reader's own time zone (their profile's), else the browser's. */
export function clockTime(date, timeZone = "") {
  const options = { hour: "2-digit", minute: "2-digit" };
  try {
    return date.toLocaleTimeString([], timeZone ? { ...options, timeZone } : options);
  } catch {
    return date.toLocaleTimeString([], options); // an unknown zone name: the browser's
  }
}

export class Chat {
  constructor({ url, log, scroller, older, form, text, narrator, count, error, maxLength, timeZone = "" }) {
    Object.assign(this, { url, log, scroller, older, form, text, narrator, count, error, maxLength, timeZone });
    this.ids = new Set();
    this.firstId = null;
    this.lastId = 0;
  }

  start() {
    // A spectator's page has no form: the table talk is read-only for them.
    if (this.form && this.text) {
      this.form.addEventListener("submit", (e) => {
        e.preventDefault();
        this.send();
      });
      this.text.addEventListener("keydown", (e) => {
        if (e.key === "Enter" && !e.shiftKey) {
          e.preventDefault();
          this.send();
        }
      });
      this.text.addEventListener("input", () => this.showCount());
    }
    this.older.addEventListener("click", () => this.loadOlder());
    return this.loadLatest();
  }

  async get(params) {
    const query = new URLSearchParams(params).toString();
    const res = await fetch(`${this.url}${query ? `?${query}` : ""}`, {
      credentials: "same-origin",
      headers: { Accept: "application/json" },
      cache: "no-store",
    });
    if (!res.ok) throw new Error(`chat ${res.status}`);
    return res.json();
  }

  async loadLatest() {
    try {
      const page = await this.get({});
      this.add(page.messages);
      this.older.hidden = !page.more;
      this.showLastFromItsStart();
    } catch {
      this.showError("Could not load the table talk.");
    }
  }

  async loadOlder() {
    if (this.firstId === null) return;
    try {
      const page = await this.get({ before: this.firstId });
      const keep = this.scroller.scrollHeight - this.scroller.scrollTop;
      this.add(page.messages, { prepend: true });
      this.scroller.scrollTop = this.scroller.scrollHeight - keep;
      this.older.hidden = !page.more;
    } catch {
      this.showError("Could not load earlier messages.");
    }
  }

  /** After a (re)connect: whatever was said while the socket was down. */
  async catchUp() {
    if (!this.lastId) return this.loadLatest();
    try {
      let page;
      do {
        page = await this.get({ after: this.lastId });
        this.add(page.messages);
      } while (page.more && page.messages.length);
    } catch {
      /* the next reconnect tries again */
    }
  }

  /** A message pushed by the websocket. */
  receive(message) {
    if (message && typeof message.id === "number") this.add([message]);
  }

  add(messages, { prepend = false } = {}) {
    const fresh = messages.filter((m) => !this.ids.has(m.id));
    if (!fresh.length) return;
    const atBottom = this.scroller.scrollHeight - this.scroller.scrollTop - this.scroller.clientHeight < 40;
    const items = fresh.map((m) => this.item(m));
    if (prepend) this.log.prepend(...items);
    else this.log.append(...items);
    for (const m of fresh) {
      this.ids.add(m.id);
      this.firstId = this.firstId === null ? m.id : Math.min(this.firstId, m.id);
      this.lastId = Math.max(this.lastId, m.id);
    }
    if (!prepend && atBottom) this.scroller.scrollTop = this.scroller.scrollHeight;
  }

  /** A long last message (the quest's parchment, say) is read from its first line, not its end. */
  showLastFromItsStart() {
    const last = this.log.lastElementChild;
    if (!last) return;
    const top = last.getBoundingClientRect().top - this.scroller.getBoundingClientRect().top + this.scroller.scrollTop;
    if (last.offsetHeight > this.scroller.clientHeight) this.scroller.scrollTop = top;
  }

  item(m) {
    const when = new Date(m.created);
    const time = Number.isNaN(when.getTime()) ? "" : clockTime(when, this.timeZone);
    // The parchment and the narrator tell a story: its paragraphs flow; players' line breaks stay.
    const told = m.kind === "parchment" || m.kind === "narrator";
    const text = told
      ? paragraphs(m.text).map((p) => el("p", { class: "chat-text chat-told" }, p))
      : el("p", { class: "chat-text" }, m.text);
    return el(
      "li",
      { class: `chat-message ${KIND_CLASS[m.kind] ?? ""}`, dataset: { id: String(m.id) } },
      el("span", { class: "chat-name" }, m.name),
      time ? el("time", { class: "chat-time muted small", datetime: m.created }, time) : "",
      text,
    );
  }

  showCount() {
    const n = this.text.value.length;
    this.count.textContent = n > this.maxLength * 0.8 ? `${n} / ${this.maxLength}` : "";
  }

  showError(message) {
    this.error.textContent = message;
    this.error.hidden = !message;
  }

  async send() {
    const text = this.text.value.trim();
    if (!text || this.sending) return;
    this.sending = true;
    this.showError("");
    try {
      const res = await fetch(this.url, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrfToken() },
        body: JSON.stringify({ text, as_narrator: Boolean(this.narrator?.checked) }),
      });
      let body = null;
      try {
        body = await res.json();
      } catch {
        body = null;
      }
      if (res.status === 201) {
        this.text.value = "";
        this.showCount();
        this.add([body]);
        this.scroller.scrollTop = this.scroller.scrollHeight;
      } else {
        this.showError(detailOf(body, res.status));
      }
    } catch {
      this.showError("Could not reach the server. Your message was not sent.");
    } finally {
      this.sending = false;
    }
  }
}
