// The story's wording (static/js/games/heroquest/story.js, static/js/table/chat.js) with Node's test runner:
// issue 21's fixes, one test each. No browser, no DOM.

import assert from "node:assert/strict";
import { test } from "node:test";

import { clockTime, paragraphs } from "../../static/js/table/chat.js";
import { indexView } from "../../static/js/games/heroquest/model.js";
import { awaySummary, defeatedName, groupEntries, storyText } from "../../static/js/games/heroquest/story.js";

/** A passage (the Soot Gallery) of four squares, the Elf in it, an orc seen at its end. */
function gallery() {
  return indexView({
    role: "hero",
    heroes_owned: ["elf"],
    map: {
      squares: [0, 1, 2, 3].map((x) => ({ x, y: 0, area: "a1", walls: "", revealed: true })),
      areas: [{ id: "a1", kind: "passage", name: "Soot Gallery", revealed: true }],
      doors: [],
    },
    heroes: [{ hero: "elf", position: [3, 0], status: "playing" }],
    monsters: [{ id: "m1", kind: "orc", position: [3, 0], body: 1 }],
  });
}

const step = (seq, x) => ({ seq, type: "move", hero: "elf", to: [x, 0], text: `The Elf moves to (${x}, 0).` });
const sight = (seq, there = "") => ({
  seq,
  type: "reveal",
  area: "a1",
  text: `Part of Soot Gallery comes into sight.${there ? ` There: ${there}.` : ""}`,
});

test("a walk is one line: what comes into sight joins it, told once per area", () => {
  const entries = [step(1, 1), sight(2), step(3, 2), sight(4, "the orc"), step(5, 3)];
  const groups = groupEntries(entries);
  assert.equal(groups.length, 1);
  assert.equal(
    storyText(groups[0], gallery()),
    "The Elf moves 3 squares, to the Soot Gallery. Part of Soot Gallery comes into sight. There: the orc.",
  );
});

test("a reveal that follows no walk is a line of its own", () => {
  const groups = groupEntries([{ seq: 1, type: "door_opened", text: "The Elf opens a door." }, sight(2)]);
  assert.equal(groups.length, 2);
});

test("a monster's walk is named as the engine names it, never with its id", () => {
  const index = gallery();
  const walk = [
    { seq: 1, type: "monster_move", monster: "m1", to: [2, 0], text: "The second orc moves to (2, 0)." },
    { seq: 2, type: "monster_move", monster: "m1", to: [1, 0], text: "The second orc moves to (1, 0)." },
  ];
  const text = storyText(groupEntries(walk)[0], index);
  assert.equal(text, "The second orc moves 2 squares, to the Soot Gallery.");
  assert.doesNotMatch(text, /m1/);
});

test("the away summary says which monster was defeated", () => {
  const attack = {
    seq: 7,
    type: "attack",
    attacker: "elf",
    target: "m1",
    hits: 3,
    lost: 1,
    defeated: true,
    text: "The Elf attacks the second orc: 3 skulls; the second orc cannot defend; the second orc loses 1 Body and is defeated.",
  };
  assert.equal(defeatedName(attack), "the second orc");
  assert.equal(awaySummary([attack], gallery()), "the Elf defeated the second orc");
});

test("the away summary counts the Body a hero lost, not the skulls rolled", () => {
  const attack = { seq: 3, type: "attack", attacker: "m1", target: "elf", hits: 3, lost: 1, text: "" };
  assert.equal(awaySummary([attack], gallery()), "the Elf lost 1 Body");
});

test("the parchment flows: wrapped lines join, blank lines part paragraphs", () => {
  assert.deepEqual(paragraphs("Nine days and nine\nnights it burned.\n\n  Go down\n the stair. "), [
    "Nine days and nine nights it burned.",
    "Go down the stair.",
  ]);
});

test("chat times are told in the reader's own zone", () => {
  const noon = new Date("2026-01-05T12:00:00Z");
  assert.equal(clockTime(noon, "Asia/Tokyo"), noon.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", timeZone: "Asia/Tokyo" }));
  assert.match(clockTime(noon, "Asia/Tokyo"), /(21|09):00/);
  assert.ok(clockTime(noon, "Not/AZone")); // an unknown zone falls back to the browser's
});

test("each hero's story of the quest: kills, Body lost, gold and finds, spells", async () => {
  const { heroStories, storyParts } = await import("../../static/js/games/heroquest/quest_end.js");
  const view = { heroes: [{ hero: "elf" }, { hero: "wizard" }] };
  const entries = [
    {
      type: "attack",
      attacker: "elf",
      target: "m1",
      defeated: true,
      text: "The Elf attacks the orc: 2 skulls; the orc cannot defend; the orc loses 1 Body and is defeated.",
    },
    { type: "attack", attacker: "m2", target: "elf", hits: 3, lost: 2, text: "" },
    { type: "trap", hero: "elf", lost: 1, text: "" },
    { type: "search", search: "treasure", hero: "elf", find: "gold_25", text: "" },
    { type: "search", search: "treasure", hero: "elf", find: "potion_of_healing", text: "" },
    { type: "search", search: "treasure", hero: "wizard", find: "treasure", text: "The Wizard searches the room for treasure." },
    {
      type: "spell",
      hero: "wizard",
      spell: "ball_of_flame",
      target: "m2",
      defeated: true,
      text: "The Wizard casts Ball Of Flame at the second orc: the second orc rolls 1, 2; the second orc loses 1 Body and is defeated.",
    },
  ];
  const stories = heroStories(entries, view);
  assert.deepEqual(storyParts(stories.get("elf")), ["defeated the orc", "lost 3 Body", "found 25 gold and a potion of healing"]);
  assert.deepEqual(storyParts(stories.get("wizard")), [
    "defeated the second orc",
    "lost no Body",
    "found treasure once",
    "cast Ball of Flame",
  ]);
});
