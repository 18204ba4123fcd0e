// The side panel: turn status, action buttons, hero sheets, quest text, dice tray and log.

import { diceList } from "./dice.js";
import { el, fill } from "../../table/dom.js";
import { storyParts } from "./quest_end.js";
import { actionKey, actionsOf, activeMonsterIds, castableSpells, placeName, SIDES, stepMoves, throwableWeapons } from "./model.js";
import { heroDisplay, heroName, heroRef, joinNames, monsterLabel, monsterRef, pretty, spellName, trapName } from "./names.js";
import { spellCard, TREASURE_CARDS } from "./rules.js";
import { doorName } from "./story.js";

const cap = (s) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : s);

/** A readable name for a cast/attack target id, as used inside a sentence. */
function targetName(index, target) {
  const m = index.monsters.get(target);
  if (m) return monsterRef(m);
  if (index.heroes.has(target)) return heroRef(index.heroes.get(target));
  if (index.doorsById.has(target)) return doorName(index, target);
  return "a target";
}

/** "handaxe" -> "handaxe" (lower case, for use inside a sentence). */
function weaponName(weapon) {
  return pretty(weapon).toLowerCase();
}

const SIDE_NAMES = { N: "north", E: "east", S: "south", W: "west" };
const SIDE_ARROWS = { N: "↑", E: "→", S: "↓", W: "←" };

/** " to the north" when the trap lies on a square next to the hero, else "" (a chest's trap). */
function trapSide(index, hero, trap) {
  const at = index.heroes.get(hero)?.position;
  if (!at || !trap?.square || trap.furniture) return "";
  const dx = trap.square[0] - at[0];
  const dy = trap.square[1] - at[1];
  const side = Object.entries(SIDES).find(([, [x, y]]) => x === dx && y === dy)?.[0];
  return side ? ` to the ${SIDE_NAMES[side]}` : "";
}

/** The button label for a legal action. */
export function actionLabel(action, index) {
  const t = action.type;
  switch (t) {
    case "roll_movement":
      return "Roll for movement";
    case "move":
      return `Move to ${placeName(index, action.to) || "the next square"}`;
    case "open_door":
      return `Open ${doorName(index, action.door)}`;
    case "attack":
      return `Attack ${targetName(index, action.target)}`;
    case "throw":
      return `Throw the ${weaponName(action.weapon)} at ${targetName(index, action.target)}`;
    case "cast":
      return `${spellName(action.spell)} on ${targetName(index, action.target)}`;
    case "search_treasure":
      return "Search for treasure";
    case "search_traps":
      return "Search for traps";
    case "search_secret_doors":
      return "Search for secret doors";
    case "disarm": {
      const trap = (index.view.map?.traps ?? []).find((x) => x.id === action.trap);
      return `Disarm the ${trap ? trapName(trap.kind) : "trap"}${trapSide(index, action.hero, trap)}`;
    }
    case "jump": {
      const trap = (index.view.map?.traps ?? []).find((x) => x.id === action.trap);
      return `Jump the ${trap ? trapName(trap.kind) : "trap"}`;
    }
    case "drink_potion":
      return `Drink a healing potion (${heroName(action.hero)})`;
    case "give": {
      const what = action.item === "potion" ? "a potion" : action.item === "gold" ? `${action.amount} gold` : action.item;
      return `Give ${what} to the ${heroName(action.recipient)}`;
    }
    case "leave_block":
      return `Step off the fallen block to ${action.to?.join(", ")}`;
    case "choose_spells":
      return `Choose the ${action.element} spells`;
    case "monster_cast": {
      const m = index.monsters.get(action.monster);
      const at = index.heroes.has(action.target)
        ? ` at the ${heroName(action.target)}`
        : action.target === action.monster
          ? ""
          : ` to the ${SIDE_NAMES[action.target] ?? action.target}`;
      return `${m ? monsterLabel(m) : "A monster"}: cast ${spellName(action.spell)}${at}`;
    }
    case "command_move":
      return `Move the commanded ${heroName(action.target)} to ${action.to?.join(", ")}`;
    case "take_belongings": {
      const h = index.heroes.get(action.from);
      return `Take ${h ? heroRef(h) : `the ${heroName(action.from)}`}'s belongings`;
    }
    case "escape":
      return "Escape by the stairway";
    case "end_turn":
      return "End turn";
    case "monster_move":
      return `Move to ${placeName(index, action.to) || "the next square"}`;
    case "monster_attack": {
      const h = index.heroes.get(action.target);
      return `Attack ${h ? heroRef(h) : `the ${heroName(action.target)}`}`;
    }
    case "end_activation": {
      const m = index.monsters.get(action.monster);
      return `End activation${m ? ` of ${monsterLabel(m)}` : ""}`;
    }
    case "end_phase":
      return "End Zargon's phase";
    default:
      if (action.spell) return `${spellName(action.spell)}${action.target ? ` on ${targetName(index, action.target)}` : ""}`;
      return pretty(t);
  }
}

