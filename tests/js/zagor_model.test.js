// Legend of Zagor's board model (static/js/games/zagor/model.js), the voice's setting
// (voice.js) and the fair-dice check of Zagor's d10 beside HeroQuest's dice (static/js/fairness.js),
// read against small seat views with Node's own test runner: no browser, no DOM.

import assert from "node:assert/strict";
import { test } from "node:test";

import { shownDice, shownDraw, verifyReplay } from "../../static/js/fairness.js";
import {
  actionLabel,
  diceOf,
  focusLevel,
  groupActions,
  lastRoll,
  levelBoxes,
  levelsWithMoves,
  linksOf,
  mergeReplayView,
  outcomeText,
  scoreText,
  placeSpaces,
  repeatLine,
  rollBeforeThisTurn,
  spaceLabel,
  surrenderChoices,
  targetKind,
  tileOf,
  unusedThisTurn,
  viewBoxOf,
  voiceLines,
  wrapWords,
} from "../../static/js/games/zagor/model.js";
import { SPEAK_KEY, setSpeaking, speakingOn } from "../../static/js/games/zagor/voice.js";

/** @typedef {import("../../static/js/games/zagor/model.js").ZagorView} ZagorView */

function hero(id, name, seat, space, level = 1) {
  return {
    hero: id,
    name,
    seat,
    space,
    level,
    start: space,
    strength: 6,
    defence: 6,
    stamina: 8,
    stamina_max: 8,
    gold: 10,
    equipment: [],
    chests: 0,
    chest_limit: 6,
    hireling: null,
    spells: 1,
    hand_limit: 1,
    fights_won: 0,
    rooms_avoided: 0,
    score: 0,
    misses_turns: 0,
    orders: [],
    invisible: false,
    frozen: false,
    mind_blank: false,
    in_crypt: false,
  };
}

/** Two small levels: level 1 a 3 x 1 row (start, corridor, steps), level 2 a room under a corridor. */
function view(legal = [], extra = {}) {
  return /** @type {ZagorView} */ ({
    seat: 1,
    levels: [1, 2],
    round: 2,
    round_limit: 30,
    over: false,
    outcome: null,
    turn: { hero: "barbarian", seat: 1, moves_left: 1, moved: false, fought: false, spells_left: 1 },
    layout: {
      levels: [
        {
          level: 1,
          name: "the Chambers of Death",
          width: 3,
          height: 1,
          spaces: [
            { id: "s1", kind: "start", x: 0, y: 0, name: "a start space" },
            { id: "a1", kind: "corridor", x: 1, y: 0, name: "a corridor" },
            { id: "steps", kind: "bridge", x: 2, y: 0, name: "the Stone Steps" },
          ],
        },
        {
          level: 2,
          name: "the Halls of Fear",
          width: 1,
          height: 2,
          spaces: [
            { id: "b1", kind: "corridor", x: 0, y: 0, name: "a corridor" },
            { id: "r21", kind: "room", x: 0, y: 1, name: "Hall of Chains" },
          ],
        },
        {
          level: 3,
          name: "the Crypt of Zagor",
          width: 1,
          height: 1,
          spaces: [{ id: "hall", kind: "hall", x: 0, y: 0, name: "Skull Hall" }],
        },
      ],
      links: [
        ["s1", "a1"],
        ["a1", "steps"],
        ["steps", "b1"],
        ["b1", "r21"],
      ],
    },
    spaces: { s1: {}, a1: { tile: { face: null } }, steps: {}, b1: { tile: { face: "Druid" } }, r21: { monster: "Ogre", chests: 2 } },
    heroes: [hero("barbarian", "Anvar the Barbarian", 1, "s1"), hero("dwarf", "Stubble the Dwarf", 2, "b1", 2)],
    fight: null,
    spoils: null,
    last_voice: "Anvar the Barbarian goes first.",
    me: {
      hero: "barbarian",
      spells: [{ name: "Teleport", text: "Go to a free corridor space.", when: ["turn"] }],
      chests: [],
      seen_tiles: { a1: "Axe" },
      surrender_at: 0,
      store: { open: true, prices: { Axe: 5 } },
    },
    legal_actions: legal,
    ...extra,
  });
}

test("the levels in play sit side by side, each under its title, and only they are placed", () => {
  const v = view();
  const boxes = levelBoxes(v);
  assert.deepEqual(
    boxes.map((b) => b.level),
    [1, 2],
  );
  assert.ok(boxes[1].x > boxes[0].x + boxes[0].width, "a gap between the levels");
  const placed = placeSpaces(v);
  assert.equal(placed.has("hall"), false, "level 3 is not in this tale");
  assert.equal(placed.get("a1").level, 1);
  assert.equal(placed.get("r21").gy > placed.get("b1").gy, true);
  const { same, cross } = linksOf(v, placed);
  assert.deepEqual(cross, [["steps", "b1"]]);
  assert.equal(same.length, 3);
  const all = viewBoxOf(boxes);
  const one = viewBoxOf(boxes, 2);
  assert.ok(one[2] < all[2], "one level's box is narrower than the whole board's");
});

