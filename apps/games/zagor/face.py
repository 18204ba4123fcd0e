"""Legend of Zagor's face: what the platform calls (apps/games/port.py's `GameFace`)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from apps.games.port import (
    SPECTATOR_SEAT,
    BoardAssets,
    GameFace,
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

from . import ai, engine, events, orders, views
from .actions import parse
from .combat import default_spoils
from .data import HERO_BY_ID, HEROES
from .scenarios import (
    ROUND_LIMITS,
    SLUGS,
    Tale,
    scenario_parse,
    scenario_problems,
    shipped,
    shipped_source,
)
from .state import State, state_from_json, state_to_json

Json = dict[str, Any]
SURRENDER = "surrender_at"
TIMEOUT_RULE = (
    "A timed-out hero retreats from a monster, surrenders a duel he started, strikes on in Skull "
    "Hall, takes the default spoils, and otherwise ends his turn where he stands."
)


class ZagorFace:
    slug = "zagor"
    name = "Legend of Zagor"
    min_seats = 1
    max_seats = 4
    has_campaigns = False
    ai_seat: int | None = None
    narrator_seat: int | None = None  # the server speaks for Zagor; nobody narrates
    scenario_words = ("tale", "tales")
    # The rules pages (/rules/zagor/): the players' text and the reference the code cites.
    rules_documents = RulesDocuments(
        players="docs/players/zagor.md", reference="docs/zagor/rules.md"
    )
    table_summary = (
        "Every seat is a hero (Anvar, Stubble, Braxus, Sallazar in seat order); one person may "
        "play alone. The server is the voice of Zagor."
    )
    ai_seat_choices = ("", "")
    setting_actions = frozenset({"set_surrender"})
    shared_view_parts = frozenset({"layout"})  # views.py `_layout`: one board for every view
    assets = BoardAssets(
        board="js/games/zagor/board.js",
        replay="js/games/zagor/replay.js",
        style="css/games/zagor/board.css",
        template="games/zagor/game.html",
        replay_template="games/zagor/replay.html",
        extra=("js/games/zagor/orders.js",),  # standing orders and the recap
    )

    # --- seats and options -----------------------------------------------------------------------
    def seat_roles(self, seats: int) -> list[SeatRole]:
        if not self.min_seats <= seats <= self.max_seats:
            raise ValueError(f"Legend of Zagor seats 1 to 4 heroes, not {seats}.")
        return [
            SeatRole(n, "hero", HEROES[n - 1].name, (HEROES[n - 1].hero,))
            for n in range(1, seats + 1)
        ]

    def first_seat(self, *, ai: bool) -> int:
        return 1

    def seat_count_label(self, seats: int) -> str:
        return "1 hero (solo)" if seats == 1 else f"{seats} heroes"

    def option_specs(self) -> list[OptionSpec]:
        # The round limit is kept by the tale when left out; the API takes any 5..200.
        # The choices stay short: a phone's select shows one line of its choice.
        own = ("", "The tale's own")
        choices = (own, *((str(n), f"{n} rounds") for n in (20, 30, 40, 60, 80)))
        help_text = "The tale's own: 30 rounds for the Orb, 40 the Spectre, 60 the full game."
        return [
            OptionSpec("round_limit", "Round limit", None, choices, help=help_text, numeric=True)
        ]

    def option_defaults(self) -> Json:
        return {"round_limit": None}

    def option_problems(self, options: Any) -> list[str]:
        if not isinstance(options, dict):
            return ["The options must be an object."]
        problems = [f"Unknown option '{k}'." for k in sorted(options) if k != "round_limit"]
        limit = options.get("round_limit")
        low, high = ROUND_LIMITS
        if limit is not None and (
            not isinstance(limit, int) or isinstance(limit, bool) or not low <= limit <= high
        ):
            problems.append(
                f"The round limit is a whole number from {low} to {high}, or empty "
                "for the tale's own."
            )
        return problems

    def option_lines(self, options: Json) -> list[str]:
        limit = options.get("round_limit")
        if limit:
            first = f"The game ends after {limit} rounds if nobody has won: Zagor keeps his crypt."
        else:
            first = (
                "The game ends after the tale's own round limit (Orb 30, Spectre 40, the "
                "full game 60) if nobody has won: Zagor keeps his crypt."
            )
        return [first, "Every seat is a hero; the server speaks for Zagor.", TIMEOUT_RULE]

    # --- scenarios -------------------------------------------------------------------------------
    def scenarios(self) -> list[Scenario]:
        out = []
        for slug in SLUGS:
            tale = shipped(slug)
            out.append(Scenario(slug, tale.name, shipped_source(slug), tale.summary))
        return out

    def scenario_parse(self, slug: str, source: str) -> Tale:
        return scenario_parse(slug, source)

    def scenario_read(self, source: str, filename: str) -> Scenario:
        problems = scenario_problems(source)
        if problems:
            raise ScenarioError([f"{filename}: {p}" for p in problems])
        tale = scenario_parse(_slug_of(source), source)
        return Scenario(tale.slug, tale.name, source, tale.summary)

    def scenario_problems(self, source: str, filename: str) -> list[str]:
        return [f"{filename}: {p}" for p in scenario_problems(source)]

    def scenario_preview(self, scenario: Any) -> Json:
        # A stand-in table of one hero, a fixed seed: the board as a spectator sees it.
        start = engine.new_game(scenario, 1, 1, {}, commitment=None)
        return views.seat_view(start.state, SPECTATOR_SEAT)

    # --- playing ---------------------------------------------------------------------------------
    def new_game(
        self, scenario: Any, seats: int, seed: int, options: Json, *, commitment: str | None
    ) -> Start:
        r = engine.new_game(scenario, seats, seed, options, commitment=commitment)
        return Start(r.state, r.events, r.draws)

    def legal_actions(self, state: Any, seat: int) -> list[Json]:
        return engine.legal_actions(state, seat)

    def apply(self, state: Any, seat: int, action: Json) -> Step:
        r = engine.apply(state, seat, action)
        return Step(r.state, r.events, r.draws)

    def seat_view(self, state: Any, seat: int) -> Json:
        return views.seat_view(state, seat)

    def replay_view(self, state: Any) -> Json:
        """A spectator's board with every tile's face shown (the game is over)."""
        s: State = state
        view = views.seat_view(s, SPECTATOR_SEAT)
        view.pop("legal_actions", None)
        for space, tile in s.tiles.items():
            shown = view["spaces"].get(space)
            if shown is not None and shown.get("tile") is not None:
                shown["tile"] = {"face": tile.face}
        return view

    def event_for_seat(self, event: Json, seat: int) -> Json | None:
        return events.event_for_seat(event, seat)

    def seats_to_move(self, state: Any) -> list[int]:
        return engine.seats_to_move(state)

    def round_of(self, state: Any) -> int:
        s: State = state
        return s.round

    def outcome_of(self, state: Any) -> str | None:
        s: State = state
        return s.outcome

    def outcome_text(self, outcome: str) -> str:
        if outcome.startswith("hero:") and outcome[5:] in HERO_BY_ID:
            return f"{HERO_BY_ID[outcome[5:]].name} won."
        if outcome == "zagor":
            return "Zagor kept his crypt: no hero won before the round limit."
        return "The game is over."

    def timeout_action(self, state: Any, seat: int) -> Json | None:
        s: State = state
        actions = engine.legal_actions(s, seat)
        if not actions:
            return None
        hero = s.active.hero
        if s.spoils is not None:
            if s.spoils.kind == "kill":
                return {"type": "spoils", "hero": hero, "take": "stay", "item": None}
            take, item = default_spoils(s, s.active, s.heroes[s.spoils.loser])
            return {"type": "spoils", "hero": hero, "take": take, "item": item}
        if s.fight is not None:
            return {"type": "retreat", "hero": hero}
        if s.duel is not None:
            if s.duel.defender is None:
                return {"type": "strike", "hero": hero, "by": "hero"}
            return {"type": "surrender", "hero": hero}
        return {"type": "end_turn", "hero": hero, "swap": None}

    def timeout_rule(self) -> str:
        return TIMEOUT_RULE

    def turn_notice(self, state: Any, seat: int, *, reminder: bool, where: str) -> tuple[str, str]:
        s: State = state
        hero = s.seat_hero(seat)
        name = hero.name if hero is not None else f"seat {seat}"
        prefix = "Reminder: " if reminder else ""
        return (
            f"{prefix}Your turn in {where}: {name}",
            f"Round {s.round}: the dungeon waits for {name}.",
        )

    def timeout_notice(self, state: Any, seat: int, *, limit: str, where: str) -> tuple[str, str]:
        return (
            f"Your turn in {where} timed out",
            f"You had {limit}; your hero's turn was played by the published rule: {TIMEOUT_RULE}",
        )

    def ai_action(self, state: Any, seat: int) -> Json | None:
        actions = engine.legal_actions(state, seat)
        return ai.choose(state, actions) if actions else None

    # --- private standing settings -------------------------------------------------------------
    def setting_of(self, state: Any, seat: int, action: Json) -> Setting | None:
        if not isinstance(action, dict) or action.get("type") != "set_surrender":
            return None
        s: State = state
        a = parse(action)
        hero = s.heroes.get(a.hero)
        if hero is None or hero.seat != seat:
            raise Refusal(RefusalKind.NOT_YOURS, "That hero is not yours.")
        at = a.at if a.at is not None else 0
        if not 0 <= at <= hero.stamina_max:
            raise Refusal(RefusalKind.ILLEGAL, f"Choose a Stamina from 0 to {hero.stamina_max}.")
        return Setting(hero.hero, SURRENDER, at)

    def with_settings(self, state: Any, settings: dict[str, Json]) -> Any:
        # Every view is built through here: a state no setting changes is the state itself, and
        # one that changes shares all but the heroes it changes (a state is never changed in
        # place), where a whole copy cost as much as building the view.
        s: State = state
        changed: dict[str, Any] = {}
        for owner, values in settings.items():
            hero = s.heroes.get(owner)
            value = values.get(SURRENDER) if isinstance(values, dict) else None
            if hero is not None and isinstance(value, int) and not isinstance(value, bool):
                surrender_at = max(0, min(value, hero.stamina_max))
                if surrender_at != hero.surrender_at:
                    changed[owner] = dataclasses.replace(hero, surrender_at=surrender_at)
        if not changed:
            return s
        return dataclasses.replace(s, heroes={**s.heroes, **changed})

    # --- standing orders (port.StandingOrders, in orders.py) -------------------------------------
    def order_problems(self, state: Any, seat: int, orders_: Json) -> list[str]:
        return orders.order_problems(state, seat, orders_)

    def next_order_step(self, state: Any, seat: int, orders_: Json) -> OrderStep:
        return orders.next_order_step(state, seat, orders_)

    def order_interruption(self, before: Json, after: Json) -> str | None:
        return orders.order_interruption(before, after)

    def order_lines(self, state: Any, seat: int, orders_: Json) -> list[str]:
        return orders.order_lines(state, seat, orders_)

    def recap_lines(self, entries: list[Json]) -> list[str]:
        return orders.recap_lines(entries)

    # --- campaigns (none) -----------------------------------------------------------------------
    def campaign_results(self, state: Any) -> tuple[dict[str, Json], int]:
        return {}, 0

    # --- persistence -----------------------------------------------------------------------------
    def state_to_json(self, state: Any) -> Json:
        return state_to_json(state)

    def state_for_text(self, state: Any) -> Any:
        # The dataclasses themselves: orjson writes each as its fields, in order, the text
        # `state_to_json` gives, without first copying the state into dicts (a tenth the time).
        return state

    def state_from_json(self, data: Json, scenario: Any) -> Any:
        return state_from_json(data)


def _slug_of(source: str) -> str:
    data = json.loads(source)
    slug = data.get("slug") if isinstance(data, dict) else None
    return slug if isinstance(slug, str) and slug else "tale"


GAME: GameFace = ZagorFace()  # typed: mypy holds the face to the port
