// The board's pure model (static/js/games/heroquest/model.js) read against small seat views, with Node's own
// test runner (`node --test tests/js/`): no browser, no DOM.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  actionKey,
  actionsOf,
  activeMonsterIds,
  areaTitle,
  canStep,
  castableSpells,
  findLegal,
  indexView,
  reach,
  sameAction,
} from "../../static/js/games/heroquest/model.js";

/** @typedef {import("../../static/js/games/heroquest/seat_view.js").SeatView} SeatView */

/** A 3x1 corridor: (0,0) | (1,0) (2,0), a wall on the east side of (0,0), a closed door beyond (2,0). */
function corridor(legal = []) {
  return /** @type {SeatView} */ ({
    seat: 2,
    role: "hero",
    heroes_owned: ["barbarian"],
    round: 1,
    turn: { phase: "heroes", hero: "barbarian", movement_left: 2 },
    map: {
      width: 4,
      height: 1,
      squares: [
        { x: 0, y: 0, area: "a", walls: "E", revealed: true },
        { x: 1, y: 0, area: "a", walls: "", revealed: true },
        { x: 2, y: 0, area: "a", walls: "", revealed: true },
        { x: 3, y: 0, area: "b", walls: "", revealed: true },
      ],
      areas: [
        { id: "a", kind: "passage", name: "", revealed: true },
        { id: "b", kind: "room", name: "Guard Room", revealed: true },
      ],
      doors: [
        {
          id: "d1",
          between: [
            [2, 0],
            [3, 0],
          ],
          open: false,
          secret: false,
          found: true,
          locked_by: null,
        },
      ],
      blocked: [],
      stairway: [],
      furniture: [],
      traps: [],
    },
    heroes: [{ hero: "barbarian", position: [1, 0], status: "playing" }],
    monsters: [],
    legal_actions: legal,
    log: [],
    outcome: null,
  });
}

test("a wall and a closed door stop a step; an open floor does not", () => {
  const index = indexView(corridor());
  assert.equal(canStep(index, [1, 0], [2, 0]), true);
  assert.equal(canStep(index, [1, 0], [0, 0]), false); // the wall on (0,0)'s east side
  assert.equal(canStep(index, [2, 0], [3, 0]), false); // the closed door
});

test("reach follows the corridor and stops at the closed door", () => {
  const paths = reach(indexView(corridor()), [1, 0], 5);
  assert.deepEqual([...paths.keys()], ["2,0"]);
});

test("legal actions are found by type, and the same action is the same in any key order", () => {
  const legal = [
    { type: "move", hero: "barbarian", to: [2, 0] },
    { type: "cast", hero: "wizard", spell: "ball_of_flame", target: "m1" },
    { type: "cast", hero: "wizard", spell: "ball_of_flame", target: "m2" },
    { type: "cast", hero: "wizard", spell: "sleep", target: "m1" },
  ];
  const view = corridor(legal);
  assert.equal(actionsOf(view, "move").length, 1);
  assert.deepEqual(castableSpells(view), ["ball_of_flame", "sleep"]);
  const reordered = { to: [2, 0], type: "move", hero: "barbarian" };
  assert.ok(sameAction(reordered, legal[0]));
  assert.equal(actionKey(reordered), actionKey(legal[0]));
  assert.equal(findLegal(view, reordered), legal[0]);
  assert.equal(findLegal(view, { type: "move", hero: "barbarian", to: [0, 0] }), null);
});

test("Zargon may act with each monster that has an action, once", () => {
  const view = corridor([
    { type: "monster_move", monster: "m1", to: [2, 0] },
    { type: "monster_attack", monster: "m1", target: "barbarian" },
    { type: "end_activation", monster: "m2" },
    { type: "end_phase" },
  ]);
  assert.deepEqual(activeMonsterIds(view), ["m1", "m2"]);
});

test("an area is named with its article", () => {
  assert.equal(areaTitle({ name: "Guard Room" }), "the Guard Room");
  assert.equal(areaTitle({ name: "The Ashen Vault" }), "The Ashen Vault");
  assert.equal(areaTitle({ kind: "passage", name: "" }), "a passage");
});