test("a tile shows its public face, a peeked face only in the peeker's view, else nothing", () => {
  const v = view();
  assert.deepEqual(tileOf(v, "b1"), { kind: "face-up", face: "Druid" });
  assert.deepEqual(tileOf(v, "a1"), { kind: "peeked", face: "Axe" });
  assert.deepEqual(tileOf({ ...v, me: null }, "a1"), { kind: "face-down", face: null });
  assert.deepEqual(tileOf(v, "s1"), { kind: "none", face: null });
});

test("legal actions are grouped by what the player taps, and named in words", () => {
  const legal = [
    { type: "move", hero: "barbarian", to: "a1" },
    { type: "move", hero: "barbarian", to: "b1" },
    { type: "buy", hero: "barbarian", item: "Axe" },
    { type: "cast", hero: "barbarian", spell: "Teleport", target: "a1" },
    { type: "cast", hero: "barbarian", spell: "Teleport", target: "b1" },
    { type: "attack_hero", hero: "barbarian", target: "dwarf" },
    { type: "end_turn", hero: "barbarian", swap: null },
    { type: "end_turn", hero: "barbarian", swap: "Teleport" },
  ];
  const v = view(legal);
  const g = groupActions(v);
  assert.deepEqual([...g.moves.keys()], ["a1", "b1"]);
  assert.equal(g.casts.get("Teleport").length, 2);
  assert.equal(g.attacks.get("dwarf").target, "dwarf");
  const placed = placeSpaces(v);
  assert.equal(targetKind(v, placed, "dwarf"), "hero");
  assert.equal(targetKind(v, placed, "a1"), "space");
  assert.equal(targetKind(v, placed, "Axe"), "item");
  assert.equal(targetKind(v, placed, null), "none");
  assert.equal(actionLabel(v, placed, legal[2]), "Buy Axe (5 gold)");
  assert.equal(actionLabel(v, placed, legal[5]), "Attack Stubble");
  assert.equal(actionLabel(v, placed, legal[7]), "End turn, swapping Teleport");
  assert.equal(actionLabel(v, placed, legal[1]), "Move to corridor a1 (level 2)");
  assert.equal(spaceLabel(placed, "r21"), "Hall of Chains");
  assert.deepEqual([...levelsWithMoves(v, placed)].sort(), [1, 2]);
  assert.deepEqual(unusedThisTurn(v), ["You could still move.", "You could still cast a spell."]);
  assert.deepEqual(unusedThisTurn(view([legal[6]])), []);
});

test("the d10s of the log are read in order, and the tray shows the newest roll", () => {
  const entries = [
    { type: "voice", text: "Zagor: Ogre attacks with 4: a miss.", seq: 5, version: 3, dice: [{ kind: "d10", values: [4], who: "Ogre" }] },
    { type: "strike", text: "Anvar rolls 9: a hit.", seq: 6, version: 3, dice: [{ kind: "d10", values: [9], who: "Anvar" }] },
    { type: "turn", text: "Round 2: Stubble's turn.", seq: 7, version: 4, dice: [] },
    { type: "voice", text: "Zagor: Stubble, fight my servant!", seq: 8, version: 5, dice: [] },
  ];
  assert.deepEqual(
    diceOf(entries).map((d) => d.value),
    [4, 9],
  );
  assert.deepEqual(
    lastRoll(entries).map((e) => e.seq),
    [5, 6],
  );
  assert.deepEqual(voiceLines(entries), ["Zagor: Ogre attacks with 4: a miss.", "Zagor: Stubble, fight my servant!"]);
  assert.equal(repeatLine(view()), "Zagor: Anvar the Barbarian goes first.");
  assert.equal(repeatLine(view([], { last_voice: null })), "");
});

test("a phone first shows the level of the seat's own hero on its turn, else the acting hero's", () => {
  const v = view();
  assert.equal(focusLevel(v), 1);
  const theirs = view([], { turn: { ...v.turn, hero: "dwarf", seat: 2 } });
  assert.equal(focusLevel(theirs), 2);
  assert.equal(focusLevel({ ...theirs, me: null }), 2);
});

test("the score reads as fights won minus rooms avoided, in the singular where it is one", () => {
  const hero = { ...view().heroes[0], fights_won: 0, rooms_avoided: 1, score: -1 };
  assert.equal(scoreText(hero), "-1 (0 fights won minus 1 room avoided)");
  assert.equal(scoreText({ ...hero, fights_won: 1, rooms_avoided: 2, score: -1 }), "-1 (1 fight won minus 2 rooms avoided)");
});

