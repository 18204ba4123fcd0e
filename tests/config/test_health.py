from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from config import health
from tests.servers import frozen_redis


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
        settings.CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.core.RedisChannelLayer",
                "CONFIG": {"hosts": [{"address": url, "socket_connect_timeout": 0.2}]},
            }
        }
        yield url


@pytest.mark.django_db
def test_healthz_answers_503_when_the_channel_layer_hangs(
    frozen_layer: str, client: Client
) -> None:
    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["down"] == ["channel_layer"]
    assert response.json()["checks"]["channel_layer"] == "down: no answer"
