"""The port between the platform and a game: what every game's face offers (pure, no Django).

A game is a pure package (its "wing", `apps/games/<slug>/`) whose `__init__` exposes one object,
`GAME`, satisfying `GameFace`. The platform (rooms, play, notifications, the pages) talks to a
game only through that object: it never imports below a game's face, never names a game's roles
or rules, and stores a game's state as the JSON the face gives it. In the spirit of
boardgame.io's `Game` object: the face describes the game, and the engine behind it judges.

Everything crossing the port is JSON-ready (dict, list, str, int, float, bool, None), except the
opaque `state` and `scenario` objects, which the platform only hands back to the same face.

Seats are numbered from 1; `SPECTATOR_SEAT` (0) is someone watching: `seat_view` gives them what
every player seat sees in common, `event_for_seat` only what is addressed to everyone, and no
action of theirs is ever accepted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol, runtime_checkable

SPECTATOR_SEAT = 0

Json = dict[str, Any]


class RefusalKind(StrEnum):
    """Why a game refuses an action; the platform maps each kind to an HTTP status."""

    MALFORMED = "malformed"  # not an action of this game at all (unknown type, bad field): 400
    NOT_YOURS = "not_yours"  # this seat may never send it (another seat's piece): 403
    NOT_NOW = "not_now"  # not this seat's turn, or the game is over: 409 / 403
    ILLEGAL = "illegal"  # the rules forbid it in this position: 422


class Refusal(Exception):
    """The game refuses an action; `reason` is for the player and leaks nothing hidden."""

    def __init__(self, kind: RefusalKind, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason


class ScenarioError(Exception):
    """A scenario's text cannot be played; `problems` lists every problem, one per string (with
    its line where the game can tell)."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


@dataclass(frozen=True)
class SeatRole:
    """Who sits at seat `number` of a table of a given size: `role` is a stable word the pages may
    style by ("zargon", "heroes"); `label` is what a player reads ("Zargon", "Barbarian & Dwarf");
    `pieces` are the figures the seat plays ("barbarian", "dwarf"), as the seat view names them."""

    number: int
    role: str
    label: str
    pieces: tuple[str, ...] = ()


@dataclass(frozen=True)
class OptionSpec:
    """One room option a host may choose: a yes/no (`choices` empty) or one of `choices`
    ((value, label) pairs). The rooms form and the API are built from these."""

    name: str
    label: str
    default: Any
    choices: tuple[tuple[str, str], ...] = ()
    help: str = ""
    numeric: bool = False  # a choice's value is a whole number (sent as text by a form)


@dataclass(frozen=True)
class Scenario:
    """One playable scenario of a game (a HeroQuest quest, a Zagor tale): what the platform lists
    and stores. `source` is the text the game parses back with `GameFace.scenario_parse` (a
    game stores what it launched with, so a later edit never changes a running game)."""

    slug: str
    name: str
    source: str
    summary: str = ""


@dataclass(frozen=True)
class Start:
    """A new game: its state, the events the setup logged and every die the setup drew, and the
    options to store for it (None: those given), which a replay hands back to `new_game` (a
    game may pin the revision of its rules there, so a later change of the rules never changes
    a game already launched)."""

    state: Any
    events: list[Json]
    draws: list[tuple[str, int, int]] = field(default_factory=list)
    options: Json | None = None


@dataclass(frozen=True)
class Step:
    """One accepted action: the new state, the events it produced (each with its audience and
    redacted form, for `event_for_seat`) and every number it drew from the seeded dice, in
    order, as (purpose, n, result): what a replay checks dice against."""

    state: Any
    events: list[Json]
    draws: list[tuple[str, int, int]] = field(default_factory=list)


@dataclass(frozen=True)
class Setting:
    """A private standing setting carried by an action (HeroQuest's auto-drink, Zagor's
    surrender threshold): the platform stores it per game and `owner` (a piece the seat plays)
    outside the log, and hands all of them back through `GameFace.with_settings`."""

    owner: str
    name: str
    value: Any


@dataclass(frozen=True)
class BoardAssets:
    """The game's own scripts, style and pages for the table: the board module the game page
    loads (it draws the seat view and offers its legal actions), the replay's module and the
    style sheet, as static paths; the game's page and replay page, as template names (each
    extends the platform's, templates/play/game.html and replay.html, and fills its blocks).
    What every game shares (socket, posting, chat, log, fairness, clock) is the platform's."""

    board: str
    replay: str
    style: str
    extra: tuple[str, ...] = ()  # more of the game's modules the game page loads after the board
    template: str = "play/game.html"  # a game without a page of its own gets the shared one
    replay_template: str = "play/replay.html"


