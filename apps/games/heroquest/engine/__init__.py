"""The pure HeroQuest rules engine (no Django, no I/O except reading quest files).

Public API (contract: docs/engine-api.md; rules: docs/rules.md):

- ``load_quest(name_or_path) -> Quest``: "ashen_vault" (the wing's quests/) or a
  path to a YAML quest file; cached per path.
- ``new_game(quest, seats, seed, options=None) -> State``: seats 2..5, seat 1 is Zargon.
  ``options["heroes"][hero]`` may carry campaign heroes (name, body, mind, weapon, armour, items,
  tool_kit, gold, potions, artifacts, spells); ``options["auto_skip_empty_monster_phase"]``
  (default True) passes Zargon's phase when no revealed monster can act.
- ``start_game(...) -> Transition``: ``new_game`` with the setup's events and RNG draws;
  ``new_game(..., commitment=...)`` announces the site's seed commitment in the log first.
- ``legal_actions(state, seat) -> list[Action]``: everything the seat may do now, targets
  included; a UI or bot picks from this list. ``set_auto_drink`` is legal any time for the
  hero's seat but never listed.
- ``apply(state, seat, action) -> Transition(state, events)``: ``action`` is an ``Action`` or its
  JSON dict. Pure: the input state is untouched. Raises ``IllegalAction`` (``.reason`` is
  player-readable and leaks nothing hidden); malformed JSON raises ``BadActionJSON`` (a subclass
  of both ``IllegalAction`` and ``ValueError``). Tests may pass ``dice=[...]`` to force results.
- ``seat_view(state, seat, parts=None) -> dict``: exactly what that seat may see (docs/rules.md
  13). ``ViewParts(state)``: what every seat's view of one state shares, worked out once; pass
  it to each view of a state that is never changed afterwards.
  ``SPECTATOR_SEAT`` (0) is no seat: someone watching, who sees what every hero seat sees in
  common and nothing private to any seat; it may not act.
- ``event_for_seat(event, seat) -> dict | None``; ``seats_to_move(state) -> list[int]``.
- ``replay(quest, seats, seed, options, [(seat, action_json), ...]) -> State``.
- ``State.to_json()`` / ``State.from_json(d, quest)`` (no registry: the caller names the quest),
  ``action_to_json`` / ``action_from_json``.

Events are plain dicts: type, text, audience ("all" | "zargon" | [seats]), dice, redacted, seq.
"""

from .actions import (
    Action,
    Attack,
    BadActionJSON,
    CastSpell,
    Disarm,
    DrinkPotion,
    EndActivation,
    EndPhase,
    EndTurn,
    Escape,
    Give,
    HeroAction,
    IllegalAction,
    Jump,
    LeaveBlock,
    MonsterAttack,
    MonsterMove,
    Move,
    OpenDoor,
    RollMovement,
    SearchSecretDoors,
    SearchTraps,
    SearchTreasure,
    SetAutoDrink,
    SetDrinkAt,
    SetOnTimeout,
    TakeBelongings,
    Throw,
    action_from_json,
    action_to_json,
)
from .data import SPECTATOR_SEAT, ZARGON_SEAT
from .engine import (
    Transition,
    apply,
    legal_actions,
    load_quest,
    new_game,
    replay,
    seats_to_move,
    start_game,
)
from .events import event_for_seat
from .quest import Quest
from .seat_views import ViewParts, seat_view
from .state import State

__all__ = [
    "SPECTATOR_SEAT",
    "ZARGON_SEAT",
    "Action",
    "Attack",
    "BadActionJSON",
    "CastSpell",
    "Disarm",
    "DrinkPotion",
    "EndActivation",
    "EndPhase",
    "EndTurn",
    "Escape",
    "Give",
    "HeroAction",
    "IllegalAction",
    "Jump",
    "LeaveBlock",
    "MonsterAttack",
    "MonsterMove",
    "Move",
    "OpenDoor",
    "Quest",
    "RollMovement",
    "SearchSecretDoors",
    "SearchTraps",
    "SearchTreasure",
    "SetAutoDrink",
    "SetDrinkAt",
    "SetOnTimeout",
    "State",
    "TakeBelongings",
    "Throw",
    "Transition",
    "ViewParts",
    "action_from_json",
    "action_to_json",
    "apply",
    "event_for_seat",
    "legal_actions",
    "load_quest",
    "new_game",
    "replay",
    "seat_view",
    "seats_to_move",
    "start_game",
]
