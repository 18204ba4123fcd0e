// What every game's table shares (static/js/table/page.js, replay_controls.js): the socket's
// frames and the replay's log window. No browser: the DOM is not needed for these.

import assert from "node:assert/strict";
import { test } from "node:test";

import { tableFrame } from "../../static/js/table/page.js";
import { entriesUpTo } from "../../static/js/table/replay_controls.js";

function handlers(version) {
  /** @type {any[]} */
  const got = [];
  return {
    got,
    chat: { receive: (/** @type {any} */ m) => got.push(["chat", m]) },
    version: () => version,
    onView: (/** @type {any} */ v) => got.push(["view", v]),
    onError: (/** @type {string} */ e) => got.push(["error", e]),
  };
}

test("a newer view is taken, an older or equal one is not", () => {
  const h = handlers(4);
  tableFrame({ type: "view", version: 4, view: { seat: 2 } }, h);
  tableFrame({ type: "view", version: 3, view: { seat: 2 } }, h);
  tableFrame({ type: "view", version: 5, view: { seat: 2 } }, h);
  assert.deepEqual(h.got, [["view", { seat: 2, version: 5 }]]);
});

test("chat goes to the chat, errors to the error line, a clock change to the clock bar", () => {
  const h = handlers(0);
  /** @type {string[]} */
  const events = [];
  globalThis.document = /** @type {any} */ ({ dispatchEvent: (/** @type {Event} */ e) => events.push(e.type) });
  tableFrame({ type: "chat", message: { id: 1 } }, h);
  tableFrame({ type: "error" }, h);
  tableFrame({ type: "clock" }, h);
  tableFrame({ type: "pong" }, h);
  tableFrame(null, h);
  assert.deepEqual(h.got, [
    ["chat", { id: 1 }],
    ["error", "The server reported an error."],
  ]);
  assert.deepEqual(events, ["board:clock"]);
});

test("the replay's log shows the newest entries up to the step", () => {
  const steps = [{ entries: [1, 2] }, { entries: [3] }, { entries: [4, 5, 6] }, { entries: [7] }];
  assert.deepEqual(entriesUpTo(steps, 2, 10), [1, 2, 3, 4, 5, 6]);
  assert.deepEqual(entriesUpTo(steps, 2, 4), [3, 4, 5, 6]);
  assert.deepEqual(entriesUpTo(steps, 0, 1), [2]);
});
