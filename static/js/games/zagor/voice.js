// The voice of Zagor on the table: his last announcement with a "Repeat" control (the view's
// `last_voice`), and an optional spoken voice through the browser's speech synthesis, off
// until the player turns it on (the choice is remembered in localStorage).

import { el, fill } from "../../table/dom.js";
import { repeatLine } from "./model.js";

export const SPEAK_KEY = "ashen-vault:zagor:speak";

/** Whether the spoken voice is on (off by default, and off where storage is refused). */
export function speakingOn(storage = globalThis.localStorage) {
  try {
    return storage?.getItem(SPEAK_KEY) === "on";
  } catch {
    return false;
  }
}

export function setSpeaking(on, storage = globalThis.localStorage) {
  try {
    storage?.setItem(SPEAK_KEY, on ? "on" : "off");
  } catch {
    // Private mode: the choice holds for this page only.
  }
}

export class Voice {
  constructor(node) {
    this.node = node;
    this.speaking = speakingOn();
    this.line = "";
    this.repeats = 0;
    this.canSpeak = typeof globalThis.speechSynthesis !== "undefined" && typeof globalThis.SpeechSynthesisUtterance === "function";
  }

  /** Draw the panel for `view` (its last announcement). */
  render(view) {
    this.line = repeatLine(view);
    const toggle = el("input", {
      type: "checkbox",
      id: "voice-speak",
      checked: this.speaking ? true : null,
      disabled: this.canSpeak ? null : true,
      onchange: (e) => this.setSpeaking(e.target.checked),
    });
    fill(
      this.node,
      el("h2", { class: "panel-title" }, "The voice of Zagor"),
      el("p", { class: `voice-line${this.repeats % 2 ? " again" : ""}`, id: "voice-line" }, this.line || "Zagor is silent."),
      el(
        "div",
        { class: "voice-controls" },
        el(
          "button",
          { type: "button", id: "voice-repeat", class: "small-button", disabled: this.line ? null : true, onclick: () => this.repeat() },
          "Repeat",
        ),
        el("label", { class: "small", for: "voice-speak" }, toggle, this.canSpeak ? " Speak aloud" : " Speak aloud (not in this browser)"),
      ),
      el("p", { id: "voice-announcer", class: "sr-only", "aria-live": "assertive" }),
    );
  }

  setSpeaking(on) {
    this.speaking = Boolean(on);
    setSpeaking(this.speaking);
    if (!this.speaking && this.canSpeak) globalThis.speechSynthesis.cancel();
  }

  /** Say the last announcement again: shown (and read to screen readers), spoken if on. */
  repeat() {
    if (!this.line) return;
    this.repeats += 1;
    const line = this.node.querySelector("#voice-line");
    if (line) {
      line.classList.toggle("again", this.repeats % 2 === 1);
      line.dataset.repeats = String(this.repeats);
    }
    const announcer = this.node.querySelector("#voice-announcer");
    if (announcer) announcer.textContent = this.line;
    this.say([this.line]);
  }

  /** New announcements arrived (live): spoken in order when the voice is on. */
  heard(lines) {
    if (lines.length) this.say(lines);
  }

  say(lines) {
    if (!this.speaking || !this.canSpeak) return;
    for (const text of lines) {
      const u = new globalThis.SpeechSynthesisUtterance(text.replace(/^Zagor:\s*/, ""));
      u.rate = 0.9;
      u.pitch = 0.6;
      globalThis.speechSynthesis.speak(u);
    }
  }
}
