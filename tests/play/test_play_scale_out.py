"""Two ASGI processes sharing PostgreSQL and Redis: an action through process A's HTTP API
reaches a websocket held by process B (docs/design.md, "Live updates")."""

import asyncio
import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from websockets.asyncio.client import connect

from apps.accounts.services import token_issue
from tests.servers import server_env, shared_database_url, web_server

from .conftest import GameMaker

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def two_processes(redis_url: str, tmp_path: Path) -> Iterator[tuple[int, int]]:
    env = server_env(DATABASE_URL=shared_database_url(), REDIS_URL=redis_url)
    with web_server(env, tmp_path) as base_a, web_server(env, tmp_path) as base_b:
        yield int(base_a.rsplit(":", 1)[1]), int(base_b.rsplit(":", 1)[1])


def post_json(url: str, body: dict[str, Any], token: str) -> dict[str, Any]:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        result: dict[str, Any] = json.loads(response.read())
        return result


def test_an_action_on_process_a_reaches_a_websocket_on_process_b(
    postgres: None, make_game: GameMaker, two_processes: tuple[int, int]
) -> None:
    port_a, port_b = two_processes
    game, users = make_game(3, seed=7)
    zargon = Client()
    zargon.force_login(users[1])  # a session row in the shared database
    cookie = f"{settings.SESSION_COOKIE_NAME}={zargon.cookies[settings.SESSION_COOKIE_NAME].value}"
    token = token_issue(user=users[2])
    action = {"type": "roll_movement", "hero": "barbarian"}

    async def scenario() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        async with connect(
            f"ws://127.0.0.1:{port_b}/ws/games/{game.pk}/",
            origin=f"http://127.0.0.1:{port_b}",  # type: ignore[arg-type]
            additional_headers={"Cookie": cookie},
            open_timeout=10,
        ) as ws:
            first = json.loads(await asyncio.wait_for(ws.recv(), 10))
            answer = await asyncio.to_thread(
                post_json,
                f"http://127.0.0.1:{port_a}/api/games/{game.pk}/actions",
                {"action": action, "expected_version": 0, "idempotency_key": "scale-out"},
                token,
            )
            pushed = json.loads(await asyncio.wait_for(ws.recv(), 10))
        return first, answer, pushed

    first, answer, pushed = asyncio.run(scenario())

    assert (first["type"], first["version"], first["view"]["seat"]) == ("view", 0, 1)
    assert answer["version"] == 1
    assert (pushed["type"], pushed["version"]) == ("view", 1)
    assert pushed["view"]["seat"] == 1 and pushed["view"]["role"] == "zargon"
    assert pushed["view"]["turn"]["movement_rolled"] is True
