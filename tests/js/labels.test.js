// Monsters as players read them (issue 21): "Orc", "Orc 2", a villain by name, never an id such as
// "m2" (an id is an action's handle; its number would count monsters, not what a player reads).
// static/js/games/heroquest/names.js and the labels of panel.js, with Node's test runner; no DOM.

import assert from "node:assert/strict";
import { test } from "node:test";

import { indexView } from "../../static/js/games/heroquest/model.js";
import { monsterBadge, monsterLabel, monsterRef } from "../../static/js/games/heroquest/names.js";
import { actionLabel } from "../../static/js/games/heroquest/panel.js";

const ORC = { id: "m4", kind: "orc", name: "the orc", number: 1, position: [2, 0], body: 1, body_max: 1 };
const ORC_2 = { id: "m7", kind: "orc", name: "the second orc", number: 2, position: [3, 0], body: 1, body_max: 1 };
const WARDEN = { id: "m9", kind: "dread_warden", name: "Dread Warden", number: null, position: [1, 1], body: 4, body_max: 4 };
const CINDER_LORD = { id: "m12", kind: "dread_warrior", name: "Vorgash the Cinder Lord", number: null, position: [1, 2] };

/** A hero seat's view: the Barbarian at (1, 0) between two orcs and a pit trap to the south. */
function view(legal = [], monsters = [ORC, ORC_2, WARDEN]) {
  return /** @type {import("../../static/js/games/heroquest/seat_view.js").SeatView} */ ({
    seat: 2,
    role: "hero",
    heroes_owned: ["barbarian"],
    round: 1,
    turn: { phase: "heroes", hero: "barbarian" },
    map: {
      width: 4,
      height: 3,
      squares: [],
      areas: [],
      doors: [],
      blocked: [],
      stairway: [],
      furniture: [],
      traps: [{ id: "t3", kind: "pit", square: [1, 1], furniture: null, state: "armed", detected: true }],
    },
    heroes: [{ hero: "barbarian", position: [1, 0], status: "playing", body: 8, body_max: 8 }],
    monsters,
    legal_actions: legal,
    log: [],
    outcome: null,
  });
}

const ID = /\b[mtd]\d+\b/;

test("a monster reads by its kind, the second of a kind by its number, a villain by its name", () => {
  assert.equal(monsterLabel(ORC), "Orc");
  assert.equal(monsterLabel(ORC_2), "Orc 2");
  assert.equal(monsterLabel(WARDEN), "Dread Warden");
  assert.equal(monsterLabel(CINDER_LORD), "Vorgash the Cinder Lord");
  assert.equal(monsterRef(ORC_2), "the second orc");
  assert.equal(monsterRef(CINDER_LORD), "Vorgash the Cinder Lord");
  assert.deepEqual([ORC, ORC_2, WARDEN].map(monsterBadge), ["", "2", ""]);
});

test("Zargon's unrevealed monsters are told as such, with no id and no number", () => {
  const hidden = { id: "z-m-orc_3", kind: "orc", name: "the orc", number: null, revealed: false };
  assert.equal(monsterLabel(hidden), "Orc (unrevealed)");
  assert.equal(monsterRef(hidden), "the orc (unrevealed)");
  assert.equal(monsterBadge(hidden), "");
});

test("a view from before names and numbers still reads without ids", () => {
  const old = { id: "m2", kind: "goblin", position: [0, 0] };
  assert.equal(monsterLabel(old), "Goblin");
  assert.equal(monsterRef(old), "the goblin");
  assert.equal(monsterBadge(old), "");
});

test("the buttons of a hero's and of Zargon's actions name monsters, traps and doors without ids", () => {
  const legal = [
    { type: "attack", hero: "barbarian", target: "m4" },
    { type: "attack", hero: "barbarian", target: "m7" },
    { type: "throw", hero: "barbarian", weapon: "handaxe", target: "m7" },
    { type: "cast", hero: "barbarian", spell: "ball_of_flame", target: "m9" },
    { type: "disarm", hero: "barbarian", trap: "t3" },
    { type: "end_activation", monster: "m7" },
    { type: "monster_cast", monster: "m9", spell: "lightning_bolt", target: "E" },
  ];
  const index = indexView(view(legal));
  const labels = legal.map((a) => actionLabel(a, index));
  assert.deepEqual(labels, [
    "Attack the orc",
    "Attack the second orc",
    "Throw the handaxe at the second orc",
    "Ball of Flame on Dread Warden",
    "Disarm the pit trap to the south",
    "End activation of Orc 2",
    "Dread Warden: cast Lightning Bolt to the east",
  ]);
  for (const label of labels) assert.doesNotMatch(label, ID);
});