function actionButton(action, index, onAction, extra = {}) {
  const cls = ["act", `act-${action.type}`];
  if (action.type === "end_turn" || action.type === "end_phase") cls.push("primary");
  const { label, ...attrs } = extra;
  return el(
    "button",
    {
      type: "button",
      class: cls.join(" "),
      dataset: { action: action.type, act: actionKey(action) },
      onclick: () => onAction(action),
      ...attrs,
    },
    label ?? actionLabel(action, index),
  );
}

/** In a solo room (data-ai_seat="ai" on the page) the monster AI is playing, not a person. */
function zargonWaitText(box, player) {
  if (box.closest("[data-ai-seat]")?.dataset.ai_seat === "ai") return "The monster AI is playing Zargon's phase…";
  return `Waiting for Zargon${player ? ` (${player})` : ""}…`;
}

/**
 * Whose turn, movement, action used, and the "your turn" highlight. `seatNames`: seat -> player.
 * `step`: in a replay, the step shown (`{n, action}`), told instead of who is awaited.
 */
export function renderTurn(box, view, index, seatNames = {}, { step = null } = {}) {
  const turn = view.turn ?? {};
  const mine = (view.legal_actions ?? []).length > 0;
  box.classList.toggle("your-turn", mine);
  const rows = [];
  let who;
  if (turn.phase === "over" || view.outcome) who = "The quest is over";
  else if (turn.phase === "monsters") who = "Zargon's phase: the monsters move";
  else if (turn.hero) who = `${cap(heroRef(index.heroes.get(turn.hero) ?? { hero: turn.hero }))}'s turn`;
  else who = "Waiting";
  const head = el("p", { class: "turn-who" });
  if (turn.phase === "heroes" && turn.hero) head.appendChild(el("span", { class: `hero-dot hero-fill-${turn.hero}` }));
  head.appendChild(document.createTextNode(who));
  if (mine) head.appendChild(el("span", { class: "your-turn-badge" }, "Your turn"));
  rows.push(el("p", { class: "turn-round muted small" }, `Round ${view.round ?? "?"} · ${view.quest?.name ?? ""}`));
  rows.push(head);
  if (step) {
    const what = step.action ? actionLabel(step.action, index) : "The quest begins";
    rows.push(el("p", { class: "muted small turn-waiting turn-step" }, `Step ${step.n}: ${what}.`));
  } else if (!mine && turn.phase !== "over" && !view.outcome) {
    const player = seatNames[turn.seat] ?? seatNames[String(turn.seat)];
    const waiting = turn.seat === 1 ? zargonWaitText(box, player) : `Waiting for ${player ?? "the next player"}…`;
    rows.push(el("p", { class: "muted small turn-waiting" }, waiting));
  }
  if (turn.phase === "heroes" && turn.hero) {
    rows.push(
      el(
        "dl",
        { class: "turn-facts" },
        el(
          "div",
          {},
          el("dt", {}, "Movement"),
          el("dd", { "data-field": "movement" }, turn.movement_rolled ? `${turn.movement_left} left` : "not rolled"),
        ),
        el("div", {}, el("dt", {}, "Moved"), el("dd", {}, turn.has_moved ? "yes" : "not yet")),
        el("div", {}, el("dt", {}, "Action"), el("dd", { "data-field": "action" }, turn.has_acted ? "used" : "available")),
      ),
    );
  } else if (turn.phase === "monsters" && turn.active_monster) {
    const m = index.monsters.get(turn.active_monster);
    rows.push(
      el(
        "dl",
        { class: "turn-facts" },
        el("div", {}, el("dt", {}, "Active"), el("dd", {}, m ? monsterLabel(m) : "a monster")),
        el("div", {}, el("dt", {}, "Movement"), el("dd", { "data-field": "movement" }, `${turn.monster_movement_left ?? "?"} left`)),
        el("div", {}, el("dt", {}, "Attack"), el("dd", { "data-field": "action" }, turn.monster_has_attacked ? "used" : "available")),
      ),
    );
  }
  fill(box, rows);
}

