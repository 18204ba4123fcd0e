"""JSON round-trips of actions, events and state; purity of apply; replay (engine-api.md)."""

import dataclasses
import json
import random
from typing import Any

import orjson
import pytest

from apps.games.heroquest.engine import (
    Attack,
    BadActionJSON,
    CastSpell,
    Disarm,
    DrinkPotion,
    EndActivation,
    EndPhase,
    EndTurn,
    Escape,
    IllegalAction,
    Jump,
    MonsterAttack,
    MonsterMove,
    Move,
    OpenDoor,
    RollMovement,
    SearchSecretDoors,
    SearchTraps,
    SearchTreasure,
    SetAutoDrink,
    State,
    TakeBelongings,
    action_from_json,
    action_to_json,
    apply,
    legal_actions,
    load_quest,
    replay,
    seat_view,
    seats_to_move,
)
from apps.games.heroquest.engine.playout import random_playout
from apps.games.heroquest.engine.state import _canonical

from .builders import build_quest, start

ALL_ACTIONS = [
    RollMovement("elf"),
    Move("elf", (3, 4)),
    OpenDoor("elf", "d1"),
    Attack("elf", "m2"),
    CastSpell("wizard", "genie", "d4"),
    SearchTreasure("elf"),
    SearchTraps("elf"),
    SearchSecretDoors("elf"),
    Disarm("dwarf", "t1"),
    Jump("elf", "t1", (2, 2)),
    DrinkPotion("elf"),
    TakeBelongings("elf", "dwarf"),
    SetAutoDrink("elf", False),
    Escape("elf"),
    EndTurn("elf"),
    MonsterMove("m2", (1, 1)),
    MonsterAttack("m2", "elf"),
    EndActivation("m2"),
    EndPhase(),
]

QUEST = build_quest(
    """
aaaaPPPPbbbb
aaaa....bbbb
""",
    doors=[((3, 0), (4, 0)), ((7, 0), (8, 0))],
    monsters=[("orc", (10, 1)), ("goblin", (9, 0))],
    villain=0,
)


@pytest.mark.parametrize("action", ALL_ACTIONS, ids=lambda a: a.type)
def test_every_action_round_trips_through_json(action):
    data = json.loads(json.dumps(action_to_json(action)))
    assert action_from_json(data) == action


def test_take_belongings_uses_the_from_key():
    assert action_to_json(TakeBelongings("elf", "dwarf")) == {
        "type": "take_belongings",
        "hero": "elf",
        "from": "dwarf",
    }


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "JSON object"),
        ({"type": "fly"}, "unknown action type"),
        ({"type": "move", "hero": "elf"}, "missing field 'to'"),
        ({"type": "move", "hero": "elf", "to": [1]}, "square"),
        ({"type": "move", "hero": 3, "to": [1, 2]}, "must be a string"),
        ({"type": "end_phase", "extra": 1}, "unexpected field"),
        ({"type": "set_auto_drink", "hero": "elf", "on": "yes"}, "true or false"),
    ],
)
def test_bad_action_json_says_what_is_wrong(data, message):
    with pytest.raises(BadActionJSON, match=message) as err:
        action_from_json(data)
    assert isinstance(err.value, ValueError) and isinstance(err.value, IllegalAction)


def test_apply_accepts_the_json_form():
    s = start(QUEST)
    t = apply(s, 2, {"type": "roll_movement", "hero": "barbarian"})
    assert t.state.turn.movement_rolled


def test_apply_leaves_the_input_state_untouched():
    s = start(QUEST)
    before = json.dumps(s.to_json(), sort_keys=True)
    apply(s, 2, RollMovement("barbarian"))
    assert json.dumps(s.to_json(), sort_keys=True) == before


def test_illegal_actions_raise_with_a_reason():
    with pytest.raises(IllegalAction) as err:
        apply(start(QUEST), 2, Move("barbarian", (1, 0)))
    assert err.value.reason == "Roll for movement first."


