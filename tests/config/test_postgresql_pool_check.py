"""A pooled connection is lent without a round trip while its server has said nothing; one the
server has ended gets psycopg_pool's own check, which finds it broken (config/postgresql/)."""

import select
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from django.db import connection
from psycopg_pool import ConnectionPool

from config.postgresql.base import connection_check


@pytest.fixture
def spare_connection(postgres: None) -> Iterator[psycopg.Connection[Any]]:
    """A connection of its own to the test database, idle, as the pool keeps one."""
    params = connection.get_connection_params() | {"autocommit": True}
    spare = psycopg.connect(**params)
    try:
        yield spare
    finally:
        spare.close()


def round_trips_counted(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    sent: list[object] = []
    real_check = ConnectionPool.check_connection

    def counted(conn: Any) -> None:
        sent.append(conn)
        real_check(conn)

    monkeypatch.setattr(ConnectionPool, "check_connection", staticmethod(counted))
    return sent


@pytest.mark.postgres
@pytest.mark.django_db
def test_an_idle_connection_is_lent_without_a_round_trip(
    spare_connection: psycopg.Connection[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    spare_connection.execute("SELECT 1").fetchall()
    sent = round_trips_counted(monkeypatch)

    connection_check(spare_connection)

    assert sent == []


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_connection_the_server_ended_is_checked_and_found_broken(
    spare_connection: psycopg.Connection[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [spare_connection.info.backend_pid])
    # The server's farewell reaches the socket a moment later.
    readable, _, _ = select.select([spare_connection.fileno()], [], [], 5)
    assert readable
    sent = round_trips_counted(monkeypatch)

    with pytest.raises(psycopg.OperationalError):
        connection_check(spare_connection)

    assert sent == [spare_connection]


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_closed_connection_is_checked_and_found_broken(
    spare_connection: psycopg.Connection[Any],
) -> None:
    spare_connection.close()

    with pytest.raises(psycopg.OperationalError):
        connection_check(spare_connection)


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_pool_django_builds_checks_with_the_quiet_check() -> None:
    # Pins what config/postgresql/base.py relies on: psycopg_pool keeps its `check` as `_check`.
    pool = getattr(connection, "pool", None)
    if pool is None:
        pytest.skip("the tests' connection is not pooled (DB_POOL=false)")
    assert pool._check is connection_check
