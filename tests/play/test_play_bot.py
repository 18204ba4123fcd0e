"""The test and load bot (tests/play/bot.py): a map worked out once is the map worked out fresh."""

from typing import Any

import orjson

from apps.games.heroquest.engine.engine import apply, load_quest, new_game, seats_to_move
from apps.games.heroquest.engine.seat_views import seat_view
from apps.games.heroquest.engine.state import State

from .bot import Bot, Map


def _view(state: State, seat: int) -> dict[str, Any]:  # as a client has it: decoded JSON
    return orjson.loads(orjson.dumps(seat_view(state, seat)))


def test_a_bot_that_keeps_its_map_chooses_as_one_that_works_it_out_every_time() -> None:
    state = new_game(load_quest("ashen_vault"), 3, seed=7)
    keeping, fresh = Bot(seed=1), Bot(seed=1)
    maps_seen = set()
    for _ in range(300):
        if state.outcome:
            break
        seat = seats_to_move(state)[0]
        view = _view(state, seat)
        fresh._map = None  # forgets the map it saw: works it out again
        chosen = keeping.choose(view)

        assert chosen is not None and chosen == fresh.choose(view)
        if keeping._map is not None:
            maps_seen.add(keeping._map[0])
        state = apply(state, seat, chosen).state
    assert len(maps_seen) > 1  # doors opened on the way: the kept map was worked out again


def test_a_squares_steps_are_the_open_sides_between_seen_squares() -> None:
    state = new_game(load_quest("ashen_vault"), 2, seed=3)
    board = Map(_view(state, 1))

    for square, steps in board.steps.items():
        for step in steps:
            assert step in board.walls and step not in board.blocked
            if square not in board.blocked:  # furniture is left, never entered
                assert square in board.steps[step]  # an open step is open both ways
