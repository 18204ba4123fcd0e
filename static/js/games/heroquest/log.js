// The story panel: the whole log of the quest, paged back through the events API, newest or
// oldest first, with "since your last turn" marked and summarised, and entries that light up
// their squares on the board when clicked.

import { el, fill } from "../../table/dom.js";
import { showOrderButton } from "../../table/page.js";
import { awayEntries, awaySince, awaySummary, groupEntries, storyItem, storyText } from "./story.js";

const PAGE = 50;

export class StoryLog {
  constructor({ list, scroller, older, order, away, announcer, eventsUrl, rulesUrl, onHighlight }) {
    Object.assign(this, { list, scroller, older, order, away, announcer, eventsUrl, rulesUrl, onHighlight });
    this.entries = new Map();
    this.newestFirst = true;
    this.complete = false;
    this.loading = false;
    this.since = undefined; // seq where "while you were away" starts (null: none)
    this.lastSeq = null;
    this.view = null;
    this.index = null;
    order.addEventListener("click", () => this.toggleOrder());
    older.addEventListener("click", () => this.loadOlder());
    this.pressed = null; // seq of the entry whose squares are lit on the board
    list.addEventListener("click", (e) => {
      const button = e.target.closest?.(".log-show");
      if (!button) return;
      const seq = button.closest("li")?.dataset.seq ?? null;
      this.pressed = this.pressed === seq ? null : seq;
      this.markPressed();
      this.onHighlight(this.pressed ? JSON.parse(button.dataset.squares ?? "[]") : null);
    });
  }

  markPressed() {
    for (const b of this.list.querySelectorAll(".log-show")) {
      b.setAttribute("aria-pressed", b.closest("li")?.dataset.seq === this.pressed ? "true" : "false");
    }
  }

  /** Forget the lit entry (the board's highlight was cleared). */
  release() {
    this.pressed = null;
    this.markPressed();
  }

  /** Merge the view's newest entries; announce only what is new. Redraws only on change. */
  update(view, index) {
    const changed = this.view?.version !== view.version || this.view?.role !== view.role;
    this.view = view;
    this.index = index;
    if (!changed && this.rendered) return;
    const before = this.lastSeq;
    const fresh = [];
    for (const e of view.log ?? []) {
      if (!this.entries.has(e.seq)) {
        this.entries.set(e.seq, e);
        if (before !== null && e.seq > before) fresh.push(e);
      }
    }
    this.noteStart();
    this.lastSeq = Math.max(before ?? 0, ...[...this.entries.keys()]);
    if (this.since === undefined) this.findAway();
    this.render();
    if (fresh.length)
      this.announcer.textContent = groupEntries(fresh)
        .map((g) => storyText(g, index))
        .join(" ");
  }

  sorted() {
    return [...this.entries.values()].sort((a, b) => a.seq - b.seq);
  }

  oldestSeq() {
    return this.entries.size ? Math.min(...this.entries.keys()) : (this.lastSeq ?? 0) + 1;
  }

  noteStart() {
    if (this.entries.has(1) || [...this.entries.values()].some((e) => e.type === "quest_start")) this.complete = true;
  }

  async fetchPage(query) {
    const res = await fetch(`${this.eventsUrl}?${query}`, {
      credentials: "same-origin",
      headers: { Accept: "application/json" },
      cache: "no-store",
    });
    if (!res.ok) throw new Error(`The story could not be loaded (${res.status}).`);
    const page = await res.json();
    return Array.isArray(page) ? page : (page.entries ?? []);
  }

  keep(entries, end) {
    let added = 0;
    for (const e of entries) {
      if (e.seq < end && !this.entries.has(e.seq)) {
        this.entries.set(e.seq, e);
        added += 1;
      }
    }
    return added;
  }

  /**
   * Fetch the page of entries just before the oldest one shown (the events API's keyset page
   * `?before=`); a server that only pages forward (`?after=`) is read in windows instead.
   * Resolves to how many entries came.
   */
  async loadOlder() {
    if (this.loading || this.complete || !this.eventsUrl) return 0;
    this.loading = true;
    this.older.disabled = true;
    let added = 0;
    try {
      let end = this.oldestSeq();
      const page = end > 1 ? await this.fetchPage(`before=${end}&limit=${PAGE}`) : [];
      if (page.every((e) => e.seq < end)) {
        added = this.keep(page, end);
        if (page.length < PAGE) this.complete = true;
      } else {
        // `before` was not understood: read windows of seq numbers going back.
        while (!added && end > 1) {
          const after = Math.max(0, end - PAGE - 1);
          added = this.keep(await this.fetchPage(`after=${after}&limit=${PAGE}`), end);
          if (after === 0) this.complete = true;
          end = after + 1;
        }
      }
      if (end <= 1) this.complete = true;
      this.noteStart();
    } catch (err) {
      this.announcer.textContent = err.message;
    } finally {
      this.loading = false;
      this.older.disabled = false;
    }
    if (this.since === null || this.since === undefined) this.findAway();
    this.render();
    return added;
  }

  /** Find where this seat's absence began; page back a little if its last turn is not loaded. */
  findAway() {
    this.since = awaySince(this.sorted(), this.view);
    if (this.since === null && !this.complete && !this.searchedBack) {
      this.searchedBack = true;
      (async () => {
        for (let i = 0; i < 4 && this.since === null && !this.complete; i++) {
          await this.loadOlder();
          this.since = awaySince(this.sorted(), this.view);
        }
        this.render();
      })();
    }
  }

  toggleOrder() {
    this.newestFirst = !this.newestFirst;
    showOrderButton(this.order, this.newestFirst);
    this.render();
    this.scroller.scrollTop = 0;
  }

  render() {
    if (!this.index) return;
    const entries = this.sorted();
    const away = awayEntries(entries, this.view, this.since ?? null);
    const awaySeqs = new Set(away.map((e) => e.seq));
    const items = [];
    let marked = false;
    for (const group of groupEntries(entries)) {
      const isAway = awaySeqs.has(group[0].seq);
      if (isAway && !marked) {
        marked = true;
        items.push(el("li", { class: "log-divider", id: "log-since" }, "Since your last turn"));
      }
      items.push(storyItem(group, this.index, { rulesUrl: this.rulesUrl, away: isAway }));
    }
    if (this.newestFirst) {
      // Newest on top: the divider goes below the entries it introduces.
      const divider = items.findIndex((n) => n.id === "log-since");
      const [node] = divider >= 0 ? items.splice(divider, 1) : [];
      items.reverse();
      if (node) {
        const lastAway = items.findLastIndex((n) => n.classList.contains("log-away-entry"));
        node.textContent = "Since your last turn (above)";
        items.splice(lastAway + 1, 0, node);
      }
    }
    fill(this.list, items);
    this.rendered = true;
    this.markPressed();
    this.older.hidden = this.complete;
    fill(this.older, this.newestFirst ? "Show earlier entries (below)" : "Show earlier entries");
    // The pager sits at the old end of the list.
    if (this.newestFirst) this.list.after(this.older);
    else this.list.before(this.older);
    const summary = awaySummary(away, this.index);
    this.away.hidden = !summary;
    if (summary) fill(this.away, el("strong", {}, "While you were away: "), `${summary}.`);
  }
}
