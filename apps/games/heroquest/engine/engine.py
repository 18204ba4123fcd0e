"""The public engine functions: new_game, legal_actions, apply, replay (docs/engine-api.md)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import actions as A
from . import draft as DR
from . import dread as D
from . import hero_turn as H
from . import monsters as Z
from . import search as S
from . import spells as SP
from . import traps as T
from .board import Board
from .context import Ctx, cap, hero_name
from .data import (
    ARMOUR,
    HERO_ORDER,
    HEROES,
    SPECTATOR_SEAT,
    WEAPONS,
    ZARGON_SEAT,
    equipment_problem,
    heroes_of_seat,
    seat_of_hero,
    treasure_deck,
)
from .dice import Dice, Draw, seed_rng
from .events import Event, make_event
from .options import check_game_options, monster_stats, option
from .quest import Quest
from .questfile import parse_quest_file
from .reveal import reveal_area, update_reveals
from .state import DoorState, HeroState, MonsterState, State, TrapState
from .turns import check_outcome, end_hero_turn, start_hero_turn
from .zargon_moves import zargon_candidates

QUESTS_DIR = Path(__file__).resolve().parent.parent / "quests"
_QUESTS: dict[Path, Quest] = {}  # resolved path -> parsed quest (geometry computed once)


@dataclass(frozen=True)
class Transition:
    state: State
    events: list[Event]
    # Every number drawn from the RNG, in order (`Dice.draws`): what a replay checks dice against.
    draws: list[Draw] = field(default_factory=list)


# --- quests ------------------------------------------------------------------------------------
def load_quest(name_or_path: str | Path) -> Quest:
    """'ashen_vault' (a quest shipped in the wing's quests/) or a path to a YAML quest file.

    Quests are cached by resolved path, so their geometry is computed once per process.
    """
    text = str(name_or_path)
    path = (
        Path(text)
        if ("/" in text or text.endswith((".yaml", ".yml")))
        else (QUESTS_DIR / f"{text}.yaml")
    )
    path = path.resolve()
    if path not in _QUESTS:
        _QUESTS[path] = parse_quest_file(path)
    return _QUESTS[path]


# --- new game ----------------------------------------------------------------------------------
def new_game(
    quest: Quest,
    seats: int,
    seed: int,
    options: dict[str, Any] | None = None,
    *,
    commitment: str | None = None,
) -> State:
    """Start a quest. `options["heroes"][hero]` may give campaign heroes: name, body, mind,
    weapon, armour, items, tool_kit, gold, potions, artifacts, spells.

    `commitment` (the site's hash of the seed, docs/design.md "Replays and fair dice") is
    announced to every seat in the log before any die is rolled."""
    return start_game(quest, seats, seed, options, commitment=commitment).state


def start_game(
    quest: Quest,
    seats: int,
    seed: int,
    options: dict[str, Any] | None = None,
    *,
    commitment: str | None = None,
) -> Transition:
    """`new_game`, with the events and the RNG draws of the setup (the deck's shuffle)."""
    if not 2 <= seats <= 5:
        raise ValueError("a quest needs 2 to 5 seats")
    options = dict(options or {})
    check_game_options(options)
    s = State(quest=quest, seats=seats, seed=seed, options=options, rng=seed_rng(seed))
    hero_opts = options.get("heroes", {})
    for hero in HERO_ORDER:
        s.heroes[hero] = make_hero(hero, quest.hero_starts[hero], hero_opts.get(hero, {}))
    for m in quest.monsters:
        monster = MonsterState(
            m.id, m.kind, m.square, 0, 0, dread_spells=list(m.dread_spells), name=m.name
        )
        monster.body = monster.body_max = monster_stats(s, monster).body
        s.monsters[m.id] = monster
    s.doors = {d.id: DoorState() for d in quest.doors}
    s.traps = {t.id: TrapState() for t in quest.traps}
    dice = Dice(s.rng)
    s.deck = treasure_deck()
    dice.shuffle(s.deck)
    ctx = Ctx(s, dice)
    ctx.emit(make_event("quest_start", f"The quest begins: {quest.name}."))
    if commitment is not None:
        text = f"The dice are sealed: the seed's SHA-256 commitment is {commitment}."
        ctx.emit(make_event("seed_committed", text, commitment=commitment))
    reveal_area(ctx, quest.entrance)
    update_reveals(ctx)
    if option(s, "spell_draft"):
        DR.start_draft(ctx)
    else:
        start_hero_turn(ctx, HERO_ORDER[0])
    ctx.finish()
    return Transition(s, ctx.events, dice.draws)


def make_hero(hero: str, start: tuple[int, int], opts: dict[str, Any]) -> HeroState:
    stats = HEROES[hero]
    weapon = opts.get("weapon", stats.weapon)
    armour = list(opts.get("armour", []))
    problem = equipment_problem(hero, weapon, armour)
    if problem:
        raise ValueError(problem)
    items = [i for i in opts.get("items", []) if i in WEAPONS or i in ARMOUR]
    body_max = int(opts.get("body_max", stats.body))
    mind_max = int(opts.get("mind_max", stats.mind))
    return HeroState(
        hero=hero,
        name=str(opts.get("name", hero.capitalize())),
        position=start,
        body=int(opts.get("body", body_max)),
        body_max=body_max,
        mind=int(opts.get("mind", mind_max)),
        mind_max=mind_max,
        weapon=weapon,
        armour=armour,
        items=items,
        spells=list(opts.get("spells", stats.spells)),
        potions=int(opts.get("potions", 0)),
        gold=int(opts.get("gold", 0)),
        tool_kit=bool(opts.get("tool_kit", False)),
        artifacts=list(opts.get("artifacts", [])),
    )


# --- dispatch tables ---------------------------------------------------------------------------
Check = Callable[[Board, Any], str | None]
Do = Callable[[Ctx, Any], None]

RULES: dict[type[A.Action], tuple[Check, Do]] = {
    A.RollMovement: (H.check_roll, H.do_roll),
    A.Move: (H.check_move, H.do_move),
    A.OpenDoor: (H.check_open_door, H.do_open_door),
    A.Attack: (H.check_attack, H.do_attack),
    A.Throw: (H.check_throw, H.do_throw),
    A.CastSpell: (SP.check_cast, SP.do_cast),
    A.SearchTreasure: (S.check_search_treasure, S.do_search_treasure),
    A.SearchTraps: (S.check_search_traps, S.do_search_traps),
    A.SearchSecretDoors: (S.check_search_secret_doors, S.do_search_secret_doors),
    A.Disarm: (T.check_disarm, T.do_disarm),
    A.Jump: (T.check_jump, T.do_jump),
    A.DrinkPotion: (H.check_drink, H.do_drink),
    A.Give: (H.check_give, H.do_give),
    A.ChooseSpells: (DR.check_choose, DR.do_choose),
    A.LeaveBlock: (T.check_leave_block, T.do_leave_block),
    A.TakeBelongings: (H.check_take, H.do_take),
    A.SetAutoDrink: (lambda b, a: None, H.do_set_auto_drink),
    A.SetDrinkAt: (lambda b, a: None, H.do_set_drink_at),
    A.SetOnTimeout: (lambda b, a: None, H.do_set_on_timeout),
    A.Escape: (H.check_escape, H.do_escape),
    A.EndTurn: (lambda b, a: None, H.do_end_turn),
    A.MonsterMove: (Z.check_monster_move, Z.do_monster_move),
    A.MonsterAttack: (Z.check_monster_attack, Z.do_monster_attack),
    A.MonsterCast: (D.check_monster_cast, D.do_monster_cast),
    A.CommandMove: (D.check_command_move, D.do_command_move),
    A.EndActivation: (Z.check_end_activation, Z.do_end_activation),
    A.EndPhase: (Z.check_end_phase, Z.do_end_phase),
}


def turn_problem(s: State, seat: int, action: A.Action) -> str | None:
    """Whose turn is it, and may this seat act for this figure?"""
    if seat == SPECTATOR_SEAT:
        return "Spectators watch the quest; they do not play."
    if s.outcome is not None:
        return "The quest is over."
    if isinstance(action, A.HeroAction):
        if action.hero not in s.heroes:
            return f"There is no hero called {action.hero!r}."
        if seat_of_hero(s.seats, action.hero) != seat:
            return f"You do not control {hero_name(action.hero)}."
        if isinstance(action, A.SetAutoDrink | A.SetDrinkAt | A.SetOnTimeout | A.DrinkPotion):
            return None  # any time (docs/rules.md 3)
        if s.phase == "draft" and s.turn.hero == action.hero:
            if isinstance(action, A.ChooseSpells | A.EndTurn):
                return None
            return f"{cap(hero_name(action.hero))} must first choose a spell element."
        if isinstance(action, A.ChooseSpells):
            return "The spell draft is over."
        if s.phase != "heroes" or s.turn.hero != action.hero:
            return f"It is not {hero_name(action.hero)}'s turn."
        if T.block_pending(s) and not isinstance(action, A.LeaveBlock | A.EndTurn):
            return f"{cap(hero_name(action.hero))} must first step ahead or back off the block."
        return None
    if seat != ZARGON_SEAT:
        return "Only Zargon commands the monsters."
    if s.phase != "monsters":
        return "It is not Zargon's turn."
    return None


def check(board: Board, seat: int, action: A.Action) -> str | None:
    reason = turn_problem(board.s, seat, action)
    if reason:
        return reason
    return RULES[type(action)][0](board, action)


# --- legal actions -----------------------------------------------------------------------------
def legal_actions(state: State, seat: int) -> list[A.Action]:
    """Every action `seat` may take now, targets included (set_auto_drink is never listed)."""
    return legal_actions_on(Board(state), seat)


def legal_actions_on(board: Board, seat: int) -> list[A.Action]:
    """`legal_actions` of the board's state, on a board that may have answered questions about
    it already (a seat view's)."""
    state = board.s
    if state.outcome is not None:
        return []
    candidates: list[A.Action] = []
    if state.phase == "monsters":
        if seat == ZARGON_SEAT:
            candidates = zargon_candidates(board)
    else:
        hero = state.turn.hero
        if hero is not None and seat_of_hero(state.seats, hero) == seat:
            if state.phase == "draft":
                candidates = DR.draft_candidates(state)
            else:
                candidates = hero_candidates(board, state.heroes[hero])
    legal = [a for a in candidates if RULES[type(a)][0](board, a) is None]
    if seat != ZARGON_SEAT:  # potions are drunk at any time (docs/rules.md 3)
        legal += [a for a in H.drink_candidates(state, seat) if check(board, seat, a) is None]
    return legal


def hero_candidates(b: Board, h: HeroState) -> list[A.Action]:
    name = h.hero
    if T.block_pending(b.s):
        return [A.LeaveBlock(name, to) for to in T.block_exits(b, h)]
    out: list[A.Action] = [A.RollMovement(name)]
    out += [A.Move(name, to) for to in H.move_candidates(b, h)]
    out += [A.OpenDoor(name, d) for d in H.door_candidates(b, h)]
    out += [A.Attack(name, m.pub) for m in b.monsters_at.values() if m.pub]
    out += H.throw_candidates(b, h)
    out += SP.cast_candidates(b, h)
    out += [A.SearchTreasure(name), A.SearchTraps(name), A.SearchSecretDoors(name)]
    out += [A.Disarm(name, ts.pub) for ts in b.s.traps.values() if ts.pub]
    out += T.jump_candidates(b, h)
    out += H.give_candidates(b.s, h)
    out += [A.TakeBelongings(name, d.hero) for d in b.s.drops]
    out += [A.Escape(name), A.EndTurn(name)]
    return out


# --- apply -------------------------------------------------------------------------------------
def apply(
    state: State,
    seat: int,
    action: A.Action | dict[str, Any],
    *,
    dice: Sequence[int | str] | None = None,
) -> Transition:
    """Apply one action for `seat`; the input state is left untouched.

    `action` may be an Action or its JSON dict. `dice` (tests only) forces the die results of
    this action in order; see `Dice`.
    """
    if isinstance(action, dict):
        action = A.action_from_json(action)
    if type(action) not in RULES:
        raise A.IllegalAction("Unknown action.")
    reason = check(Board(state), seat, action)
    if reason:
        raise A.IllegalAction(reason)
    s = state.clone()
    ctx = Ctx(s, Dice(s.rng, dice))
    RULES[type(action)][1](ctx, action)
    after_action(ctx)
    ctx.finish()
    return Transition(s, ctx.events, ctx.dice.draws)


def after_action(ctx: Ctx) -> None:
    s = ctx.s
    update_reveals(ctx)
    if check_outcome(ctx):
        return
    hero = s.turn.hero
    if s.phase == "heroes" and hero is not None and (ctx.end_turn or not s.heroes[hero].playing):
        end_hero_turn(ctx)
    check_outcome(ctx)


def seats_to_move(state: State) -> list[int]:
    if state.outcome is not None:
        return []
    if state.phase == "monsters":
        return [ZARGON_SEAT]
    if state.turn.hero is None:
        return []
    return [seat_of_hero(state.seats, state.turn.hero)]


def replay(
    quest: Quest,
    seats: int,
    seed: int,
    options: dict[str, Any] | None,
    actions: Sequence[tuple[int, dict[str, Any] | A.Action]],
) -> State:
    """Rebuild a state from a quest's action log."""
    state = new_game(quest, seats, seed, options)
    for seat, action in actions:
        state = apply(state, seat, action).state
    return state


def seat_heroes(state: State, seat: int) -> tuple[str, ...]:
    return heroes_of_seat(state.seats, seat)


__all__ = [
    "Transition",
    "apply",
    "legal_actions",
    "load_quest",
    "new_game",
    "replay",
    "seats_to_move",
    "start_game",
]