/** One line for the screen reader when the turn passes: "The Elf's turn. Your turn." */
export function turnAnnouncement(view, index, seatNames = {}) {
  const turn = view.turn ?? {};
  if (view.outcome) return "The quest is over.";
  const mine = (view.legal_actions ?? []).length > 0;
  if (turn.phase === "monsters") return `Zargon's phase.${mine ? " Your turn." : ""}`;
  if (turn.hero)
    return `${cap(heroRef(index.heroes.get(turn.hero) ?? { hero: turn.hero }))}'s turn.${mine ? " Your turn." : ` Waiting for ${seatNames[turn.seat] ?? "the next player"}.`}`;
  return "";
}

function group(title, ...buttons) {
  const items = buttons.flat(Infinity).filter(Boolean);
  if (!items.length) return null;
  return el("div", { class: "action-group" }, el("h3", { class: "action-group-title" }, title), el("div", { class: "actions" }, items));
}

/** A toggle button that picks a spell or a thrown weapon before its target. */
function selector(kind, value, label, selected, onSelect, title = null) {
  return el(
    "button",
    {
      type: "button",
      class: `act act-${kind}${selected ? " selected" : ""}`,
      "aria-pressed": selected ? "true" : "false",
      dataset: { [kind]: value },
      onclick: () => onSelect(selected ? null : value),
      title,
    },
    label,
  );
}

/** The spell's card (docs/rules.md 8 or 8b), shown before its target is chosen. */
export function spellCardNode(spell, { dread = false } = {}) {
  const card = spellCard(spell, { dread });
  if (!card) return null;
  return el(
    "div",
    { class: `spell-card spell-${card.kind}`, dataset: { spell } },
    el("p", { class: "spell-card-title" }, spellName(spell), el("span", { class: "spell-card-kind" }, `${card.element} · ${card.kind}`)),
    el("p", { class: "spell-card-text" }, card.text),
  );
}

/** The target list shown under a selected spell or weapon. */
function targetList(kind, prompt, buttons) {
  return el(
    "div",
    { class: `spell-targets ${kind}-targets` },
    el("p", { class: "small muted" }, `${prompt} Esc cancels.`),
    el("div", { class: "actions" }, buttons),
  );
}

/** "Step north, into the Guard Room" (or just "Step north" where the board shows nothing). */
function stepLabel(side, action, index) {
  const where = placeName(index, action.to);
  return `Step ${SIDE_NAMES[side]}${where ? `, in ${where}` : ""}`;
}

