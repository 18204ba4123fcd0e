"""HeroQuest's face: the one object the platform talks to (`GAME`, apps/games/port.py).

Everything HeroQuest knows about seats (seat 1 is Zargon, the others share the heroes), its
room options, its quests, whose turn it is, what a timed-out seat gets and what the monster AI
plays is said here, from the engine's own tables, so the platform never re-codes a rule.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from typing import Any

from apps.games.port import (
    SPECTATOR_SEAT,
    BoardAssets,
    GameFace,
    Json,
    OptionSpec,
    OrderStep,
    Refusal,
    RefusalKind,
    RulesDocuments,
    Scenario,
    ScenarioError,
    SeatRole,
    Setting,
    Start,
    Step,
)

from . import engine as rules
from . import orders
from .engine.actions import TIMEOUT_CHOICES
from .engine.ai import next_monster_action
from .engine.data import ZARGON_SEAT, display_name, heroes_of_seat, seat_of_hero
from .engine.options import DEFAULTS, RULES_REVISION, describe, room_option_problems
from .engine.questfile import QUESTS_DIR, QuestFileError, parse_quest_text, validate_quest_text
from .engine.saga import CINDER_SAGA, saga_quests

# Actions a seat may send whoever's turn it is: they change a private setting of one of its
# heroes, never the shared game or its log (docs/engine-api.md: not listed in legal_actions).
SETTING_ACTIONS = frozenset({"set_auto_drink", "set_drink_at", "set_on_timeout"})

OUTCOME_TEXTS = {
    "heroes": "the heroes won",
    "retreat": "the heroes retreated",
    "zargon": "Zargon won",
    "abandoned": "the game was ended by an administrator",
}


# The seat-free parts of the last states viewed (`rules.ViewParts`), by the state's identity: an
# action's state gets the acting seat's view and a watcher's, and a GET after a hand-over one
# more. Sound because the platform never changes a state it was given (apps/games/port.py); the
# entry holds the state, so its id is not reused while kept. Emptied whole when full.
_PARTS: dict[int, tuple[rules.State, rules.ViewParts]] = {}
PARTS_KEPT = 32


def _parts_kept(state: rules.State) -> rules.ViewParts | None:
    kept = _PARTS.get(id(state))
    return kept[1] if kept is not None and kept[0] is state else None


def _view_parts(state: rules.State, before: rules.ViewParts | None = None) -> rules.ViewParts:
    """`state`'s parts, kept or worked out; `before`: the parts of the state it came from by one
    action, whose log forms it may share."""
    parts = _parts_kept(state)
    if parts is not None:
        return parts
    parts = rules.ViewParts(state, before)
    if len(_PARTS) >= PARTS_KEPT:
        _PARTS.clear()
    _PARTS[id(state)] = (state, parts)
    return parts


def _as_json(value: Any) -> Any:
    """The value as a JSON column gives it back (tuples become lists), for comparing actions."""
    return json.loads(json.dumps(value))


@functools.cache
def _shipped_quests() -> tuple[Scenario, ...]:
    """The quest files shipped in the wing's quests/, the Ashen Vault first (the saga's order)."""
    shipped = []
    for path in sorted(QUESTS_DIR.glob("*.yaml")):
        source = path.read_text(encoding="utf-8")
        quest = parse_quest_text(source, name=path.name)
        shipped.append(Scenario(slug=quest.slug, name=quest.name, source=source))
    order = {quest.slug: n for n, quest in enumerate(saga_quests(CINDER_SAGA))}
    return tuple(sorted(shipped, key=lambda q: (order.get(q.slug, len(order)), q.slug)))


class HeroQuest:
    """The face of HeroQuest (docs/rules.md); stateless: one shared instance, `GAME`."""

    slug = "heroquest"
    name = "HeroQuest"
    min_seats = 2
    max_seats = 5
    has_campaigns = True
    ai_seat: int | None = ZARGON_SEAT
    narrator_seat: int | None = ZARGON_SEAT
    scenario_words = ("quest", "quests")
    # The rules pages (/rules/heroquest/): the players' text and the reference the code cites.
    rules_documents = RulesDocuments(players="docs/players/heroquest.md", reference="docs/rules.md")
    table_summary = (
        "Seat 1 is Zargon (a player, or the monster AI for solo play); the other seats share the "
        "Barbarian, the Dwarf, the Elf and the Wizard."
    )
    setting_actions = SETTING_ACTIONS
    shared_view_parts = frozenset({"map"})  # engine/seat_views.py `map_view` keeps each map
    assets = BoardAssets(
        board="js/games/heroquest/board.js",
        replay="js/games/heroquest/replay.js",
        style="css/games/heroquest/board.css",
        extra=("js/games/heroquest/orders.js",),  # standing orders and the recap
        template="games/heroquest/game.html",
        replay_template="games/heroquest/replay.html",
    )
    ai_seat_choices = (
        "A player takes seat 1 and plays the monsters",
        "The monster AI plays Zargon (solo play: people take the hero seats)",
    )

    # --- seats and options ---------------------------------------------------------------------
    def seat_roles(self, seats: int) -> list[SeatRole]:
        roles = [SeatRole(ZARGON_SEAT, "zargon", "Zargon")]
        for number in range(ZARGON_SEAT + 1, seats + 1):
            heroes = heroes_of_seat(seats, number)
            label = " & ".join(h.capitalize() for h in heroes)
            roles.append(SeatRole(number, "heroes", label, heroes))
        return roles

    def first_seat(self, *, ai: bool) -> int:
        return ZARGON_SEAT + 1 if ai else ZARGON_SEAT

    def seat_count_label(self, seats: int) -> str:
        players = seats - 1
        return f"{seats} seats (Zargon and {players} hero player{'s' if players > 1 else ''})"

    def option_specs(self) -> list[OptionSpec]:
        return [
            OptionSpec(
                "edition",
                "Rules edition",
                "us",
                (
                    ("us", "US edition"),
                    ("uk", "UK edition (monsters have 1 Body, no diagonal attacks)"),
                ),
            ),
            OptionSpec(
                "spell_draft",
                "Spell draft",
                False,
                help="The Wizard picks a spell element, then the Elf, then the Wizard takes the "
                "rest.",
            ),
            OptionSpec(
                "heroes_pass_heroes",
                "Heroes may pass heroes",
                False,
                help="A hero may move through another hero's square (never stop on it).",
            ),
        ]

    def option_defaults(self) -> Json:
        return dict(DEFAULTS)

    def option_problems(self, options: Any) -> list[str]:
        return room_option_problems(options)

    def option_lines(self, options: Json) -> list[str]:
        return describe(options)

    # --- scenarios -------------------------------------------------------------------------------
    def scenarios(self) -> list[Scenario]:
        return list(_shipped_quests())

    def scenario_read(self, source: str, filename: str) -> Scenario:
        try:
            quest = parse_quest_text(source, name=filename)
        except QuestFileError as exc:
            raise ScenarioError(exc.problems) from None
        return Scenario(slug=quest.slug, name=quest.name, source=source)

    def scenario_parse(self, slug: str, source: str) -> rules.Quest:
        if source:
            return parse_quest_text(source, name=f"{slug}.yaml")
        return rules.load_quest(slug)

    def scenario_problems(self, source: str, filename: str) -> list[str]:
        return validate_quest_text(source, filename)

    def scenario_preview(self, scenario: rules.Quest) -> Json:
        # A stand-in table: Zargon and one player holding the four heroes, a fixed seed.
        state = rules.new_game(scenario, 2, 1)
        return rules.seat_view(state, ZARGON_SEAT)

    # --- playing ---------------------------------------------------------------------------------
    def new_game(
        self,
        scenario: rules.Quest,
        seats: int,
        seed: int,
        options: Json,
        *,
        commitment: str | None,
    ) -> Start:
        # A game launched now keeps today's rules whatever later revisions bring.
        pinned = {"rules_revision": RULES_REVISION, **options}
        start = rules.start_game(scenario, seats, seed, pinned, commitment=commitment)
        return Start(
            state=start.state, events=start.events, draws=list(start.draws), options=pinned
        )

    def legal_actions(self, state: rules.State, seat: int) -> list[Json]:
        return [rules.action_to_json(a) for a in rules.legal_actions(state, seat)]

    def apply(self, state: rules.State, seat: int, action: Json) -> Step:
        parsed = self._parsed(action)
        self._check_seat_may_send(state, seat, parsed)
        try:
            transition = rules.apply(state, seat, parsed)
        except rules.IllegalAction as exc:
            raise Refusal(RefusalKind.ILLEGAL, exc.reason) from None
        before = _parts_kept(state)
        if before is not None:  # the new state's views share the log forms of this one's
            _view_parts(transition.state, before)
        return Step(state=transition.state, events=transition.events, draws=transition.draws)

    def seat_view(self, state: rules.State, seat: int) -> Json:
        return rules.seat_view(state, seat, _view_parts(state))

    def replay_view(self, state: rules.State) -> Json:
        # Zargon's seat view: after the end it is the whole map.
        view = rules.seat_view(state, ZARGON_SEAT)
        for key in ("log", "legal_actions"):
            view.pop(key, None)
        return view

    def event_for_seat(self, event: Json, seat: int) -> Json | None:
        return rules.event_for_seat(event, seat)

    def seats_to_move(self, state: rules.State) -> list[int]:
        return rules.seats_to_move(state)

    def round_of(self, state: rules.State) -> int:
        return state.round

    def outcome_of(self, state: rules.State) -> str | None:
        return state.outcome

    def outcome_text(self, outcome: str) -> str:
        return OUTCOME_TEXTS.get(outcome, outcome)

    def timeout_action(self, state: rules.State, seat: int) -> Json | None:
        """A hero seat's timed-out turn ends where the hero stands (the draft's end_turn picks
        for the hero), after the search its player's standing rule asks for if the hero may make
        it now (`set_on_timeout`); Zargon's phase is played by the monster AI."""
        if seat == ZARGON_SEAT:
            return self.ai_action(state, seat)
        hero = state.turn.hero
        if state.phase not in ("heroes", "draft") or hero is None:
            return None
        if seat_of_hero(state.seats, hero) != seat:
            return None
        then = state.heroes[hero].on_timeout
        if state.phase == "heroes" and then != "end_turn" and not state.turn.has_acted:
            search = rules.action_to_json(rules.action_from_json({"type": then, "hero": hero}))
            if search in self.legal_actions(state, seat):
                return search
        return rules.action_to_json(rules.EndTurn(hero))

    def timeout_rule(self) -> str:
        return (
            "A hero turn that runs out ends where the hero stands (after a search, if its "
            "player's standing rule asks for one); Zargon's monsters are then played by the "
            "built-in AI."
        )

    def ai_action(self, state: rules.State, seat: int) -> Json | None:
        if seat != ZARGON_SEAT or state.phase != "monsters":
            return None
        action = next_monster_action(state)
        return None if action is None else rules.action_to_json(action)

    def turn_notice(
        self, state: rules.State, seat: int, *, reminder: bool, where: str
    ) -> tuple[str, str]:
        prefix = "Reminder: " if reminder else ""
        if seat == ZARGON_SEAT:
            return (
                f"{prefix}Zargon's phase in {where}",
                f"Round {state.round}: the heroes have moved and the monsters await your command.",
            )
        hero = state.turn.hero
        who = f": {display_name(hero)}" if hero else ""
        return (
            f"{prefix}Your turn in {where}{who}",
            f"Round {state.round}: the party is waiting for you.",
        )

    def timeout_notice(
        self, state: rules.State, seat: int, *, limit: str, where: str
    ) -> tuple[str, str]:
        if seat == ZARGON_SEAT:
            return (
                f"Zargon's phase in {where} timed out",
                f"You had {limit}; the built-in monster AI played the monsters for you this round.",
            )
        return (
            f"Your turn in {where} timed out",
            f"You had {limit}; your heroes' turn was ended for you.",
        )

    # --- private standing settings -------------------------------------------------------------
    def setting_of(self, state: rules.State, seat: int, action: Json) -> Setting | None:
        if not isinstance(action, dict) or action.get("type") not in SETTING_ACTIONS:
            return None
        parsed = self._parsed(action)
        self._check_pieces(state, seat, parsed)
        if isinstance(parsed, rules.SetDrinkAt):
            return Setting(owner=parsed.hero, name="drink_at", value=parsed.body)
        if isinstance(parsed, rules.SetOnTimeout):
            return Setting(owner=parsed.hero, name="on_timeout", value=parsed.act)
        assert isinstance(parsed, rules.SetAutoDrink)
        return Setting(owner=parsed.hero, name="auto_drink", value=parsed.on)

    def with_settings(self, state: rules.State, settings: dict[str, Json]) -> rules.State:
        """`settings`: hero -> {"auto_drink": bool, "drink_at": int, "on_timeout": str} (logs
        before this port held hero -> bool)."""
        changes: dict[str, dict[str, Any]] = {}
        for hero, values in settings.items():
            hero_state = state.heroes.get(hero)
            if hero_state is None:
                continue
            wanted = {"auto_drink": values} if isinstance(values, bool) else dict(values)
            on, at = wanted.get("auto_drink"), wanted.get("drink_at")
            change: dict[str, Any] = {}
            if isinstance(on, bool) and hero_state.auto_drink != on:
                change["auto_drink"] = on
            if isinstance(at, int) and not isinstance(at, bool) and hero_state.drink_at != at:
                change["drink_at"] = at
            then = wanted.get("on_timeout")
            if then in TIMEOUT_CHOICES and hero_state.on_timeout != then:
                change["on_timeout"] = then
            if change:
                changes[hero] = change
        if not changes:
            return state
        new = state.clone()
        for hero, change in changes.items():
            for name, value in change.items():
                setattr(new.heroes[hero], name, value)
        return new

    # --- standing orders (port.StandingOrders, in orders.py) -------------------------------------
    def order_problems(self, state: rules.State, seat: int, orders_: Json) -> list[str]:
        return orders.order_problems(state, seat, orders_)

    def next_order_step(self, state: rules.State, seat: int, orders_: Json) -> OrderStep:
        return orders.next_order_step(state, seat, orders_)

    def order_interruption(self, before: Json, after: Json) -> str | None:
        return orders.order_interruption(before, after)

    def order_lines(self, state: rules.State, seat: int, orders_: Json) -> list[str]:
        return orders.order_lines(state, seat, orders_)

    def recap_lines(self, entries: list[Json]) -> list[str]:
        return orders.recap_lines(entries)

    # --- campaigns -------------------------------------------------------------------------------
    def campaign_results(self, state: rules.State) -> tuple[dict[str, Json], int]:
        finals = {h: dataclasses.asdict(hs) for h, hs in state.heroes.items()}
        return finals, state.quest.reward_gold

    # --- persistence -----------------------------------------------------------------------------
    def state_to_json(self, state: rules.State) -> Json:
        return state.to_json()

    def state_for_text(self, state: rules.State) -> Any:
        return state.for_text()

    def state_from_json(self, data: Json, scenario: rules.Quest) -> rules.State:
        # The row's JSON was decoded for this call alone, so the state may take it over
        # uncopied: the engine never changes a state in place (`apply` clones).
        return rules.State.from_json(data, scenario, copy_json=False)

    # --- judging who may send what -------------------------------------------------------------
    @staticmethod
    def _parsed(action: Any) -> rules.Action:
        try:
            return rules.action_from_json(action)
        except rules.BadActionJSON as exc:
            raise Refusal(RefusalKind.MALFORMED, f"Malformed action: {exc.reason}") from None

    @staticmethod
    def _check_pieces(state: rules.State, seat: int, action: rules.Action) -> None:
        if seat == SPECTATOR_SEAT:
            raise Refusal(RefusalKind.NOT_YOURS, "Spectators watch the quest; they do not play.")
        hero = getattr(action, "hero", None)
        if seat == ZARGON_SEAT and hero is not None:
            raise Refusal(RefusalKind.NOT_YOURS, "Zargon does not play the heroes.")
        if seat != ZARGON_SEAT:
            if hero is None:
                raise Refusal(RefusalKind.NOT_YOURS, "Only Zargon plays the monsters.")
            if hero not in heroes_of_seat(state.seats, seat):
                raise Refusal(RefusalKind.NOT_YOURS, "That hero is not yours to play.")

    def _check_seat_may_send(self, state: rules.State, seat: int, action: rules.Action) -> None:
        """Refuse what this seat may never send now; the engine judges everything else."""
        if state.outcome is not None:
            raise Refusal(RefusalKind.NOT_NOW, "The quest is over.")
        self._check_pieces(state, seat, action)
        if seat in rules.seats_to_move(state):
            return
        if _as_json(rules.action_to_json(action)) in _as_json(self.legal_actions(state, seat)):
            return  # something the engine lets this seat do out of turn (a potion)
        raise Refusal(RefusalKind.NOT_NOW, "It is not your turn.")


GAME: GameFace = HeroQuest()  # typed: mypy holds the face to the port
