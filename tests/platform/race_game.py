"""A tiny game known only to the tests: two runners race along a line of squares.

Each turn the runner to move rolls a die (1-3, from the seed) and moves on; the first past the
end wins. A seat may also "rest" (move 0). Nothing is hidden but the dice to come. It exists to
prove that the platform plays any game through the port alone (apps/games/port.py).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from apps.games.port import (
    SPECTATOR_SEAT,
    BoardAssets,
    GameFace,
    Json,
    OptionSpec,
    Refusal,
    RefusalKind,
    Scenario,
    ScenarioError,
    SeatRole,
    Setting,
    Start,
    Step,
)

MASK = (1 << 64) - 1


def _splitmix(state: int) -> tuple[int, int]:
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


@dataclass
class RaceState:
    length: int
    rng: int
    positions: dict[int, int] = field(default_factory=lambda: {1: 0, 2: 0})
    turn: int = 1
    round: int = 1
    winner: int | None = None
    seq: int = 0


def _event(state: RaceState, text: str, **extra: Any) -> Json:
    state.seq += 1
    return {"type": "race", "text": text, "audience": "all", "redacted": None, "seq": state.seq}


class Race:
    slug = "race"
    name = "Line Race"
    min_seats = 2
    max_seats = 2
    has_campaigns = False
    ai_seat: int | None = None
    narrator_seat: int | None = None
    table_summary = "Two runners race along a line."
    scenario_words = ("track", "tracks")
    ai_seat_choices = ("", "")
    setting_actions: frozenset[str] = frozenset()
    shared_view_parts: frozenset[str] = frozenset()
    assets = BoardAssets(
        board="js/games/heroquest/board.js",
        replay="js/games/heroquest/replay.js",
        style="css/games/heroquest/board.css",
    )

    def seat_roles(self, seats: int) -> list[SeatRole]:
        return [SeatRole(n, "runner", f"Runner {n}", (f"runner{n}",)) for n in (1, 2)]

    def first_seat(self, *, ai: bool) -> int:
        return 1

    def seat_count_label(self, seats: int) -> str:
        return f"{seats} runners"

    def option_specs(self) -> list[OptionSpec]:
        return []

    def option_defaults(self) -> Json:
        return {}

    def option_problems(self, options: Any) -> list[str]:
        return [] if not options else ["The race has no options."]

    def option_lines(self, options: Json) -> list[str]:
        return ["First past the end wins"]

    def scenarios(self) -> list[Scenario]:
        return [Scenario(slug="short_track", name="The Short Track", source="length: 6")]

    def scenario_read(self, source: str, filename: str) -> Scenario:
        self._length(source)
        return Scenario(slug="short_track", name="The Short Track", source=source)

    def scenario_parse(self, slug: str, source: str) -> int:
        return self._length(source or "length: 6")

    def scenario_problems(self, source: str, filename: str) -> list[str]:
        try:
            self._length(source)
        except ScenarioError as exc:
            return exc.problems
        return []

    @staticmethod
    def _length(source: str) -> int:
        key, _, value = source.partition(":")
        if key.strip() != "length" or not value.strip().isdigit():
            raise ScenarioError(["the track says `length: N`"])
        return int(value)

    def scenario_preview(self, scenario: Any) -> Json:
        return {"length": scenario}

    def new_game(
        self, scenario: Any, seats: int, seed: int, options: Json, *, commitment: str | None
    ) -> Start:
        state = RaceState(length=scenario, rng=seed & MASK)
        events = [_event(state, "The runners are on their marks.")]
        return Start(state=state, events=events)

    def legal_actions(self, state: RaceState, seat: int) -> list[Json]:
        if state.winner is not None or seat != state.turn:
            return []
        return [{"type": "run"}, {"type": "rest"}]

    def apply(self, state: RaceState, seat: int, action: Json) -> Step:
        if not isinstance(action, dict) or action.get("type") not in ("run", "rest"):
            raise Refusal(RefusalKind.MALFORMED, "Runners run or rest.")
        if seat == SPECTATOR_SEAT or seat not in (1, 2):
            raise Refusal(RefusalKind.NOT_YOURS, "Only runners race.")
        if state.winner is not None or seat != state.turn:
            raise Refusal(RefusalKind.NOT_NOW, "It is not your turn.")
        new = copy.deepcopy(state)
        draws: list[tuple[str, int, int]] = []
        steps = 0
        if action["type"] == "run":
            new.rng, value = _splitmix(new.rng)
            steps = value % 3 + 1
            draws.append(("race", 3, steps - 1))
        new.positions[seat] += steps
        events = [_event(new, f"Runner {seat} moves {steps}.")]
        if new.positions[seat] >= new.length:
            new.winner = seat
            events.append(_event(new, f"Runner {seat} wins."))
        else:
            new.turn = 2 if seat == 1 else 1
            new.round += new.turn == 1
        return Step(state=new, events=events, draws=draws)

    def seat_view(self, state: RaceState, seat: int) -> Json:
        return {
            "seat": seat,
            "positions": {str(k): v for k, v in state.positions.items()},
            "length": state.length,
            "turn": state.turn,
            "winner": state.winner,
            "legal_actions": self.legal_actions(state, seat),
        }

    def replay_view(self, state: RaceState) -> Json:
        view = self.seat_view(state, SPECTATOR_SEAT)
        view.pop("legal_actions")
        return view

    def event_for_seat(self, event: Json, seat: int) -> Json | None:
        return event

    def seats_to_move(self, state: RaceState) -> list[int]:
        return [] if state.winner is not None else [state.turn]

    def round_of(self, state: RaceState) -> int:
        return state.round

    def outcome_of(self, state: RaceState) -> str | None:
        return None if state.winner is None else f"runner{state.winner}"

    def outcome_text(self, outcome: str) -> str:
        return f"{outcome} won"

    def timeout_action(self, state: RaceState, seat: int) -> Json | None:
        return {"type": "rest"} if seat in self.seats_to_move(state) else None

    def timeout_rule(self) -> str:
        return "A runner who runs out of time rests."

    def ai_action(self, state: RaceState, seat: int) -> Json | None:
        return None

    def turn_notice(
        self, state: RaceState, seat: int, *, reminder: bool, where: str
    ) -> tuple[str, str]:
        return f"Your run in {where}", "The other runner has moved."

    def timeout_notice(
        self, state: RaceState, seat: int, *, limit: str, where: str
    ) -> tuple[str, str]:
        return f"Your run in {where} timed out", f"You had {limit}; you rested."

    def setting_of(self, state: RaceState, seat: int, action: Json) -> Setting | None:
        return None

    def with_settings(self, state: RaceState, settings: dict[str, Json]) -> RaceState:
        return state

    def campaign_results(self, state: RaceState) -> tuple[dict[str, Json], int]:
        return {}, 0

    def state_to_json(self, state: RaceState) -> Json:
        return {
            "length": state.length,
            "rng": state.rng,
            "positions": {str(k): v for k, v in state.positions.items()},
            "turn": state.turn,
            "round": state.round,
            "winner": state.winner,
            "seq": state.seq,
        }

    def state_for_text(self, state: RaceState) -> Json:
        return self.state_to_json(state)

    def state_from_json(self, data: Json, scenario: Any) -> RaceState:
        return RaceState(
            length=data["length"],
            rng=data["rng"],
            positions={int(k): v for k, v in data["positions"].items()},
            turn=data["turn"],
            round=data["round"],
            winner=data["winner"],
            seq=data["seq"],
        )


RACE: GameFace = Race()
