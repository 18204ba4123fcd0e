// Legend of Zagor's story: the seat's log entries (the events API, paged back with `before`),
// the voice's announcements marked, each die drawn beside its line. Entries are plain text.

import { el, fill } from "../../table/dom.js";
import { showOrderButton } from "../../table/page.js";
import { d10 } from "./draw.js";

const PAGE = 100;
const NEWEST = 2 ** 31 - 1;

/** One entry as a list item. */
export function storyItem(entry) {
  const voice = entry.type === "voice";
  const dice = [];
  for (const roll of entry.dice ?? []) {
    if (roll.kind !== "d10") continue;
    for (const value of roll.values ?? []) dice.push(d10(value, `${roll.who || "d10"}: ${value}`));
  }
  return el(
    "li",
    { class: `log-entry log-${entry.type}${voice ? " log-voice" : ""}`, dataset: { seq: String(entry.seq), type: entry.type } },
    dice.length ? el("span", { class: "dice" }, dice) : null,
    el("span", { class: "log-text" }, entry.text),
  );
}

export class Story {
  /** `onNew(entries)` hears the entries that arrived after the first load, in order. */
  constructor({ list, scroller, older, order, announcer, eventsUrl, onNew }) {
    Object.assign(this, { list, scroller, older, order, announcer, eventsUrl, onNew });
    this.entries = new Map();
    this.newestFirst = true;
    this.complete = false;
    this.loaded = false;
    this.busy = null;
    order?.addEventListener("click", () => this.toggleOrder());
    older?.addEventListener("click", () => this.loadOlder());
  }

  async get(query) {
    const res = await fetch(`${this.eventsUrl}?${query}`, {
      credentials: "same-origin",
      headers: { Accept: "application/json" },
      cache: "no-store",
    });
    if (!res.ok) throw new Error(`The story could not be loaded (${res.status}).`);
    const page = await res.json();
    return Array.isArray(page) ? page : (page.entries ?? []);
  }

  lastSeq() {
    return this.entries.size ? Math.max(...this.entries.keys()) : 0;
  }

  sorted() {
    return [...this.entries.values()].sort((a, b) => a.seq - b.seq);
  }

  /** Keep `entries`; those new since the first load are handed to `onNew`. */
  add(entries, { quiet = false } = {}) {
    const fresh = [];
    for (const e of entries) {
      if (!e || typeof e.seq !== "number" || this.entries.has(e.seq)) continue;
      this.entries.set(e.seq, e);
      fresh.push(e);
    }
    if (!fresh.length) return [];
    fresh.sort((a, b) => a.seq - b.seq);
    this.render();
    if (this.loaded && !quiet) {
      this.announcer.textContent = fresh.map((e) => e.text).join(" ");
      this.onNew?.(fresh);
    }
    return fresh;
  }

  /** The newest page, once. */
  async start() {
    try {
      const page = await this.get(`before=${NEWEST}&limit=${PAGE}`);
      this.add(page, { quiet: true });
      if (page.length < PAGE || page.some((e) => e.seq === 1)) this.complete = true;
    } catch (err) {
      this.announcer.textContent = err.message;
    }
    this.loaded = true;
    this.render();
  }

  /** Whatever came after the newest entry shown (one request at a time). */
  catchUp() {
    if (!this.loaded) return Promise.resolve();
    if (this.busy) {
      this.again = true;
      return this.busy;
    }
    this.busy = (async () => {
      try {
        do {
          this.again = false;
          let page;
          do {
            page = await this.get(`after=${this.lastSeq()}&limit=${PAGE}`);
            this.add(page);
          } while (page.length >= PAGE);
        } while (this.again);
      } catch (err) {
        this.announcer.textContent = err.message;
      } finally {
        this.busy = null;
      }
    })();
    return this.busy;
  }

  async loadOlder() {
    if (this.complete || !this.entries.size) return;
    const first = Math.min(...this.entries.keys());
    try {
      const page = await this.get(`before=${first}&limit=${PAGE}`);
      this.add(page, { quiet: true });
      if (page.length < PAGE) this.complete = true;
    } catch (err) {
      this.announcer.textContent = err.message;
    }
    this.render();
  }

  toggleOrder() {
    this.newestFirst = !this.newestFirst;
    showOrderButton(this.order, this.newestFirst);
    this.render();
  }

  render() {
    const items = this.sorted().map(storyItem);
    if (this.newestFirst) items.reverse();
    fill(this.list, items);
    if (this.older) {
      this.older.hidden = this.complete;
      if (this.newestFirst) this.list.after(this.older);
      else this.list.before(this.older);
    }
    if (!this.newestFirst) this.scroller.scrollTop = this.scroller.scrollHeight;
  }
}