/** N/E/S/W buttons for the legal single steps: reach squares the board cannot draw, no mouse needed. */
function stepPad(view, index, h) {
  const actor = index.heroes.get(view.turn?.hero);
  const steps = stepMoves(view, actor?.position ?? null);
  if (!steps.length) return null;
  return el(
    "div",
    { class: "step-pad", role: "group", "aria-label": "Step one square" },
    steps.map(({ side, action }) =>
      actionButton(action, index, h.onAction, {
        label: `${SIDE_ARROWS[side]} ${pretty(SIDE_NAMES[side])}`,
        "aria-label": stepLabel(side, action, index),
        title: stepLabel(side, action, index),
        dataset: { action: "move", act: actionKey(action), side },
      }),
    ),
  );
}

function heroActionGroups(view, index, ui, h) {
  const btn = (a) => actionButton(a, index, h.onAction);
  const of = (type) => actionsOf(view, type).map(btn);
  const spells = castableSpells(view).map((spell) =>
    selector("spell", spell, spellName(spell), ui.spell === spell, h.onSelectSpell, spellCard(spell)?.text),
  );
  const spellTargets = ui.spell
    ? [
        spellCardNode(ui.spell),
        targetList(
          "spell",
          `Choose a target for ${spellName(ui.spell)} (on the board or here).`,
          actionsOf(view, "cast", (a) => a.spell === ui.spell).map(btn),
        ),
      ]
    : null;
  const throws = throwableWeapons(view).map((weapon) =>
    selector("throw", weapon, `Throw ${weaponName(weapon)}`, ui.throw === weapon, h.onSelectThrow),
  );
  const throwTargets = ui.throw
    ? targetList(
        "throw",
        `Choose a target for the ${weaponName(ui.throw)} (on the board or here); the ${weaponName(ui.throw)} is lost.`,
        actionsOf(view, "throw", (a) => a.weapon === ui.throw).map(btn),
      )
    : null;
  const moves = actionsOf(view, "move").length
    ? el("p", { class: "small muted hint" }, "Tap a green square to move (arrow keys step too).")
    : null;
  return [
    group("Spell draft", of("choose_spells")),
    group("Movement", of("roll_movement"), stepPad(view, index, h), moves),
    group("Fight", of("attack"), throws, throwTargets),
    group("Spells", spells, spellTargets),
    group("Search", of("search_treasure"), of("search_traps"), of("search_secret_doors")),
    group("Traps and doors", of("disarm"), of("jump"), of("open_door")),
    group("Fallen block", of("leave_block")),
    group("Free actions", of("drink_potion"), of("give"), of("take_belongings")),
    group("Leave", of("escape")),
  ];
}

function zargonActionGroups(view, index, ui, h) {
  const btn = (a) => actionButton(a, index, h.onAction);
  const monsters = activeMonsterIds(view).map((id) => {
    const m = index.monsters.get(id);
    return el(
      "button",
      {
        type: "button",
        class: `act act-select${ui.monster === id ? " selected" : ""}`,
        "aria-pressed": ui.monster === id ? "true" : "false",
        dataset: { monster: id },
        onclick: () => h.onSelectMonster(ui.monster === id ? null : id),
      },
      m ? monsterLabel(m) : "A monster",
    );
  });
  const sel = ui.monster;
  const selPos = sel ? (index.monsters.get(sel)?.position ?? null) : null;
  const steps = stepMoves(view, selPos, "monster_move", (a) => a.monster === sel);
  const pad = steps.length
    ? el(
        "div",
        { class: "step-pad", role: "group", "aria-label": "Step one square" },
        steps.map(({ side, action }) =>
          actionButton(action, index, h.onAction, {
            label: `${SIDE_ARROWS[side]} ${pretty(SIDE_NAMES[side])}`,
            "aria-label": stepLabel(side, action, index),
            title: stepLabel(side, action, index),
            dataset: { action: "monster_move", act: actionKey(action), side },
          }),
        ),
      )
    : null;
  const selActions = sel
    ? [
        pad,
        actionsOf(view, "monster_move", (a) => a.monster === sel).length
          ? el("p", { class: "small muted hint" }, "Tap a green square to move it (arrow keys step too).")
          : null,
        actionsOf(view, "monster_attack", (a) => a.monster === sel).map(btn),
        actionsOf(view, "end_activation", (a) => a.monster === sel).map(btn),
      ]
    : [el("p", { class: "small muted hint" }, "Select a monster (tap it on the board) to move or attack.")];
  const dread = actionsOf(view, "monster_cast").map(btn);
  const commands = actionsOf(view, "command_move").map(btn);
  return [
    group("Monsters", monsters),
    group("Selected monster", selActions),
    group("Dread spells", dread),
    group("Command a hero", commands),
  ];
}

