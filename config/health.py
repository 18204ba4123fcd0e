"""`/healthz`: is the database, the channel layer and the Celery broker reachable?"""

import uuid

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection
from django.http import HttpRequest, JsonResponse

from config.celery import app as celery_app


def _database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


def _channel_layer() -> None:
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer configured")
    channel = async_to_sync(layer.new_channel)()
    token = uuid.uuid4().hex
    async_to_sync(layer.send)(channel, {"type": "health.ping", "token": token})
    message = async_to_sync(layer.receive)(channel)
    if message.get("token") != token:
        raise RuntimeError("channel layer returned the wrong message")


def _broker() -> None:
    with celery_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=2)


CHECKS = {"database": _database, "channel_layer": _channel_layer, "broker": _broker}


def healthz(request: HttpRequest) -> JsonResponse:
    report: dict[str, str] = {}
    for name, check in CHECKS.items():
        try:
            check()
            report[name] = "ok"
        except Exception as exc:  # a health check reports every failure instead of raising
            report[name] = f"down: {type(exc).__name__}"
    down = [name for name, status in report.items() if status != "ok"]
    body = {"status": "ok" if not down else "down", "down": down, "checks": report}
    return JsonResponse(body, status=200 if not down else 503)
