"""Schemathesis against the OpenAPI schema (`/api/openapi.json`): no input a client can send
makes the API answer a server error. A bounded run (MAX_EXAMPLES per operation), in process
through the WSGI application, as a signed-in player (a bearer token) who hosts an open room and
sits in a launched game: most generated ids are replaced by theirs, so the fuzzed bodies reach
the real handlers instead of stopping at 404. API_FUZZ_EXAMPLES changes the bound.

It found: a non-ASCII `?invite=` code answered 500 (secrets.compare_digest refuses non-ASCII
text; the codes are compared as bytes now).
"""

import os
import zlib
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings

from apps.accounts.services import token_issue
from apps.play.models import Game
from apps.rooms.models import Room
from apps.rooms.services import room_create
from config.wsgi import application
from tests.play.conftest import (  # noqa: F401  (fixtures)
    GameMaker,
    make_game,
    make_room,
    quest,
)

pytestmark = pytest.mark.usefixtures("celery_eager")  # launches enqueue notifications

MAX_EXAMPLES = int(os.environ.get("API_FUZZ_EXAMPLES", "50"))


@pytest.fixture
def test_connection_kept(db: None) -> Iterator[None]:
    """Requests through the WSGI app must not close the test's database connection (inside
    its transaction) at their end: Django's test client unhooks the same handler."""
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (request_started, request_finished):
        signal.connect(close_old_connections)


@pytest.fixture
def api_schema(test_connection_kept: None) -> Any:
    return schemathesis.openapi.from_wsgi("/api/openapi.json", application)


schema = schemathesis.pytest.from_fixture("api_schema")


@pytest.fixture
def player(make_game: GameMaker, settings: Any) -> tuple[str, Game, Room]:  # noqa: F811
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    game, users = make_game(3)
    waiting = room_create(host=users[2], name="Waiting", seat_count=2)
    return token_issue(user=users[2]), game, waiting


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_no_input_makes_the_api_fail(case: Any, player: tuple[str, Game, Room]) -> None:
    token, game, room = player
    ids = case.path_parameters or {}
    # Deterministic (Hypothesis replays a failure), three in four: the player's own ids.
    if zlib.crc32(repr((case.query, case.body)).encode("utf-8", "replace")) % 4:
        ids.update({k: v for k, v in (("game_id", game.pk), ("room_id", room.pk)) if k in ids})

    response = case.call(headers={"Authorization": f"Bearer {token}"})

    assert response.status_code < 500, (case.method, case.formatted_path, response.text)
