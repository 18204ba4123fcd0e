"""After PostgreSQL restarts, a web process's pooled connections are stale: the pool checks a
connection as it lends it (CONN_HEALTH_CHECKS, config/postgresql/base.py) and replaces a broken
one, so the first request after the outage is served instead of answering 503."""

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.db import connection

from apps.accounts.services import token_issue
from tests.play.conftest import GameMaker, make_game, make_room, quest  # noqa: F401  (fixtures)
from tests.servers import server_env, shared_database_url, web_server


def fetch(url: str, token: str) -> tuple[int, str]:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


@pytest.mark.faults
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_stale_pooled_connections_are_replaced_not_answered_503(
    postgres: None,
    make_game: GameMaker,  # noqa: F811  (the fixture)
    tmp_path: Path,
) -> None:
    game, users = make_game(2, seed=3)
    token = token_issue(user=users[2])
    env = server_env(DATABASE_URL=shared_database_url(), DB_POOL_MIN="2", DB_POOL_MAX="2")
    with web_server(env, tmp_path) as base:
        url = f"{base}/api/games/{game.pk}/view"
        assert fetch(url, token)[0] == 200  # the pool holds its connections now
        # The database "restarts": every connection but this test's own is cut, each backend
        # gone (its farewell on the socket) before the next request, as after a real restart.
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )

        answers = [fetch(url, token) for _ in range(4)]
    # The cut also hit this process's own idle pooled connections: replace them now, or the next
    # test would meet them one by one, each failed check backing off longer (1 s, 2 s, 4 s...)
    # until its wait for a connection ran out.
    pool = getattr(connection, "pool", None)  # (PostgreSQL's wrapper only)
    if pool is not None:
        pool.check()

    assert [status for status, _ in answers] == [200] * 4, answers
    assert json.loads(answers[0][1])["game_id"] == game.pk