def test_state_round_trips_through_json_after_a_random_game():
    state, _ = random_playout(QUEST, 3, 7, max_actions=300)
    data = json.loads(json.dumps(state.to_json()))
    assert State.from_json(data, QUEST) == state


@pytest.fixture(scope="module")
def random_game_states() -> list[State]:
    """Every 7th state of three random games (played once for the tests that read them)."""
    states: list[State] = []
    for seed in range(3):
        random_playout(
            QUEST, 2 + seed, seed, max_actions=300, on_step=lambda before, *_: states.append(before)
        )
    return states[::7]


def test_state_for_text_is_written_as_exactly_the_text_of_to_json(
    random_game_states: list[State],
) -> None:
    """What the platform stores (`for_text`, orjson writing the parts as they are) reads as the
    state's JSON, byte for byte, all through a game."""
    for state in random_game_states:
        assert orjson.dumps(state.for_text()) == orjson.dumps(state.to_json())


def test_every_part_of_a_state_holds_exactly_its_fields_in_their_order(
    random_game_states: list[State],
) -> None:
    """orjson writes a dataclass instance's attributes: a part holding anything else (or its
    fields in another order) would be stored as other text than `to_json`'s."""
    for state in random_game_states:
        groups: list[Any] = [state.heroes, state.monsters, state.doors, state.traps]
        parts: list[Any] = [state.turn, state.mturn, *state.drops]
        for group in groups:
            parts.extend(group.values())
        for part in parts:
            assert list(vars(part)) == [f.name for f in dataclasses.fields(part)]


def test_replaying_the_action_log_reproduces_the_state_exactly():
    for seed in range(5):
        state, log = random_playout(QUEST, 2 + seed % 4, seed, max_actions=400)
        assert replay(QUEST, state.seats, seed, None, log) == state


def test_events_are_json_and_the_state_keeps_only_the_last_fifty():
    state, _ = random_playout(QUEST, 2, 3, max_actions=400)
    json.dumps(state.log)
    assert len(state.log) <= 50
    assert state.log[-1]["seq"] == state.seq


def _scrambled(value: Any, rnd: random.Random) -> Any:
    """The JSON value with every object's keys in a random order, as jsonb may return it."""
    if isinstance(value, dict):
        items = list(value.items())
        rnd.shuffle(items)
        return {k: _scrambled(v, rnd) for k, v in items}
    if isinstance(value, list):
        return [_scrambled(v, rnd) for v in value]
    return value


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_state_from_json_plays_on_identically_whatever_the_key_order(seed: int) -> None:
    quest = load_quest("ashen_vault")
    direct, log = random_playout(quest, 4, seed, max_actions=400)
    scrambler = random.Random(seed)

    state = replay(quest, 4, seed, None, log[:1])
    for seat, action in log[1:]:
        state = State.from_json(_scrambled(state.to_json(), scrambler), quest)
        state = apply(state, seat, action).state

    assert state.to_json() == direct.to_json()
    for seat in range(1, 5):
        assert seat_view(state, seat) == seat_view(direct, seat)
    assert seats_to_move(state) == seats_to_move(direct)
    assert legal_actions(state, 1) == legal_actions(direct, 1)


def test_keys_in_the_engines_order_are_kept_and_any_other_order_is_sorted_into_it():
    """A state stored as text comes back in its own order (no sort); jsonb's order is mended:
    the quest's monsters first, as the quest lists them, then wandering ones by number."""
    engine_order = ["m1", "m2", "wandering-2", "wandering-10"]
    arrived: dict[str, Any] = {key: {} for key in ["wandering-10", "m2", "wandering-2", "m1"]}
    written: dict[str, Any] = {key: {} for key in engine_order}

    assert list(_canonical(arrived, ["m1", "m2"])) == engine_order
    assert _canonical(written, ["m1", "m2"]) is written
