import pytest
from django.contrib.auth import get_user_model
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def player() -> object:
    return get_user_model().objects.create_user(
        username="ragnar", email="ragnar@example.com", password="Ember-and-ash-42"
    )


def test_token_endpoint_trades_credentials_for_a_bearer_token(player: object) -> None:
    client = Client()

    response = client.post(
        "/api/auth/token",
        {"username": "ragnar", "password": "Ember-and-ash-42"},
        content_type="application/json",
    )

    assert response.status_code == 200
    token = response.json()["token"]
    assert len(token) > 30
    rooms = Client().get("/api/rooms/0", headers={"Authorization": f"Bearer {token}"})
    assert rooms.status_code != 401


def test_token_endpoint_refuses_a_wrong_password(player: object) -> None:
    response = Client().post(
        "/api/auth/token",
        {"username": "ragnar", "password": "nope"},
        content_type="application/json",
    )

    assert response.status_code == 401
    assert response.json() == {"detail": "Wrong username or password."}


def test_api_refuses_a_made_up_bearer_token() -> None:
    response = Client().get("/api/rooms/1", headers={"Authorization": "Bearer made-up"})

    assert response.status_code == 401


def test_openapi_schema_is_served() -> None:
    response = Client().get("/api/openapi.json")

    assert response.status_code == 200
    assert "/api/auth/token" in response.json()["paths"]
