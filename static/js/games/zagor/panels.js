// Legend of Zagor's side panels: whose turn, the legal actions as buttons, the fight, the d10s
// of the last roll, the hero sheets (the seat's own spells and chests only for itself, as the
// view gives them), the Store, the outcome. All text goes in through el() (textContent).

import { el, fill } from "../../table/dom.js";
import { d10 } from "./draw.js";
import {
  actionLabel,
  diceOf,
  firstName,
  groupActions,
  heroOf,
  ITEM_TEXT,
  outcomeText,
  scoreText,
  spaceLabel,
  surrenderChoices,
  targetKind,
  WHEN_TEXT,
} from "./model.js";

const dot = (hero) => el("span", { class: `hero-dot hero-fill-${hero}`, "aria-hidden": "true" });

/** Whose turn it is, the round and what is left of the turn. */
export function renderTurn(node, view, seatNames = {}) {
  const turn = view.turn ?? {};
  const hero = heroOf(view, turn.hero);
  const mine = !view.over && view.me && turn.seat === view.seat;
  node.classList.toggle("your-turn", Boolean(mine));
  const who = view.over ? "The game is over" : hero ? `${hero.name}'s turn` : "";
  const player = seatNames[String(turn.seat)] ?? seatNames[turn.seat];
  fill(
    node,
    el("p", { class: "turn-who" }, hero ? dot(hero.hero) : null, who, mine ? el("span", { class: "your-turn-badge" }, "Your turn") : null),
    el(
      "dl",
      { class: "turn-facts small" },
      el("div", {}, el("dt", {}, "Round"), el("dd", {}, `${view.round} of ${view.round_limit}`)),
      !view.over && player && !mine ? el("div", {}, el("dt", {}, "Player"), el("dd", {}, player)) : null,
      !view.over ? el("div", {}, el("dt", {}, "Moves left"), el("dd", {}, String(turn.moves_left ?? 0))) : null,
      !view.over ? el("div", {}, el("dt", {}, "Spells left"), el("dd", {}, String(turn.spells_left ?? 0))) : null,
    ),
  );
}

/** The spoken sentence when the turn passes (screen readers). */
export function turnAnnouncement(view) {
  if (view.over) return outcomeText(view);
  const hero = heroOf(view, view.turn?.hero);
  const mine = view.me && view.turn?.seat === view.seat;
  return mine ? `Your turn: ${hero?.name ?? ""}.` : `${hero?.name ?? "Someone"}'s turn.`;
}

/**
 * The seat's legal actions as buttons. `ui.selecting` is the cast / use waiting for a space or a
 * hero on the board; `on` = {act(action), select(group|null)}.
 */
export function renderActions(node, view, placed, ui, on) {
  const g = groupActions(view);
  const groups = [];
  const button = (a, cls = "") =>
    el("button", { type: "button", class: cls || null, onclick: () => on.act(a) }, actionLabel(view, placed, a));
  if (!view.me) {
    fill(node, el("p", { class: "muted small" }, view.over ? "The game is over." : "You are watching."));
    return;
  }
  if (!view.legal_actions?.length) {
    const hero = heroOf(view, view.turn?.hero);
    fill(node, el("p", { class: "muted small" }, view.over ? "The game is over." : `Waiting for ${hero?.name ?? "the next hero"}.`));
    return;
  }
  if (g.fight.length)
    groups.push(
      group(
        "Fight",
        g.fight.map((a) => button(a, a.type === "strike" ? "primary" : "")),
      ),
    );
  if (g.spoils.length)
    groups.push(
      group(
        "Spoils of the duel",
        g.spoils.map((a) => button(a)),
      ),
    );
  if (g.attacks.size)
    groups.push(
      group(
        "Attack a hero",
        [...g.attacks.values()].map((a) => button(a)),
      ),
    );
  if (g.uses.size) {
    const items = [];
    for (const [item, list] of g.uses) {
      if (list.length === 1 && targetKind(view, placed, list[0].target) !== "space") items.push(button(list[0]));
      else items.push(selectButton(`Use ${item}…`, { kind: "use", name: item }, ui, on));
    }
    groups.push(group("Items", items));
  }
  if (ui.selecting) groups.push(selectingHint(view, placed, ui, on));
  if (g.moves.size) {
    const moves = [...g.moves.values()];
    groups.push(
      el(
        "div",
        { class: "action-group" },
        el("p", { class: "action-group-title" }, "Move"),
        el("p", { class: "hint small muted" }, "Tap a lit space on the board, or choose here."),
        el(
          "details",
          { class: "move-list" },
          el("summary", {}, `${moves.length} places to go`),
          el(
            "div",
            { class: "actions" },
            moves.map((a) => button(a)),
          ),
        ),
      ),
    );
  }
  if (g.ends.length)
    groups.push(
      group(
        "End of turn",
        g.ends.map((a, i) => button(a, i === 0 ? "end-turn" : "")),
      ),
    );
  fill(node, groups);
}

