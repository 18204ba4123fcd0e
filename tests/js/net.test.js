// The page's socket id (static/js/table/net.js): its game socket opens with it and its action
// POSTs send it, so the server does not send the acting page the view its answer brought.

import assert from "node:assert/strict";
import { test } from "node:test";

import { postAction, socketId, withSocketId } from "../../static/js/table/net.js";

test("the socket id is one per page, fit for a query and a header", () => {
  assert.match(socketId, /^[A-Za-z0-9_-]{8,64}$/);
});

test("the game socket opens with the page's socket id", () => {
  globalThis.location = new URL("https://table.test/games/7/");
  assert.equal(withSocketId("wss://table.test/ws/games/7/"), `wss://table.test/ws/games/7/?socket=${socketId}`);
  assert.equal(withSocketId("ws://table.test/ws/games/7/?a=1"), `ws://table.test/ws/games/7/?a=1&socket=${socketId}`);
});

test("an action's POST names the page's socket", async () => {
  /** @type {any[]} */
  const posted = [];
  globalThis.document = /** @type {any} */ ({ cookie: "csrftoken=t0ken", querySelector: () => null });
  globalThis.fetch = /** @type {any} */ (
    async (/** @type {string} */ url, /** @type {any} */ init) => {
      posted.push({ url, init });
      return { status: 200, json: async () => ({ version: 2 }) };
    }
  );
  const res = await postAction("/api/games/7/actions", { type: "end_turn" }, 1);
  assert.equal(res.status, 200);
  assert.equal(posted[0].init.headers["X-Socket-Id"], socketId);
  assert.equal(posted[0].init.headers["X-CSRFToken"], "t0ken");
  assert.equal(JSON.parse(posted[0].init.body).expected_version, 1);
});