@runtime_checkable
class GameFace(Protocol):
    """What a game offers the platform. Each game's `__init__` exposes one as `GAME`."""

    slug: str  # "heroquest": stored on every Room and Game row
    name: str  # "HeroQuest"
    min_seats: int
    max_seats: int
    has_campaigns: bool
    # The seat an AI may play when the room asks for it (HeroQuest: Zargon), or None.
    ai_seat: int | None
    # The seat that may speak as the narrator in the table talk (a game master's), or None.
    narrator_seat: int | None
    # Who sits where, in a sentence for the new-room page.
    table_summary: str
    # Words for the scenarios in a sentence: ("quest", "quests") or ("tale", "tales").
    scenario_words: tuple[str, str]
    # The rooms form's two choices for the AI seat (when `ai_seat` is set): a person, the AI.
    ai_seat_choices: tuple[str, str]
    # The table's scripts and style (static paths).
    assets: BoardAssets
    # Action types that only change a private standing setting (`setting_of`): never logged,
    # never versioned, accepted whoever's turn it is.
    setting_actions: frozenset[str]
    # Top-level parts of a seat view the game hands out as one object for as long as they stay
    # the same (to many views, many versions), and never changes once handed out: the platform
    # keeps such a part's JSON text by the object's identity instead of encoding it again.
    shared_view_parts: frozenset[str]

    # --- seats and options ---------------------------------------------------------------------
    def seat_roles(self, seats: int) -> list[SeatRole]:
        """The role of every seat of a table of `seats` (min_seats..max_seats)."""
        ...

    def first_seat(self, *, ai: bool) -> int:
        """The lowest seat a person takes (with the AI seat played by the AI, the next one)."""
        ...

    def seat_count_label(self, seats: int) -> str:
        """A table size in a player's words ("3 seats (Zargon and 2 hero players)")."""
        ...

    def option_specs(self) -> list[OptionSpec]: ...

    def option_defaults(self) -> Json: ...

    def option_problems(self, options: Any) -> list[str]:
        """Every problem of a room's options, in a player's words (empty: fine)."""
        ...

    def option_lines(self, options: Json) -> list[str]:
        """The rules in force, one line each, for the room and game pages."""
        ...

    # --- scenarios -------------------------------------------------------------------------------
    def scenarios(self) -> list[Scenario]:
        """The scenarios shipped with the game, in the order a lobby lists them."""
        ...

    def scenario_read(self, source: str, filename: str) -> Scenario:
        """A scenario's text checked and read (raises ScenarioError listing every problem;
        `filename` names it in the messages)."""
        ...

    def scenario_parse(self, slug: str, source: str) -> Any:
        """The scenario object `new_game` and `state_from_json` take (cached by the game)."""
        ...

    def scenario_problems(self, source: str, filename: str) -> list[str]:
        """Every problem of a scenario's text (empty: it can be played); `filename` names it in
        the messages."""
        ...

    # --- playing ---------------------------------------------------------------------------------
    def new_game(
        self, scenario: Any, seats: int, seed: int, options: Json, *, commitment: str | None
    ) -> Start:
        """A new game; the commitment to the seed is logged to every seat before any die."""
        ...

    def legal_actions(self, state: Any, seat: int) -> list[Json]:
        """Every action `seat` may send now (JSON), targets included."""
        ...

    def apply(self, state: Any, seat: int, action: Json) -> Step:
        """Judge and play one action of `seat`; raise `Refusal` with its kind. Pure."""
        ...

    def seat_view(self, state: Any, seat: int) -> Json:
        """Exactly what `seat` may see now (SPECTATOR_SEAT: what every seat sees in common)."""
        ...

    def replay_view(self, state: Any) -> Json:
        """The board of a finished game's replay step: everything shown (the seed is out, the
        game is over), without legal actions or a log (the replay sends entries per step)."""
        ...

    def event_for_seat(self, event: Json, seat: int) -> Json | None:
        """The event as `seat` may see it, or None."""
        ...

    def seats_to_move(self, state: Any) -> list[int]:
        """The seats whose turn it is (empty once the game is over)."""
        ...

    def round_of(self, state: Any) -> int: ...

    def outcome_of(self, state: Any) -> str | None:
        """The outcome's word once the game is over ("heroes", "zargon", "hero:dwarf", ...)."""
        ...

    def outcome_text(self, outcome: str) -> str:
        """The outcome in a sentence a player reads ("The heroes won.")."""
        ...

    def timeout_action(self, state: Any, seat: int) -> Json | None:
        """What a seat whose turn timed out plays (None: the AI plays it, see `ai_action`)."""
        ...

    def turn_notice(self, state: Any, seat: int, *, reminder: bool, where: str) -> tuple[str, str]:
        """The title and text telling `seat` it is to move at the table `where` (the room's
        name), or reminding it."""
        ...

    def timeout_notice(self, state: Any, seat: int, *, limit: str, where: str) -> tuple[str, str]:
        """The title and text telling the seat whose turn timed out what was done for it
        (`limit`: "2 hours")."""
        ...

    def timeout_rule(self) -> str:
        """The published default for a timed-out turn, in a sentence."""
        ...

    def ai_action(self, state: Any, seat: int) -> Json | None:
        """The AI's next action for `seat` (always one of its legal actions), or None."""
        ...

    # --- private standing settings -------------------------------------------------------------
    def setting_of(self, state: Any, seat: int, action: Json) -> Setting | None:
        """The private setting `action` changes, or None for an ordinary action; raises
        `Refusal` when the seat may not change it."""
        ...

    def with_settings(self, state: Any, settings: dict[str, Json]) -> Any:
        """A new state with each owner's standing settings in force (the input is untouched)."""
        ...

    # --- campaigns (games with `has_campaigns`) -------------------------------------------------
    def campaign_results(self, state: Any) -> tuple[dict[str, Json], int]:
        """What a finished game writes back to its campaign: each piece's final sheet, and the
        reward each survivor shares."""
        ...

    def scenario_preview(self, scenario: Any) -> Json:
        """The starting board as the game master (or the whole table) sees it, for admins."""
        ...

    # --- persistence -----------------------------------------------------------------------------
    def state_to_json(self, state: Any) -> Json: ...

    def state_for_text(self, state: Any) -> Any:
        """What the platform writes as the state's JSON text at once (never keeps): a value
        whose text is exactly `state_to_json`'s, which may hold tuples (written as lists) and
        dataclass instances whose attributes are their fields (written as such, in order), so
        that storing a state need not copy it into plain JSON first."""
        ...

    def state_from_json(self, data: Json, scenario: Any) -> Any:
        """The state stored as `data`, which must play on exactly as the state `data` was
        stored from. The platform keeps states and hands one to any number of readers
        (apps/play/state_cache.py): nothing a face offers ever changes a state in place."""
        ...


