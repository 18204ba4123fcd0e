import contextlib
import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from config import health
from config.redis_layer import redis_channel_layer
from tests.servers import frozen_redis, server_env, web_server


@pytest.mark.django_db
def test_healthz_reports_every_service_ok(client: Client, settings: Any) -> None:
    settings.HEALTH_CHECK_TIMEOUT = 30  # a busy test machine is not an outage
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "down": [],
        "checks": {"database": "ok", "channel_layer": "ok", "broker": "ok"},
    }


@pytest.mark.django_db
def test_healthz_names_the_service_that_is_down(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken() -> None:
        raise ConnectionError("refused")

    monkeypatch.setitem(health.CHECKS, "broker", broken)

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["down"] == ["broker"]
    assert response.json()["checks"]["broker"] == "down: ConnectionError"


@pytest.fixture
def frozen_layer(settings: Any) -> Iterator[str]:
    with frozen_redis() as url:
        settings.CHANNEL_LAYERS = {"default": redis_channel_layer(url=url, connect_timeout=0.2)}
        yield url


@pytest.mark.django_db
def test_healthz_answers_503_when_the_channel_layer_hangs(
    frozen_layer: str, client: Client
) -> None:
    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["down"] == ["channel_layer"]
    assert response.json()["checks"]["channel_layer"] == "down: no answer"


def test_healthz_answers_in_time_while_requests_wait_for_a_hung_database(tmp_path: Any) -> None:
    """A database that accepts connections and never answers, and requests queued behind the
    pool for DB_POOL_TIMEOUT: /healthz used to wait behind them (10 s and more); it is answered
    before Django's middleware, on a connection of its own with a short connect timeout."""
    with frozen_redis() as frozen:  # any TCP server that never answers will do
        port = frozen.rsplit(":", 1)[1].split("/")[0]
        env = server_env(
            DATABASE_URL=f"postgres://ashen:ashen@127.0.0.1:{port}/ashen",
            DB_POOL_TIMEOUT="10",
            HEALTH_CHECK_TIMEOUT="1.5",
        )
        with web_server(env, tmp_path, healthy=False) as base:
            stuck = [
                threading.Thread(target=_post_token, args=(base,), daemon=True) for _ in range(3)
            ]
            for thread in stuck:
                thread.start()
            time.sleep(1)  # the requests are now waiting for the pool
            started = time.monotonic()
            status, body = _get_json(f"{base}/healthz")
            elapsed = time.monotonic() - started

    assert status == 503
    assert body["down"] == ["database"]
    assert body["checks"]["database"] == "down: no answer"
    assert elapsed < 3.0  # the documented ~2 s


def _post_token(base: str) -> None:
    request = urllib.request.Request(
        f"{base}/api/auth/token",
        data=json.dumps({"username": "ragnar", "password": "x"}).encode(),
        headers={"Content-Type": "application/json"},
    )
    # A 503, or the server stopped: either way it waited on the pool first.
    with contextlib.suppress(urllib.error.URLError, OSError):
        urllib.request.urlopen(request, timeout=60).close()


def _get_json(url: str) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(url, timeout=20) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())
