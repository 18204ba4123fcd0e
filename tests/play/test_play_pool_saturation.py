"""Fault: more requests at once than the database pool holds. A web process lets at most
DB_POOL_MAX connections out; a request that cannot get one within DB_POOL_TIMEOUT is answered
503 with Retry-After and a JSON detail (config/errors.py), never 500, and the process serves on."""

import json
import threading
import urllib.error
import urllib.request
from email.message import Message
from pathlib import Path

import pytest

from apps.accounts.services import token_issue
from tests.servers import server_env, shared_database_url, web_server_process

from .conftest import GameMaker

CLIENTS = 24
REQUESTS_EACH = 8


def fetch(url: str, token: str) -> tuple[int, dict[str, str], str]:
    """(status, headers with lower-case names: HTTP's are case-insensitive, uvicorn sends them
    lower-case), body)."""
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, lower_case(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, lower_case(error.headers), error.read().decode()


def lower_case(headers: Message) -> dict[str, str]:
    return {name.lower(): value for name, value in headers.items()}


@pytest.mark.faults
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_saturated_pool_answers_503_with_retry_after_never_500(
    postgres: None, make_game: GameMaker, tmp_path: Path
) -> None:
    game, users = make_game(2, seed=3)
    token = token_issue(user=users[2])
    # One pooled connection, and almost no patience for it: concurrent requests must queue for
    # it and some must give up.
    env = server_env(
        DATABASE_URL=shared_database_url(),
        DB_POOL_MIN="1",
        DB_POOL_MAX="1",
        DB_POOL_TIMEOUT="0.01",
    )
    answers: list[tuple[int, dict[str, str], str]] = []
    lock = threading.Lock()

    with web_server_process(env, tmp_path) as (base, process):
        url = f"{base}/api/games/{game.pk}/view"

        def client() -> None:
            for _ in range(REQUESTS_EACH):
                answer = fetch(url, token)
                with lock:
                    answers.append(answer)

        threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=300)
        assert process.poll() is None  # the process survived the flood
        after = fetch(url, token)  # and serves once it is over

    statuses = [status for status, _headers, _body in answers]
    assert len(statuses) == CLIENTS * REQUESTS_EACH
    assert set(statuses) <= {200, 503}, sorted(set(statuses))
    refused = [(headers, body) for status, headers, body in answers if status == 503]
    assert refused, "the pool of one connection was never saturated"
    for headers, body in refused:
        assert "retry-after" in headers
        assert "detail" in json.loads(body)
    assert after[0] == 200
