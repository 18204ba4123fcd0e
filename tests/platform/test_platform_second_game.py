"""The platform plays a game it has never heard of: a two-seat race registered only here.

No platform module names the race; it goes through the port (apps/games/port.py) like HeroQuest:
a room of it is created through the API, launched, played to its end, replayed and verified.
"""

import json
from collections.abc import Iterator

import pytest
from django.core.management import call_command
from django.test import Client

from apps.games import registry
from apps.play.models import Game
from apps.play.verify import game_verify
from apps.quests.services import quest_sync_shipped
from tests.conftest import make_user
from tests.platform.race_game import RACE

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def race_registered(celery_eager: None) -> Iterator[None]:
    registry.register(RACE)
    quest_sync_shipped()  # the race's track joins the scenarios, like a shipped game's
    yield
    registry.unregister(RACE.slug)


def _client(user: object) -> Client:
    client = Client()
    client.force_login(user)  # type: ignore[arg-type]
    return client


def _post(client: Client, url: str, body: object | None = None) -> object:
    return client.post(url, json.dumps(body or {}), content_type="application/json")


def _run(client: Client, game: Game, key: str) -> object:
    body = {"action": {"type": "run"}, "expected_version": game.version, "idempotency_key": key}
    return _post(client, f"/api/games/{game.pk}/actions", body)


def test_a_race_is_created_launched_played_to_its_end_replayed_and_verified() -> None:
    ann, bob = make_user("ann"), make_user("bob")
    ann_client, bob_client = _client(ann), _client(bob)

    created = _post(ann_client, "/api/rooms", {"name": "Sprint", "seats": 2, "game": "race"})
    assert created.status_code == 201, created.content  # type: ignore[attr-defined]
    room = created.json()  # type: ignore[attr-defined]
    assert (room["game"], room["quest"]) == ("race", "short_track")
    assert [s["label"] for s in room["seats"]] == ["Runner 1", "Runner 2"]
    _post(ann_client, f"/api/rooms/{room['id']}/seats/1")
    _post(bob_client, f"/api/rooms/{room['id']}/seats/2")
    launched = _post(ann_client, f"/api/rooms/{room['id']}/launch")
    assert launched.status_code == 200, launched.content  # type: ignore[attr-defined]
    game_id = launched.json()["game_id"]  # type: ignore[attr-defined]

    clients = {1: ann_client, 2: bob_client}
    for n in range(100):
        game = Game.objects.get(pk=game_id)
        if game.outcome:
            break
        (seat,) = game.to_move
        view = clients[seat].get(f"/api/games/{game_id}/view").json()
        assert view["legal_actions"] == [{"type": "run"}, {"type": "rest"}]
        other = clients[3 - seat]
        refused = _post(
            other,
            f"/api/games/{game_id}/actions",
            {
                "action": {"type": "run"},
                "expected_version": game.version,
                "idempotency_key": f"o{n}",
            },
        )
        assert refused.status_code == 403  # type: ignore[attr-defined]
        played = _post(
            clients[seat],
            f"/api/games/{game_id}/actions",
            {
                "action": {"type": "run"},
                "expected_version": game.version,
                "idempotency_key": f"k{n}",
            },
        )
        assert played.status_code == 200, played.content  # type: ignore[attr-defined]
    game = Game.objects.get(pk=game_id)
    assert game.outcome in ("runner1", "runner2") and game.to_move == []
    assert game.room.status == "finished"

    replay = ann_client.get(f"/api/games/{game_id}/replay").json()
    assert replay["total"] == game.version + 1
    assert replay["fairness"]["revealed"] is True
    assert replay["steps"][-1]["view_changes"]["winner"] in (1, 2)
    assert all(step["draws"] for step in replay["steps"][1:])  # every run rolled its die
    report = game_verify(game_id=game_id)
    assert report.ok, str(report)
    call_command("verify_quest", str(game_id))