/**
 * Every action type of docs/engine-api.md and the control that offers it (tests check the list
 * against the doc). Types not listed here still get a plain button under "Other".
 */
export const CONTROLS = {
  roll_movement: "button",
  move: "board square (green, or an outline where the board draws nothing), N/E/S/W buttons, arrow keys",
  open_door: "board door, button",
  attack: "board target, button",
  throw: "weapon button, then a board target or a target button",
  cast: "spell button, then a board target or a target button",
  search_treasure: "button",
  search_traps: "button",
  search_secret_doors: "button",
  disarm: "button",
  jump: "board square, button",
  drink_potion: "button",
  give: "button",
  leave_block: "button",
  choose_spells: "button",
  monster_cast: "button",
  command_move: "button",
  take_belongings: "button",
  set_auto_drink: "checkbox on the hero sheet (never listed in legal_actions)",
  escape: "button",
  end_turn: "button, Enter",
  monster_move: "monster button or board monster, then a board square",
  monster_attack: "monster button or board monster, then a board target or a button",
  end_activation: "monster button or board monster, then a button",
  end_phase: "button, Enter",
};
const KNOWN = new Set(Object.keys(CONTROLS));

/** Buttons for every legal action that is not only a board click. */
export function renderActions(box, view, index, ui, handlers) {
  const legal = view.legal_actions ?? [];
  if (view.role === "spectator") {
    fill(box, el("p", { class: "muted small" }, "You are watching: spectators see what the heroes all see, and do not play."));
    return;
  }
  if (!legal.length) {
    fill(box, el("p", { class: "muted small" }, view.outcome ? "No more moves: the quest is over." : "Nothing to do until your turn."));
    return;
  }
  const groups = view.role === "zargon" ? zargonActionGroups(view, index, ui, handlers) : heroActionGroups(view, index, ui, handlers);
  const unknown = legal.filter((a) => !KNOWN.has(a.type));
  // Spells cast by a monster (Dread spells, docs/rules.md 8b): each with its card, before casting.
  const dread = [...new Set(unknown.filter((a) => a.spell).map((a) => a.spell))].map((spell) => [
    spellCardNode(spell, { dread: true }),
    unknown.filter((a) => a.spell === spell).map((a) => actionButton(a, index, handlers.onAction)),
  ]);
  const other = unknown.filter((a) => !a.spell).map((a) => actionButton(a, index, handlers.onAction));
  const enders = [...actionsOf(view, "end_turn"), ...actionsOf(view, "end_phase")].map((a) =>
    actionButton(a, index, handlers.onAction, { title: "Enter" }),
  );
  // Ending comes first: on a phone it stays in view under the turn card.
  const hint = enders.length ? el("span", { class: "small muted enter-hint" }, "or Enter on the map") : null;
  fill(
    box,
    enders.length ? el("div", { class: "actions end-actions" }, enders, hint) : null,
    groups,
    group("Dread spells", dread),
    group("Other", other),
  );
}

function statRow(label, value) {
  return [el("dt", {}, label), el("dd", {}, value)];
}

function pips(current, max) {
  const wrap = el("span", { class: "pips", role: "img", "aria-label": `${current} of ${max}` });
  for (let i = 0; i < max; i++) wrap.appendChild(el("span", { class: i < current ? "pip-on" : "pip-off" }));
  return el("span", { class: "pip-stat" }, wrap, el("span", { class: "pip-num" }, `${current}/${max}`));
}

