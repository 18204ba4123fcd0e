"""Many writers on one game at once, on PostgreSQL: one action per version, no gap, no double."""

import threading
from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from django.db import connection

from apps.games.heroquest import engine as rules
from apps.games.heroquest.engine.questfile import parse_quest_text
from apps.play.errors import StaleVersion
from apps.play.models import Game, GameEvent
from apps.play.services import quest_apply_action
from apps.play.verify import game_verify

from .bot import Bot
from .conftest import GameMaker

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

THREADS = 8


def all_at_once(jobs: list[Callable[[], Any]]) -> list[Any]:
    """Run the jobs in threads released together; each result or exception, in job order."""
    barrier = threading.Barrier(len(jobs))
    results: list[Any] = [None] * len(jobs)

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = jobs[i]()
        except Exception as exc:
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results


def next_move(game: Game) -> tuple[int, dict[str, Any]]:
    game.refresh_from_db()
    state = rules.State.from_json(game.state, parse_quest_text(game.quest_source))
    seat = rules.seats_to_move(state)[0]
    action = Bot(game.version).choose(rules.seat_view(state, seat))
    assert action is not None
    return seat, action


def test_racing_writers_get_exactly_one_action_per_version(
    postgres: None, make_game: GameMaker
) -> None:
    game, _ = make_game(3, seed=3)
    for version in range(12):
        seat, action = next_move(game)

        results = all_at_once(
            [
                partial(
                    quest_apply_action,
                    game_id=game.pk,
                    seat=seat,
                    action=action,
                    expected_version=version,
                    key=f"v{version}-writer{n}",
                )
                for n in range(THREADS)
            ]
        )

        accepted = [r for r in results if isinstance(r, dict)]
        stale = [r for r in results if isinstance(r, StaleVersion)]
        assert len(accepted) == 1, results
        assert len(stale) == THREADS - 1 and {s.current_version for s in stale} == {version + 1}
        assert accepted[0]["version"] == version + 1

    game.refresh_from_db()
    assert game.version == 12
    rows = list(game.events.order_by("seq"))
    assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
    assert Counter(r.version for r in rows if r.kind == GameEvent.Kind.ACTION) == {
        v: 1 for v in range(1, 13)
    }
    assert game.events.filter(kind=GameEvent.Kind.ACTION).exclude(key=None).count() == 12
    assert game_verify(game_id=game.pk).ok


def test_concurrent_retries_of_one_key_apply_once(postgres: None, make_game: GameMaker) -> None:
    game, _ = make_game(2, seed=4)
    for version in range(5):
        seat, action = next_move(game)
        retry = partial(
            quest_apply_action,
            game_id=game.pk,
            seat=seat,
            action=action,
            expected_version=version,
            key=f"retry-{version}",
        )
        results = all_at_once([retry] * THREADS)
        assert all(isinstance(r, dict) for r in results), results
        assert all(r == results[0] for r in results)
        assert results[0]["version"] == version + 1

    game.refresh_from_db()
    assert game.version == 5
    assert game.events.filter(kind=GameEvent.Kind.ACTION).count() == 5
    seqs = list(game.events.order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    assert game_verify(game_id=game.pk).ok
