import pytest
from django.test import Client

from config import health


@pytest.mark.django_db
def test_healthz_reports_every_service_ok(client: Client) -> None:
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
    def broken() -> None:
        raise ConnectionError("refused")

    monkeypatch.setitem(health.CHECKS, "broker", broken)

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["down"] == ["broker"]
    assert response.json()["checks"]["broker"] == "down: ConnectionError"