/** The owner's auto-drink switch (set_auto_drink: free, any time, never in legal_actions). */
function autoDrinkToggle(h, onAction) {
  const box = el("input", {
    type: "checkbox",
    class: "auto-drink-box",
    dataset: { action: "set_auto_drink", hero: h.hero },
    onchange: (e) => onAction({ type: "set_auto_drink", hero: h.hero, on: e.target.checked }),
  });
  box.checked = Boolean(h.auto_drink);
  return el("label", { class: "auto-drink small" }, box, "Drink a healing potion automatically at 0 Body");
}

function heroSheet(h, view, onAction) {
  const owned = (view.heroes_owned ?? []).includes(h.hero);
  const acting = view.turn?.phase === "heroes" && view.turn?.hero === h.hero;
  const status = h.status === "playing" ? (h.in_pit ? "in a pit" : "") : h.status;
  const rows = [
    ...statRow("Body", pips(h.body ?? 0, h.body_max ?? 0)),
    ...statRow("Mind", pips(h.mind ?? 0, h.mind_max ?? 0)),
    ...statRow("Attack / Defend", `${h.attack ?? "?"} / ${h.defend ?? "?"}`),
    ...statRow("Weapon", pretty(h.weapon) || "none"),
    ...statRow("Armour", (h.armour ?? []).map(pretty).join(", ") || "none"),
  ];
  if ((h.effects ?? []).length) rows.push(...statRow("Effects", h.effects.map(pretty).join(", ")));
  if ("spells" in h) rows.push(...statRow("Spells left", (h.spells ?? []).map(spellName).join(", ") || "none"));
  if ("potions" in h) rows.push(...statRow("Potions", String(h.potions ?? 0)));
  if ("gold" in h) rows.push(...statRow("Gold", String(h.gold ?? 0)));
  if ("tool_kit" in h) rows.push(...statRow("Tool kit", h.tool_kit ? "yes" : "no"));
  if ((h.artifacts ?? []).length) rows.push(...statRow("Artifacts", h.artifacts.map(pretty).join(", ")));
  // Only worth showing with a potion to drink (or to switch it back on).
  const wanted = (h.potions ?? 0) > 0 || h.auto_drink === false;
  const toggle =
    owned && "auto_drink" in h && wanted && onAction && h.status === "playing" && !view.outcome ? autoDrinkToggle(h, onAction) : null;
  return el(
    "article",
    { class: `hero-sheet${acting ? " acting" : ""}${owned ? " owned" : ""}`, dataset: { hero: h.hero } },
    el(
      "h3",
      {},
      el("span", { class: `hero-dot hero-fill-${h.hero}` }),
      heroDisplay(h),
      heroDisplay(h) !== heroName(h.hero) ? el("span", { class: "muted small" }, heroName(h.hero)) : null,
      owned ? el("span", { class: "tag" }, "yours") : null,
      status ? el("span", { class: "tag tag-status" }, status) : null,
    ),
    el("dl", { class: "sheet-facts" }, rows),
    toggle,
  );
}

/** Hero sheets: the seat's own heroes first, then the others. */
export function renderHeroes(box, view, onAction = null) {
  const owned = view.heroes_owned ?? [];
  const heroes = [...(view.heroes ?? [])].sort((a, b) => Number(owned.includes(b.hero)) - Number(owned.includes(a.hero)));
  fill(
    box,
    heroes.map((h) => heroSheet(h, view, onAction)),
  );
}

