// Where a room's name sits on the HeroQuest board (static/js/games/heroquest/map.js): figures are
// drawn over names, so a name moves out from under a figure. Node's test runner; no DOM.

import assert from "node:assert/strict";
import { test } from "node:test";

import { roomNamePlace } from "../../static/js/games/heroquest/map.js";

// A 4 x 3 room at (10, 5): rows 5, 6 and 7.
const ROOM = { x: 10, y: 5, w: 4, h: 3 };

test("a room's name runs along its top row when no figure stands there", () => {
  const place = roomNamePlace(ROOM, "Cinder Stair", new Set(["11,6"]), false);
  assert.equal(place.x, 12);
  assert.equal(place.y, 5.3);
});

test("a figure under the name in the top row moves the name to the bottom row", () => {
  const place = roomNamePlace(ROOM, "Cinder Stair", new Set(["11,5"]), false);
  assert.equal(place.y, 7.7);
});

test("a figure in the top row beside a short name leaves the name on top", () => {
  const place = roomNamePlace({ x: 10, y: 5, w: 8, h: 3 }, "Crypt", new Set(["10,5", "17,5"]), false);
  assert.equal(place.y, 5.3);
});

test("a name with no free row stays on top, raised over the figures", () => {
  const place = roomNamePlace(ROOM, "Cinder Stair", new Set(["11,5", "12,7"]), false);
  assert.deepEqual([place.y, place.over], [5.3, true]);
});

test("a name never moves into the searched mark at the bottom: it is raised on top", () => {
  const place = roomNamePlace(ROOM, "Cinder Stair", new Set(["11,5"]), true);
  assert.deepEqual([place.y, place.over], [5.3, true]);
});

test("a one-row room's name is raised over a figure in its only row", () => {
  const place = roomNamePlace({ x: 0, y: 0, w: 4, h: 1 }, "Cell", new Set(["1,0"]), false);
  assert.deepEqual([place.y, place.over], [0.3, true]);
});

test("a name moved or left on top by a free row is drawn under the figures", () => {
  const moved = roomNamePlace(ROOM, "Cinder Stair", new Set(["11,5"]), false);
  const kept = roomNamePlace(ROOM, "Cinder Stair", new Set(), false);
  assert.deepEqual([moved.over, kept.over], [false, false]);
});
