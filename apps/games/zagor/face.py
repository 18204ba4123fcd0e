"""Legend of Zagor's face: what the platform calls (apps/games/port.py's `GameFace`)."""

from __future__ import annotations

from typing import Any

from apps.games.port import Refusal, RefusalKind, Scenario, SeatRole, Setting, Start, Step

from . import ai, engine, events, views
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
    scenario_words = ("tale", "tales")

    # --- seats and options -----------------------------------------------------------------------
    def seat_roles(self, seats: int) -> list[SeatRole]:
        if not self.min_seats <= seats <= self.max_seats:
            raise ValueError(f"Legend of Zagor seats 1 to 4 heroes, not {seats}.")
        return [SeatRole(n, "hero", HEROES[n - 1].name) for n in range(1, seats + 1)]

    def first_seat(self, *, ai: bool) -> int:
        return 1

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

    def scenario_problems(self, source: str) -> list[str]:
        return scenario_problems(source)

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
        s: State = state.copy()
        for owner, values in settings.items():
            hero = s.heroes.get(owner)
            value = values.get(SURRENDER) if isinstance(values, dict) else None
            if hero is not None and isinstance(value, int) and not isinstance(value, bool):
                hero.surrender_at = max(0, min(value, hero.stamina_max))
        return s

    # --- persistence -----------------------------------------------------------------------------
    def state_to_json(self, state: Any) -> Json:
        return state_to_json(state)

    def state_from_json(self, data: Json, scenario: Any) -> Any:
        return state_from_json(data)


GAME = ZagorFace()