# --- standing orders (optional: a game whose turns have several steps) ---------------------------


@dataclass(frozen=True)
class OrderStep:
    """What a seat's standing orders do next. `action` (JSON, one of the seat's legal actions)
    is played now; with no action, `stop_reason` None means nothing to do yet (not the seat's
    turn, or nothing queued for it: the orders wait), and a `stop_reason` means the orders stop
    here and the rest is the player's, told why. `remaining`: the orders after this step."""

    action: Json | None
    stop_reason: str | None
    remaining: Json


@dataclass(frozen=True)
class RulesDocuments:
    """A game's rules as documents of the project (Markdown, paths from the project's root): the
    rules for players, in a player's words with the site's own readings marked "On this site"
    (the page /rules/<slug>/), and the site's complete reference, which code and tests cite (the
    page /rules/<slug>/reference/)."""

    players: str
    reference: str


@runtime_checkable
class RulesPages(Protocol):
    """A game whose rules the site serves (both shipped games). A face without them gets none."""

    rules_documents: RulesDocuments


@runtime_checkable
class StandingOrders(Protocol):
    """What a game offers to play a seat's turn ahead of time (HeroQuest: a path, a door, one
    action; Zargon: the idle rule, the AI). A face that satisfies it too gets standing orders
    from the platform; one that does not, none. Every method must decide from what `seat` may
    know (its `seat_view`), never from hidden state: the same orders on two games that differ
    only in what the seat cannot see play the same steps."""

    def order_problems(self, state: Any, seat: int, orders: Json) -> list[str]:
        """Every problem of `orders` for `seat` now, in a player's words (empty: accepted)."""
        ...

    def next_order_step(self, state: Any, seat: int, orders: Json) -> OrderStep:
        """The next step of `seat`'s orders in `state` (settings in force)."""
        ...

    def order_interruption(self, before: Json, after: Json) -> str | None:
        """Why a step that turned the seat's view `before` into `after` (both `seat_view`s of
        the same seat) must stop its orders, in a player's words; None: carry on."""
        ...

    def order_lines(self, state: Any, seat: int, orders: Json) -> list[str]:
        """The orders in a player's words, one line each (the page shows them)."""
        ...

    def recap_lines(self, entries: list[Json]) -> list[str]:
        """The few story lines that sum up `entries` (a seat's log entries, oldest first)."""
        ...
