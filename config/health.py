"""`/healthz`: is the database, the channel layer and the Celery broker reachable?

The checks run side by side and each gets `settings.HEALTH_CHECK_TIMEOUT` seconds (1.5), so the
answer comes within about that long even when a service hangs instead of refusing (a frozen
Redis): 200, or 503 naming what is down. The database check opens a connection of its own, off
the requests' thread and outside the pool: during an outage it does not queue behind the
requests waiting for pooled connections. Load balancers probe it over plain HTTP (exempt from
the https redirect, see config/production.py).
"""

import asyncio
import contextlib
import json
import math
import uuid
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse

from config.celery import app as celery_app


def _database_select() -> None:
    """SELECT 1 on a connection of its own, opened with a short connect timeout: not one of the
    pool's (during an outage the requests waiting for the pool would queue the check behind
    them for DB_POOL_TIMEOUT, 10 s), and not on the requests' thread."""
    if connection.vendor != "postgresql":
        with connection.cursor() as cursor:  # SQLite: a file, no server to wait for
            cursor.execute("SELECT 1")
        connection.close()
        return
    import psycopg  # noqa: PLC0415  (PostgreSQL only)

    params = connection.get_connection_params()
    params["connect_timeout"] = max(1, math.ceil(settings.HEALTH_CHECK_TIMEOUT))
    with psycopg.connect(**params, autocommit=True) as conn:
        conn.execute("SELECT 1")


# Each blocking check has threads of its own: a hung broker ping (a frozen Redis keeps its thread
# past the timeout) must never leave the database check waiting for a free thread, nor the
# requests' thread, which may be stuck behind the pool.
_DATABASE_THREADS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="health-db")
_BROKER_THREADS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="health-broker")


async def _database() -> None:
    await asyncio.get_running_loop().run_in_executor(_DATABASE_THREADS, _database_select)


async def _channel_layer() -> None:
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer configured")
    channel = await layer.new_channel()
    token = uuid.uuid4().hex
    await layer.send(channel, {"type": "health.ping", "token": token})
    message = await layer.receive(channel)
    await _channel_close(layer, channel)
    if message.get("token") != token:
        raise RuntimeError("channel layer returned the wrong message")


async def _channel_close(layer: Any, channel: str) -> None:
    """Close the check's channel as a consumer's exit does: by cancelling a receive on it.

    Channels has no call to delete a channel. The pub/sub layer drops a channel's queue and
    subscription when its receive is cancelled, so every probe left one behind until this.
    """
    waiting = asyncio.ensure_future(layer.receive(channel))
    await asyncio.sleep(0)  # let the receive start waiting, or the cancel skips its clean-up
    waiting.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await waiting


def _broker_ping() -> None:
    with celery_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=settings.HEALTH_CHECK_TIMEOUT)
        # Connecting proves little (a frozen Redis accepts connections): ask for an answer.
        ping = getattr(conn.default_channel, "client", None)
        if ping is not None:
            ping.ping()


async def _broker() -> None:
    await asyncio.get_running_loop().run_in_executor(_BROKER_THREADS, _broker_ping)


CHECKS: dict[str, Callable[[], Awaitable[None]]] = {
    "database": _database,
    "channel_layer": _channel_layer,
    "broker": _broker,
}


async def _status(check: Callable[[], Awaitable[None]]) -> str:
    try:
        await asyncio.wait_for(check(), timeout=settings.HEALTH_CHECK_TIMEOUT)
    except TimeoutError:
        return "down: no answer"
    except Exception as exc:  # a health check reports every failure instead of raising
        return f"down: {type(exc).__name__}"
    return "ok"


HEALTH_PATH = "/healthz"


async def health_report() -> tuple[int, dict[str, Any]]:
    """The status code and body of the health answer, every check side by side."""
    statuses = await asyncio.gather(*(_status(check) for check in CHECKS.values()))
    report = dict(zip(CHECKS, statuses, strict=True))
    down = [name for name, status in report.items() if status != "ok"]
    body = {"status": "ok" if not down else "down", "down": down, "checks": report}
    return (200 if not down else 503), body


async def healthz(request: HttpRequest) -> JsonResponse:
    """The Django view (the test client, and any server that does not use config.asgi)."""
    status, body = await health_report()
    return JsonResponse(body, status=status)


async def asgi_healthz(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """`/healthz` as a bare ASGI app (config/asgi.py routes it before Django's middleware)."""
    status, body = await health_report()
    payload = json.dumps(body).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(payload)).encode()),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})
