// The end of a quest: each hero's story of it (kills, Body lost, gold and treasure found, spells
// cast), told from the log entries this seat may see. Pure: no DOM, tested by node --test.

import { defeatedName } from "./story.js";
import { joinNames, spellName } from "./names.js";

const NO_FIND = new Set(["nothing", "hazard", "wandering_monster"]);

/** An empty story for each hero of the view. */
function blank(view) {
  return new Map((view.heroes ?? []).map((h) => [h.hero, { kills: [], lost: 0, gold: 0, finds: [], searches: 0, spells: [] }]));
}

/** Gold in a find this seat saw in full: "gold_25", or "... and 20 gold" in a special find's text. */
function goldOf(e) {
  const card = /^gold_(\d+)$/.exec(String(e.find ?? ""));
  if (card) return Number(card[1]);
  const said = /\b(\d+) gold\b/.exec(String(e.text ?? ""));
  return said ? Number(said[1]) : 0;
}

/** What each hero did in the quest, as far as these entries tell: hero -> story. */
export function heroStories(entries, view) {
  const stories = blank(view);
  const of = (hero) => stories.get(hero);
  for (const e of entries) {
    if ((e.type === "attack" || e.type === "spell" || e.type === "dread_spell_hit") && e.defeated) {
      of(e.attacker ?? e.hero)?.kills.push(defeatedName(e));
    }
    const target = of(e.target);
    if (target && (e.type === "attack" || e.type === "dread_spell_hit" || e.type === "dread_spell"))
      target.lost += Number(e.lost ?? e.hits ?? 0);
    if (e.type === "trap" && of(e.hero)) of(e.hero).lost += Number(e.lost ?? 0);
    if (e.type === "search" && e.search === "treasure" && e.find && of(e.hero)) {
      const story = of(e.hero);
      if (e.find === "hazard") story.lost += 1;
      if (e.find === "treasure")
        story.searches += 1; // another seat's find: only that there was one
      else if (!NO_FIND.has(e.find)) {
        const gold = goldOf(e);
        story.gold += gold;
        if (!/^gold_/.test(e.find)) story.finds.push(e.find);
      }
    }
    if (e.type === "spell" && of(e.hero) && e.spell) of(e.hero).spells.push(e.spell);
  }
  return stories;
}

const NUMBERS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];

/** "two orcs and the goblin": what a hero defeated, counted by name. */
function killsText(kills) {
  const counts = new Map();
  for (const k of kills) counts.set(k, (counts.get(k) ?? 0) + 1);
  return joinNames([...counts].map(([name, n]) => (n === 1 ? name : `${NUMBERS[n] ?? n} × ${name.replace(/^the /, "")}`)));
}

/** "a potion of healing", "the Ember Key": a find's shown name. */
function findName(find) {
  const name = String(find).replace(/_/g, " ");
  return /^(the|a|an) /i.test(name) || /^[A-Z]/.test(name) ? name : `a ${name}`;
}

/** One hero's story as sentence parts: ["defeated the orc and the second orc", "lost 3 Body", ...]. */
export function storyParts(story) {
  const parts = [];
  if (story.kills.length) parts.push(`defeated ${killsText(story.kills)}`);
  parts.push(story.lost ? `lost ${story.lost} Body` : "lost no Body");
  const found = [story.gold ? `${story.gold} gold` : "", ...story.finds.map(findName)].filter(Boolean);
  if (found.length) parts.push(`found ${joinNames(found)}`);
  if (story.searches) parts.push(`found treasure ${story.searches === 1 ? "once" : `${NUMBERS[story.searches] ?? story.searches} times`}`);
  if (story.spells.length) parts.push(`cast ${joinNames([...new Set(story.spells)].map(spellName))}`);
  return parts;
}
