// Table talk beside the log: the latest page on load, earlier pages on demand, new messages live
// from the game websocket ({"type": "chat", "message"}) and caught up over HTTP after a reconnect.
// Messages are plain text: every one goes into the page through textContent (el()), never as HTML.

import { el } from "./dom.js";
import { csrfToken, detailOf } from "./net.js";

const KIND_CLASS = { player: "chat-player", narrator: "chat-narrator", parchment: "chat-parchment" };

export class Chat {
  constructor({ url, log, scroller, older, form, text, narrator, count, error, maxLength }) {
    Object.assign(this, { url, log, scroller, older, form, text, narrator, count, error, maxLength });
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

  item(m) {
    const when = new Date(m.created);
    const time = Number.isNaN(when.getTime()) ? "" : when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    return el(
      "li",
      { class: `chat-message ${KIND_CLASS[m.kind] ?? ""}`, dataset: { id: String(m.id) } },
      el("span", { class: "chat-name" }, m.name),
      time ? el("time", { class: "chat-time muted small", datetime: m.created }, time) : "",
      el("p", { class: "chat-text" }, m.text),
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