test("the outcome, the surrender choices, word wrapping and replay steps", () => {
  assert.equal(outcomeText(view()), "");
  assert.equal(outcomeText(view([], { over: true, outcome: "hero:dwarf" })), "Stubble the Dwarf won.");
  assert.match(outcomeText(view([], { over: true, outcome: "zagor" })), /Zagor kept his crypt/);
  assert.deepEqual(surrenderChoices(view().heroes[0]), [0, 1, 2, 3, 4, 5, 6, 7, 8]);
  assert.deepEqual(wrapWords("Friendly Dwarf", 8), ["Friendly", "Dwarf"]);
  assert.deepEqual(wrapWords("Secret Passage", 8), ["Secret", "Passage"]);
  assert.deepEqual(wrapWords("a b c d e f", 1, 2), ["a", "b…"]);
  const first = { round: 1, spaces: { a1: { tile: { face: "Axe" } } }, heroes: [] };
  const merged = mergeReplayView(first, { view_changes: { round: 2 } });
  assert.deepEqual(merged, { ...first, round: 2 });
  assert.equal(mergeReplayView(first, { view: { round: 9 } }).round, 9);
});

test("the spoken voice is off until turned on, and the choice is remembered", () => {
  const store = new Map();
  const storage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v) };
  assert.equal(speakingOn(storage), false);
  setSpeaking(true, storage);
  assert.equal(store.get(SPEAK_KEY), "on");
  assert.equal(speakingOn(storage), true);
  setSpeaking(false, storage);
  assert.equal(speakingOn(storage), false);
  const refusing = {
    getItem: () => {
      throw new Error("denied");
    },
  };
  assert.equal(speakingOn(refusing), false);
});

// Seed 12345 through apps/games/dicestream.py: below(10), below(10), below(7), below(10), below(3)
// give 7, 5, 4, 3, 1; SHA-256 of "salt:12345" is the commitment.
const FAIRNESS = {
  revealed: true,
  seed: "12345",
  salt: "salt",
  commitment: "53a2829c9c3f8c03026ff6db8beebea6115d53383e8d02ca3b2e5ea760382681",
};

function zagorSteps(shownSecond = 6) {
  return [
    { step: 0, draws: [["d10", 10, 7]], entries: [{ dice: [{ kind: "d10", values: [8], who: "Zombie" }] }] },
    {
      step: 1,
      draws: [
        ["d10", 10, 5],
        ["voice", 7, 4],
        ["d10", 10, 3],
        ["shuffle", 3, 1],
      ],
      entries: [
        { dice: [{ kind: "d10", values: [shownSecond], who: "Anvar" }] },
        { dice: [{ kind: "d10", values: [4], who: "Orc" }] },
        { dice: [] },
      ],
    },
  ];
}

test("a d10 draw shows as result + 1; HeroQuest's red and combat dice are unchanged", () => {
  assert.equal(shownDraw("d10", 0), 1);
  assert.equal(shownDraw("d10", 9), 10);
  assert.equal(shownDraw("red", 5), 6);
  assert.equal(shownDraw("combat", 0), "skull");
  assert.equal(shownDraw("combat", 5), "black_shield");
  assert.equal(shownDraw("shuffle", 3), null);
  assert.deepEqual(
    shownDice([
      {
        dice: [
          { kind: "red", values: [3, 4] },
          { kind: "combat", faces: ["skull"] },
          { kind: "d10", values: [10] },
        ],
      },
    ]),
    [3, 4, "skull", 10],
  );
});

test("Zagor's replay checks fair from its seed, and a changed d10 fails at its step", async () => {
  const fair = await verifyReplay(FAIRNESS, zagorSteps());
  assert.deepEqual(fair, { ok: true, draws: 5, dice: 3 });
  const lied = await verifyReplay(FAIRNESS, zagorSteps(7));
  assert.equal(lied.ok, false);
  assert.equal(lied.step, 1);
  assert.match(lied.problem, /the log shows 7, 4, the seed rolled 6, 4/);
  const unsealed = await verifyReplay({ ...FAIRNESS, commitment: "0".repeat(64) }, zagorSteps());
  assert.equal(unsealed.ok, false);
});

test("the tray says so when its roll was made before this turn began", () => {
  const roll = { kind: "d10", values: [9], who: "Anvar" };
  const rolled = { type: "strike", text: "Anvar rolls 9: a hit.", seq: 6, version: 3, dice: [roll] };
  const turn = { type: "turn", text: "Round 2: Stubble's turn.", seq: 7, version: 3, dice: [] };
  const moved = { type: "move", text: "Stubble moves.", seq: 8, version: 4, dice: [] };
  assert.equal(rollBeforeThisTurn([rolled]), false);
  assert.equal(rollBeforeThisTurn([rolled, moved]), false);
  assert.equal(rollBeforeThisTurn([rolled, turn, moved]), true);
  assert.equal(rollBeforeThisTurn([turn, { ...rolled, seq: 9, version: 5 }]), false);
  assert.equal(rollBeforeThisTurn([turn, moved]), false);
});
