"""Random and goal-seeking playouts of every tale with 1 to 4 heroes: no crash, a legal action
for the seat to move while the game runs, deterministic replay, JSON round-trip, no leak."""

import json
from dataclasses import asdict, fields, is_dataclass
from typing import Any

import pytest

from apps.core.jsontext import json_text
from apps.games.zagor import GAME
from apps.games.zagor.engine import apply, new_game
from apps.games.zagor.playout import goal_policy, playout, random_policy
from apps.games.zagor.scenarios import SLUGS, shipped

from .leakcheck import twin


def every_part_holds_exactly_its_fields_in_order(value: Any) -> bool:
    """orjson writes a dataclass instance's attributes: a part holding anything else, or its
    fields in another order, would be stored as other text than `state_to_json`'s."""
    if isinstance(value, list):
        return all(every_part_holds_exactly_its_fields_in_order(v) for v in value)
    if isinstance(value, dict):
        return all(every_part_holds_exactly_its_fields_in_order(v) for v in value.values())
    if is_dataclass(value):
        names = [f.name for f in fields(value)]
        return list(vars(value)) == names and all(
            every_part_holds_exactly_its_fields_in_order(getattr(value, n)) for n in names
        )
    return True


def check_game(slug, heroes, seed, policy, max_actions, leak_every=0):
    steps = []

    def check(state, seat, action):
        assert GAME.seats_to_move(state) == [seat]
        legal = GAME.legal_actions(state, seat)
        assert legal and action in legal
        for other in range(1, heroes + 1):
            if other != seat:
                assert GAME.legal_actions(state, other) == []
        steps.append(state)

    final, log = playout(slug, heroes, seed, policy, max_actions=max_actions, on_step=check)
    # deterministic replay from seed + actions
    state = new_game(shipped(slug), heroes, seed, {}, commitment=None).state
    for seat, action in log:
        state = apply(state, seat, action).state
    assert state == final
    # JSON round-trip, the hand-walked state as the standard library's walk makes it
    for st in [*steps[:: max(1, len(steps) // 5)], final]:
        assert GAME.state_to_json(st) == asdict(st)
        assert st.copy() == st
        data = json.loads(json.dumps(GAME.state_to_json(st)))
        assert GAME.state_from_json(data, None) == st
        assert data == json.loads(json.dumps(GAME.state_to_json(st)))  # taken over, not changed
        # What the platform stores: the dataclasses written by orjson, exactly this JSON's text.
        assert json_text(GAME.state_for_text(st)) == json_text(GAME.state_to_json(st))
        assert every_part_holds_exactly_its_fields_in_order(st)
    if leak_every:
        for st in steps[::leak_every]:
            for seat in range(heroes + 1):
                assert GAME.seat_view(st, seat) == GAME.seat_view(twin(st, seat, seed), seat)
    return final


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("heroes", [1, 2, 3, 4])
def test_short_playouts_of_every_tale_and_table_size(slug, heroes):
    check_game(slug, heroes, 100 + heroes, random_policy, 150, leak_every=50)
    check_game(slug, heroes, 200 + heroes, goal_policy, 150)


@pytest.mark.slow
@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("heroes", [1, 2, 3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_whole_playouts_end_with_a_defined_outcome(slug, heroes, seed):
    for policy in (random_policy, goal_policy):
        final = check_game(slug, heroes, seed, policy, 30000, leak_every=97)
        assert final.outcome is not None
        assert final.outcome == "zagor" or final.outcome.startswith("hero:")