/** A monster's stat card (docs/rules.md 9): Move, Attack, Defend, Body left, Mind. */
export function monsterCardNode(m) {
  const facts = [
    ["Move", m.move],
    ["Attack", m.attack],
    ["Defend", m.defend],
    ["Body", `${m.body}/${m.body_max}`],
    ["Mind", m.mind],
  ].filter(([, v]) => v !== undefined && v !== null);
  const notes = [
    m.asleep ? "asleep" : "",
    m.tempest ? "caught in a Tempest" : "",
    m.activated ? "has acted this phase" : "",
    m.revealed === false ? "not yet revealed" : "",
  ].filter(Boolean);
  return el(
    "article",
    { class: `stat-card monster-stat-card${m.revealed === false ? " muted" : ""}`, dataset: { monster: m.id } },
    el("h3", { class: "stat-card-title" }, monsterLabel(m)),
    el(
      "dl",
      { class: "stat-grid" },
      facts.map(([k, v]) => el("div", {}, el("dt", {}, k), el("dd", {}, String(v)))),
    ),
    notes.length ? el("p", { class: "small muted" }, cap(notes.join(", "))) : null,
  );
}

/** Every monster on the board with its stat card (Zargon's roster; the heroes' "in sight"). */
export function renderMonsters(box, view) {
  const monsters = view.monsters ?? [];
  box.hidden = !monsters.length;
  if (!monsters.length) return;
  const wasOpen = box.open;
  const title = view.role === "zargon" ? `Monsters (${monsters.length})` : `Monsters on the board (${monsters.length})`;
  fill(box, el("summary", {}, title), el("div", { class: "stat-cards" }, monsters.map(monsterCardNode)));
  box.open = wasOpen;
}

/** The card of the monster last tapped on the board, with a close button. */
export function renderMonsterCard(box, view, monsterId, onClose) {
  const m = (view.monsters ?? []).find((x) => x.id === monsterId);
  box.hidden = !m;
  if (m) fill(box, monsterCardNode(m), el("button", { type: "button", class: "small-button", onclick: onClose }, "Close the card"));
}

/** A treasure find, shown as a card to its finder. */
export function renderFindCard(box, entry, onClose) {
  if (!entry) {
    box.hidden = true;
    return;
  }
  const card = TREASURE_CARDS[entry.find];
  const title = card?.title ?? String(entry.find ?? "Treasure");
  const text = card ? card.text : String(entry.text ?? "").replace(/^.*? and finds /, "");
  box.hidden = false;
  fill(
    box,
    el(
      "article",
      { class: "treasure-card" },
      el("p", { class: "treasure-card-kicker small" }, "Treasure card"),
      el("h3", { class: "treasure-card-title" }, title),
      el("p", {}, text),
    ),
    el("button", { type: "button", class: "small-button", onclick: onClose }, "Put the card away"),
  );
}

/** Zargon sees the quest notes; heroes see the parchment. */
export function renderQuest(box, view) {
  const zargon = view.role === "zargon";
  const text = zargon ? (view.quest?.notes ?? "") : (view.quest?.parchment ?? "");
  const paras = String(text)
    .split(/\n\s*\n/)
    .filter((p) => p.trim())
    .map((p) => el("p", {}, p.trim()));
  const wasOpen = box.open;
  fill(
    box,
    el("summary", {}, zargon ? "Quest notes (Zargon only)" : "The parchment"),
    el("div", { class: zargon ? "quest-notes" : "parchment" }, paras),
  );
  box.open = wasOpen;
}

/** The rolls made since the current turn (or phase) began, drawn large and labelled. */
export function renderDiceTray(box, view, index) {
  const entries = view.log ?? [];
  let start = 0;
  entries.forEach((e, i) => {
    if (e.type === "turn" || e.type === "phase") start = i;
  });
  const last = [...entries.slice(start)].reverse().find((e) => (e.dice ?? []).length);
  if (!last) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const labels = last.type === "attack" && last.dice.length === 2 ? ["attacker", "defender"] : null;
  fill(box, el("p", { class: "dice-tray-text small" }, last.text ?? ""), diceList(last.dice, { labels, index }));
}

