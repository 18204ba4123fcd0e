"""Django's PostgreSQL backend, its pool's check on lending a connection made without a round trip.

With CONN_HEALTH_CHECKS, psycopg_pool checks each connection it lends by sending an empty
statement: a round trip to the database on every request, 1.3% of a web process's samples flat
out (py-spy), and the database's own share besides. A server that ends a connection (a restart,
`pg_terminate_backend`) says so on its socket first: an error message, then the end of the
stream. So a connection whose socket has nothing to read is lent as it is, and only one with
something waiting gets psycopg_pool's check, which reads it and fails if the server has gone.
redis-py lends its pooled connections the same way (`can_read` first). A server lost without a
word (its host gone, no FIN) is met by the request's first statement instead: that request fails,
as it would if the host went down between the empty statement and the first.
"""

from __future__ import annotations

import select
from typing import Any

from django.db.backends.postgresql import base
from psycopg_pool import ConnectionPool


def connection_check(conn: Any) -> None:
    """psycopg_pool's `check` callback: return if `conn` may be lent, raise if it is broken."""
    if conn.closed or _waiting_to_be_read(conn):
        ConnectionPool.check_connection(conn)


def _waiting_to_be_read(conn: Any) -> bool:
    """Whether the server sent something since the last statement's results were read (an idle
    connection has nothing to read unless the server is ending it or has a notice for it)."""
    poller = select.poll()  # poll, not select: a process's sockets may be numbered past 1024
    poller.register(conn.fileno(), select.POLLIN | select.POLLPRI)
    return bool(poller.poll(0))


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self) -> ConnectionPool | None:
        pool: ConnectionPool | None = super().pool  # type: ignore[misc]  # not in django-stubs
        # Django hands psycopg_pool its own check, and the pool keeps the one it was given here.
        if pool is not None and pool._check is ConnectionPool.check_connection:
            pool._check = connection_check
        return pool
