"""Two ASGI processes sharing PostgreSQL and Redis: an action through process A's HTTP API
reaches a websocket held by process B (design.md, "Live updates")."""

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

from apps.accounts.services import token_issue

from .conftest import GameMaker

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
DAPHNE = Path(sys.executable).parent / "daphne"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def database_url() -> str:
    """The URL of the test database this test writes to (the processes must see its rows)."""
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def wait_until_serving(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"daphne on {port} exited:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"daphne on {port} did not start:\n{log.read_text()}")


@pytest.fixture
def two_processes(redis_url: str, tmp_path: Path) -> Iterator[tuple[int, int]]:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database_url(),
        "REDIS_URL": redis_url,
        "SECRET_KEY": settings.SECRET_KEY,
        "LOG_LEVEL": "WARNING",
    }
    ports = (free_port(), free_port())
    processes = []
    try:
        for port in ports:
            log = tmp_path / f"daphne-{port}.log"
            process = subprocess.Popen(
                [str(DAPHNE), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
                cwd=ROOT,
                env=env,
                stdout=log.open("wb"),
                stderr=subprocess.STDOUT,
            )
            processes.append(process)
            wait_until_serving(port, process, log)
        yield ports
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


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
    from websockets.asyncio.client import connect

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