const OUTCOMES = {
  heroes: { title: "The heroes have won!", text: "The villain is defeated and every surviving hero has escaped." },
  zargon: { title: "Zargon wins", text: "No hero is left standing in the dungeon." },
  retreat: { title: "The heroes retreat", text: "They escaped by the stairway, but the villain lives: the quest may be tried again." },
  abandoned: { title: "The quest was ended", text: "An administrator ended this game: nothing more can be played in it." },
};

/** What a hero came away with and what they did, as far as this seat may know it. */
function heroResult(h, view, story) {
  const status = { escaped: "escaped", fallen: "fell in the dungeon", playing: "still in the dungeon" }[h.status] ?? h.status;
  const finds = (view.log ?? []).filter((e) => e.type === "search" && e.hero === h.hero && e.find && e.find !== "nothing").length;
  const own = "gold" in h;
  const found = own
    ? [
        `${h.gold ?? 0} gold`,
        h.potions ? `${h.potions} potion${h.potions === 1 ? "" : "s"}` : "",
        ...(h.artifacts ?? []).map(pretty),
      ].filter(Boolean)
    : [];
  return el(
    "li",
    { class: "result-hero", dataset: { hero: h.hero } },
    el("span", { class: `hero-dot hero-fill-${h.hero}` }),
    el("strong", {}, heroDisplay(h)),
    ` ${status}`,
    own
      ? el("span", {}, ` — carries ${joinNames(found)}`)
      : finds && !story
        ? el("span", { class: "muted" }, ` — found treasure ${finds === 1 ? "once" : `${finds} times`}`)
        : null,
    story ? el("p", { class: "result-story small" }, `${cap(joinNames(storyParts(story)))}.`) : null,
  );
}

/** Where a campaign goes on from here: the next quest after a win, the same one again otherwise. */
function campaignLink(view, url) {
  if (!url) return null;
  const won = view.outcome === "heroes";
  return el(
    "a",
    { class: "button primary", id: "end-campaign", href: url },
    won ? "Next quest: on to the campaign" : "Try again from the campaign",
  );
}

/**
 * The quest-end screen: who won, each hero's story of the quest (`stories`, from the whole log),
 * the server's part (`extras`: the seed revealed, the replay link) and where to go on.
 */
export function renderOutcome(banner, view, links = {}, { stories = null, extras = null } = {}) {
  if (!view.outcome) {
    banner.hidden = true;
    return;
  }
  const outcome = OUTCOMES[view.outcome] ?? { title: pretty(view.outcome), text: "" };
  banner.hidden = false;
  banner.className = `outcome-banner outcome-${view.outcome}`;
  fill(
    banner,
    el("h2", { id: "outcome-title", class: "outcome-title" }, outcome.title),
    outcome.text ? el("p", { class: "outcome-text" }, outcome.text) : null,
    el("h3", { class: "outcome-subtitle" }, "The heroes' story of the quest"),
    el(
      "ul",
      { class: "result-heroes" },
      (view.heroes ?? []).map((h) => heroResult(h, view, stories?.get(h.hero) ?? null)),
    ),
    extras,
    el(
      "p",
      { class: "outcome-links" },
      campaignLink(view, links.armory),
      el("a", { class: links.armory ? "button" : "button primary", href: links.lobby || "/" }, "Back to the lobby"),
    ),
  );
}

/** The start screen: the quest's parchment, read before the first move. */
export function renderStart(box, view, onBegin) {
  const text = view.quest?.parchment ?? "";
  const paras = String(text)
    .split(/\n\s*\n/)
    .filter((p) => p.trim())
    .map((p) => el("p", {}, p.trim()));
  box.hidden = false;
  fill(
    box,
    el("h2", { id: "start-title", class: "start-title" }, view.quest?.name ?? "The quest"),
    el("div", { class: "parchment start-parchment", tabindex: "0", role: "region", "aria-label": "The parchment" }, paras),
    el("p", {}, el("button", { type: "button", class: "primary", id: "start-begin", onclick: onBegin }, "Begin the quest")),
  );
}