function group(title, buttons) {
  return el("div", { class: "action-group" }, el("p", { class: "action-group-title" }, title), el("div", { class: "actions" }, buttons));
}

function selectButton(label, what, ui, on) {
  const pressed = ui.selecting?.kind === what.kind && ui.selecting?.name === what.name;
  return el(
    "button",
    {
      type: "button",
      class: pressed ? "selected" : null,
      "aria-pressed": pressed ? "true" : "false",
      onclick: () => on.select(pressed ? null : what),
    },
    label,
  );
}

/** While a cast or a use waits for its target: the targets as buttons too, and Cancel. */
function selectingHint(view, placed, ui, on) {
  const list = targetsOf(view, ui.selecting);
  return el(
    "div",
    { class: "action-group spell-targets" },
    el("p", { class: "action-group-title" }, `${ui.selecting.kind === "cast" ? "Cast" : "Use"} ${ui.selecting.name}: choose a target`),
    el("p", { class: "hint small muted" }, "Tap a ringed space or hero on the board, or choose here."),
    el(
      "div",
      { class: "actions" },
      list.map((a) => el("button", { type: "button", onclick: () => on.act(a) }, actionLabel(view, placed, a))),
      el("button", { type: "button", class: "link", onclick: () => on.select(null) }, "Cancel"),
    ),
  );
}

/** The legal actions a selection stands for. */
export function targetsOf(view, selecting) {
  if (!selecting) return [];
  const g = groupActions(view);
  return (selecting.kind === "cast" ? g.casts.get(selecting.name) : g.uses.get(selecting.name)) ?? [];
}

/** The seat's own spell cards, each with its text and when it may be cast, and its cast buttons. */
export function renderSpells(node, view, placed, ui, on) {
  const me = view.me;
  if (!me) {
    node.hidden = true;
    return;
  }
  node.hidden = false;
  const hero = heroOf(view, me.hero);
  const casts = groupActions(view).casts;
  const cards = me.spells.map((spell) => {
    const list = casts.get(spell.name) ?? [];
    const whenText = spell.when.map((w) => WHEN_TEXT[w] ?? w).join(", ");
    let cast = null;
    if (list.length === 1 && targetKind(view, placed, list[0].target) === "none") {
      cast = el("button", { type: "button", class: "primary", onclick: () => on.act(list[0]) }, `Cast ${spell.name}`);
    } else if (list.length) {
      cast = selectButton(`Cast ${spell.name}…`, { kind: "cast", name: spell.name }, ui, on);
    }
    return el(
      "article",
      { class: "spell-card", dataset: { spell: spell.name } },
      el("h3", { class: "spell-card-title" }, spell.name),
      el("p", { class: "spell-card-kind small muted" }, `Cast ${whenText}`),
      el("p", { class: "spell-card-text" }, spell.text),
      cast,
    );
  });
  fill(
    node,
    el("h2", { class: "panel-title" }, "Your spell cards"),
    cards.length
      ? el("div", { class: "spell-cards" }, cards)
      : el("p", { class: "muted small" }, hero?.in_crypt ? "No spells in the Crypt." : "You hold no spell card."),
    el("p", { class: "small muted" }, `You may hold ${hero?.hand_limit ?? 1}. Only you see your cards; the others see how many.`),
  );
}

