"""`/healthz`: is the database, the channel layer and the Celery broker reachable?

The checks run side by side and each gets `settings.HEALTH_CHECK_TIMEOUT` seconds (1.5), so the
answer comes within about that long even when a service hangs instead of refusing (a frozen
Redis): 200, or 503 naming what is down. Load balancers probe it over plain HTTP (exempt from
the https redirect, see config/production.py).
"""

import asyncio
import uuid
from collections.abc import Awaitable, Callable

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse

from config.celery import app as celery_app


def _database_select() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


async def _database() -> None:
    await sync_to_async(_database_select)()


async def _channel_layer() -> None:
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer configured")
    channel = await layer.new_channel()
    token = uuid.uuid4().hex
    await layer.send(channel, {"type": "health.ping", "token": token})
    message = await layer.receive(channel)
    if message.get("token") != token:
        raise RuntimeError("channel layer returned the wrong message")


def _broker_ping() -> None:
    with celery_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=settings.HEALTH_CHECK_TIMEOUT)
        # Connecting proves little (a frozen Redis accepts connections): ask for an answer.
        ping = getattr(conn.default_channel, "client", None)
        if ping is not None:
            ping.ping()


async def _broker() -> None:
    # Its own thread: a hung broker must not hold the thread the database check uses.
    await sync_to_async(_broker_ping, thread_sensitive=False)()


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


async def healthz(request: HttpRequest) -> JsonResponse:
    statuses = await asyncio.gather(*(_status(check) for check in CHECKS.values()))
    report = dict(zip(CHECKS, statuses, strict=True))
    down = [name for name, status in report.items() if status != "ok"]
    body = {"status": "ok" if not down else "down", "down": down, "checks": report}
    return JsonResponse(body, status=200 if not down else 503)
