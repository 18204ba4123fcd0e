"""Faults: a frozen Redis (it accepts connections and never answers) holds no request.

Pokes to the game's sockets give up after REDIS_TIMEOUT, the action still commits and answers,
and /healthz answers 503 naming what is down. The web server test runs the whole site against the
frozen stub, broker included (tests/servers.py `frozen_redis`).
"""

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from apps.accounts.services import token_issue
from apps.core.realtime import group_poke
from apps.play.models import Game
from config.redis_layer import redis_channel_layer
from tests.servers import frozen_redis, server_env, shared_database_url, web_server

from .conftest import GameMaker, client_for, post_action

# Far above the site's own timeouts, far below the 60-90 s a frozen Redis used to cost: only
# there to turn a hang into a failure.
HANG = 20


@pytest.fixture
def frozen_layer(settings: Any) -> Iterator[str]:
    with frozen_redis() as url:
        settings.REDIS_TIMEOUT = 0.2
        settings.CHANNEL_LAYERS = {"default": redis_channel_layer(url=url, connect_timeout=0.2)}
        yield url


def test_a_poke_gives_up_on_a_frozen_redis(frozen_layer: str) -> None:
    assert group_poke(group="game-1", message={"type": "game.changed", "version": 1}) is False


@pytest.mark.django_db
def test_an_action_commits_and_answers_while_redis_is_frozen(
    frozen_layer: str, make_game: GameMaker, django_capture_on_commit_callbacks: Any
) -> None:
    game, users = make_game(3)
    with django_capture_on_commit_callbacks(execute=True):
        response = post_action(
            client_for(users[2]), game.pk, {"type": "roll_movement", "hero": "barbarian"}, 0
        )
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.version == 1


def request(url: str, *, body: dict[str, Any] | None = None, token: str = "") -> tuple[int, Any]:
    headers = {"Content-Type": "application/json"} | (
        {"Authorization": f"Bearer {token}"} if token else {}
    )
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=HANG) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.mark.faults
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_site_on_a_frozen_redis_serves_actions_and_says_what_is_down(
    postgres: None, make_game: GameMaker, tmp_path: Path
) -> None:
    game, users = make_game(3)
    token = token_issue(user=users[2])
    with frozen_redis() as url:
        env = server_env(
            DATABASE_URL=shared_database_url(),
            REDIS_URL=url,
            REDIS_TIMEOUT="0.5",
            HEALTH_CHECK_TIMEOUT="1.5",
        )
        with web_server(env, tmp_path, healthy=False) as base:
            roll = {"type": "roll_movement", "hero": "barbarian"}
            acted = request(
                f"{base}/api/games/{game.pk}/actions",
                body={"action": roll, "expected_version": 0, "idempotency_key": "frozen-1"},
                token=token,
            )
            end = {"type": "end_turn", "hero": "barbarian"}  # the turn passes: a publish
            passed = request(
                f"{base}/api/games/{game.pk}/actions",
                body={"action": end, "expected_version": 1, "idempotency_key": "frozen-2"},
                token=token,
            )
            health = request(f"{base}/healthz")

    assert acted == (200, acted[1]) and acted[1]["version"] == 1
    assert passed[0] == 200 and passed[1]["version"] == 2
    assert Game.objects.get(pk=game.pk).version == 2
    assert health[0] == 503
    assert health[1]["down"] == ["channel_layer", "broker"]