/** The fight under way: the monster's announced figures, Zagor's, or the duel. */
export function renderFight(node, view) {
  const fight = view.fight;
  node.hidden = !fight;
  if (!fight) return;
  const hero = heroOf(view, fight.hero);
  if (fight.kind === "duel") {
    fill(
      node,
      el("h2", { class: "panel-title" }, "Duel"),
      el("p", {}, `${hero?.name ?? fight.hero} attacks ${heroOf(view, fight.foe)?.name ?? fight.foe}.`),
      el("p", { class: "small muted" }, `Exchanges so far: ${fight.exchanges}`),
    );
    return;
  }
  const title = fight.kind === "zagor" ? "Zagor himself" : fight.kind === "dragon" ? "The Flame Dragon" : fight.foe;
  fill(
    node,
    el("h2", { class: "panel-title" }, `Fight: ${title}`),
    el(
      "dl",
      { class: "stat-grid" },
      el("div", {}, el("dt", {}, "Strength"), el("dd", {}, String(fight.strength))),
      el("div", {}, el("dt", {}, "Stamina"), el("dd", { class: "fight-stamina" }, String(fight.stamina))),
      el("div", {}, el("dt", {}, "Exchanges"), el("dd", {}, String(fight.exchanges))),
    ),
    el(
      "p",
      { class: "small muted" },
      `${hero?.name ?? ""} fights. The monster attacks first: a roll higher than your Strength hurts; yours at least its Strength hits.`,
    ),
  );
}

/**
 * The d10s of the newest roll, drawn as dice under `title`; `fresh` makes them tumble once,
 * `earlier` says they were rolled before this turn began (they stay on the table until the
 * next roll).
 */
export function renderDice(node, entries, { fresh = false, earlier = false, title = "The last roll" } = {}) {
  const dice = diceOf(entries);
  node.hidden = !dice.length;
  if (!dice.length) return;
  node.classList.toggle("earlier", earlier);
  fill(
    node,
    el("h2", { class: "panel-title" }, title),
    earlier ? el("p", { class: "small muted d10-when" }, "Rolled before this turn began.") : null,
    el(
      "ul",
      { class: `d10-list${fresh ? " rolling" : ""}` },
      dice.map((d) =>
        el(
          "li",
          { class: "d10-roll", dataset: { value: String(d.value) } },
          d10(d.value, `${d.who || "A roll"}: ${d.value}`),
          el("span", { class: "small" }, d.who),
        ),
      ),
    ),
    el("p", { class: "small muted" }, entries.map((e) => e.text).join(" ")),
  );
}

/**
 * Every hero's sheet; the seat's own with its chest contents and the surrender setting
 * (`on.saveSurrender(n)`).
 */
export function renderSheets(node, view, seatNames = {}, on = null) {
  const sheets = (view.heroes ?? []).map((hero) => {
    const mine = view.me?.hero === hero.hero;
    const acting = view.turn?.hero === hero.hero && !view.over;
    const player = seatNames[String(hero.seat)] ?? seatNames[hero.seat];
    const status = [];
    if (hero.misses_turns) status.push(`misses ${hero.misses_turns} turn${hero.misses_turns > 1 ? "s" : ""}`);
    if (hero.frozen) status.push("may not move next turn");
    if (hero.mind_blank) status.push("may not cast next turn");
    if (hero.invisible) status.push("invisible");
    if (hero.in_crypt) status.push("in the Crypt");
    for (const order of hero.orders ?? []) status.push(`Zagor's order: ${order}`);
    return el(
      "article",
      { class: `hero-sheet${acting ? " acting" : ""}${mine ? " mine" : ""}`, dataset: { hero: hero.hero } },
      el(
        "h3",
        {},
        dot(hero.hero),
        hero.name,
        mine ? el("span", { class: "tag" }, "you") : player ? el("span", { class: "muted small" }, ` (${player})`) : null,
      ),
      el(
        "dl",
        { class: "sheet-facts" },
        fact("Strength", hero.defence !== hero.strength ? `${hero.strength} (defence ${hero.defence})` : String(hero.strength)),
        fact("Stamina", staminaBar(hero)),
        fact("Gold", String(hero.gold)),
        fact("Chests", `${hero.chests} of ${hero.chest_limit}`, hero.orb ? el("span", { class: "tag tag-orb" }, "the Orb") : null),
        fact("Spells", `${hero.spells} of ${hero.hand_limit}`),
        fact(
          "Hireling",
          hero.hireling ? `${hero.hireling.name} (Strength ${hero.hireling.strength}, Stamina ${hero.hireling.stamina})` : "none",
        ),
        fact("Equipment", hero.equipment.length ? hero.equipment.join(", ") : "none"),
        fact("Score", scoreText(hero)),
      ),
      status.length ? el("p", { class: "small tag-status" }, status.join(" · ")) : null,
      mine ? ownPart(view, hero, on) : null,
    );
  });
  fill(node, sheets);
}

