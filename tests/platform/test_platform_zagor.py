"""Legend of Zagor on the platform: every tale played through the API by bots to its end, its
replay served with the seed revealed and its log verified from the seed."""

import json

import pytest
from django.test import Client

from apps.games.registry import game_face
from apps.play.models import Game
from apps.play.verify import game_verify
from apps.quests.services import quest_sync_shipped
from tests.conftest import make_user

pytestmark = pytest.mark.django_db
ZAGOR = game_face("zagor")


@pytest.fixture(autouse=True)
def tales_loaded(celery_eager: None) -> None:
    quest_sync_shipped()


def _client(user: object) -> Client:
    client = Client()
    client.force_login(user)  # type: ignore[arg-type]
    return client


def _post(client: Client, url: str, body: object | None = None) -> object:
    return client.post(url, json.dumps(body or {}), content_type="application/json")


def play_through_the_api(tale: str, heroes: int, max_actions: int = 4000) -> Game:
    """Bots take every seat of a room of `tale` and play the game's own bot moves to its end."""
    users = [make_user() for _ in range(heroes)]
    clients = [_client(u) for u in users]
    body = {"name": f"{tale} x{heroes}", "seats": heroes, "game": "zagor", "quest": tale}
    created = _post(clients[0], "/api/rooms", body)
    assert created.status_code == 201, created.content  # type: ignore[attr-defined]
    room = created.json()  # type: ignore[attr-defined]
    assert room["game"] == "zagor" and room["quest"] == tale
    for number, client in enumerate(clients, start=1):
        taken = _post(client, f"/api/rooms/{room['id']}/seats/{number}")
        assert taken.status_code == 200, taken.content  # type: ignore[attr-defined]
    launched = _post(clients[0], f"/api/rooms/{room['id']}/launch")
    game_id = launched.json()["game_id"]  # type: ignore[attr-defined]
    for n in range(max_actions):
        game = Game.objects.get(pk=game_id)
        if game.outcome:
            break
        (seat,) = game.to_move
        view = clients[seat - 1].get(f"/api/games/{game_id}/view").json()
        assert view["legal_actions"], f"seat {seat} has no legal action while the game runs"
        state = ZAGOR.state_from_json(game.state, None)
        action = ZAGOR.ai_action(state, seat)
        assert action in view["legal_actions"]
        body = {"action": action, "expected_version": game.version, "idempotency_key": f"k{n}"}
        played = _post(clients[seat - 1], f"/api/games/{game_id}/actions", body)
        assert played.status_code == 200, played.content  # type: ignore[attr-defined]
    game = Game.objects.get(pk=game_id)
    assert game.outcome, "the game did not end"
    return game


@pytest.mark.parametrize(("tale", "heroes"), [("enchanted_orb", 2), ("howling_spectre", 1)])
def test_a_tale_is_played_to_its_end_through_the_api_and_verifies(tale: str, heroes: int) -> None:
    game = play_through_the_api(tale, heroes)
    player = game.room.seats.get(number=1).user

    replay = _client(player).get(f"/api/games/{game.pk}/replay").json()
    assert replay["total"] == game.version + 1 and replay["fairness"]["revealed"] is True
    assert game_verify(game_id=game.pk).ok
    assert game.room.status == "finished"


@pytest.mark.slow
def test_the_full_game_is_played_to_its_end_through_the_api_and_verifies() -> None:
    game = play_through_the_api("crypt_of_zagor", 2, max_actions=20000)
    assert game_verify(game_id=game.pk).ok


def test_a_zagor_room_refuses_an_ai_seat_and_a_fifth_hero() -> None:
    client = _client(make_user())
    solo_ai = {"name": "x", "seats": 2, "game": "zagor", "ai_seat": "ai"}
    five = {"name": "y", "seats": 5, "game": "zagor"}

    assert _post(client, "/api/rooms", solo_ai).status_code == 422  # type: ignore[attr-defined]
    assert _post(client, "/api/rooms", five).status_code == 422  # type: ignore[attr-defined]


def test_one_person_may_play_a_tale_alone() -> None:
    client = _client(make_user())
    created = _post(client, "/api/rooms", {"name": "Alone", "seats": 1, "game": "zagor"})
    assert created.status_code == 201  # type: ignore[attr-defined]
    room = created.json()  # type: ignore[attr-defined]
    assert room["quest"] == "enchanted_orb"
    assert [s["label"] for s in room["seats"]] == ["Anvar the Barbarian"]