function fact(name, ...value) {
  return el("div", {}, el("dt", {}, name), el("dd", {}, ...value));
}

function staminaBar(hero) {
  const pips = [];
  for (let i = 1; i <= hero.stamina_max; i++) pips.push(el("span", { class: i <= hero.stamina ? "pip-on" : "pip-off" }));
  return el(
    "span",
    { class: "pip-stat" },
    el("span", { class: "pips", "aria-hidden": "true" }, pips),
    el("span", { class: "pip-num" }, `${hero.stamina} of ${hero.stamina_max}`),
  );
}

function ownPart(view, hero, on) {
  const me = view.me;
  const chests = me.chests.length
    ? el(
        "ul",
        { class: "own-chests small" },
        me.chests.map((c) => el("li", {}, `Chest ${c.number}: ${c.content}`)),
      )
    : el("p", { class: "small muted" }, "No chest cards.");
  const select = el(
    "select",
    { id: "surrender-at", name: "surrender_at" },
    surrenderChoices(hero).map((n) =>
      el("option", { value: String(n), selected: n === me.surrender_at ? true : null }, n === 0 ? "never" : `${n} or less`),
    ),
  );
  const form = el(
    "form",
    {
      class: "surrender-form",
      id: "surrender-form",
      onsubmit: (e) => {
        e.preventDefault();
        on?.saveSurrender(Number(select.value));
      },
    },
    el("label", { for: "surrender-at", class: "small" }, "Surrender a duel at Stamina"),
    select,
    el("button", { type: "submit", class: "small-button", id: "surrender-save" }, "Save"),
    el(
      "span",
      { class: "small muted", id: "surrender-saved", "aria-live": "polite" },
      me.surrender_at ? `Now: at ${me.surrender_at} or less.` : "Now: never.",
    ),
  );
  return el(
    "div",
    { class: "own-sheet" },
    el("p", { class: "small own-title" }, "Only you see this:"),
    chests,
    form,
    el("p", { class: "small muted" }, "When another hero attacks you, you answer by this setting."),
  );
}

/** The Dungeon Store, when it is open to the seat's hero: every item, its price, Buy if legal. */
export function renderStore(node, view, on) {
  const me = view.me;
  const open = Boolean(me?.store?.open);
  node.hidden = !open;
  if (!open) return;
  const hero = heroOf(view, me.hero);
  const buys = groupActions(view).buys;
  const rows = Object.entries(me.store.prices).map(([item, price]) => {
    const a = buys.get(item);
    const owned = hero?.equipment.includes(item);
    return el(
      "li",
      { class: "store-item", dataset: { item } },
      el("span", { class: "store-name" }, item, el("span", { class: "small muted store-text" }, ` ${ITEM_TEXT[item] ?? ""}`)),
      el("span", { class: "store-price" }, `${price} gold`),
      a
        ? el("button", { type: "button", class: "small-button", onclick: () => on.act(a) }, "Buy")
        : el("span", { class: "small muted" }, owned ? "owned" : price > (hero?.gold ?? 0) ? "too dear" : "—"),
    );
  });
  fill(
    node,
    el("h2", { class: "panel-title" }, "The Dungeon Store"),
    el("p", { class: "small muted" }, `You have ${hero?.gold ?? 0} gold. Nothing is sold back.`),
    el("ul", { class: "store-list" }, rows),
  );
}

/** The end of the game: who won. */
export function renderOutcome(node, view, lobbyUrl) {
  node.hidden = !view.over;
  if (!view.over) return;
  const won = view.outcome?.startsWith("hero:");
  node.className = `outcome-banner ${won ? "outcome-heroes" : "outcome-zargon"}`;
  fill(
    node,
    el("h2", { class: "outcome-title", id: "outcome-title" }, won ? "Victory" : "Zagor keeps his crypt"),
    el("p", { class: "outcome-text" }, outcomeText(view)),
    el("p", { class: "outcome-links small" }, el("a", { href: lobbyUrl || "/" }, "Back to the lobby")),
  );
}

/** Words for the board's accessible label. */
export function boardSummary(view, placed) {
  const hero = heroOf(view, view.turn?.hero);
  const where = hero ? spaceLabel(placed, hero.space) : "";
  return `The dungeon, round ${view.round}. ${hero ? `${firstName(view, hero.hero)} stands on ${where}.` : ""} The action buttons list every move.`;
}
