"""Legend of Zagor's table page through Django: it loads the game's own board, replay and style
(its face's `BoardAssets`), and a seat's page renders only the seat view it is given: the second
seat's page HTML (and the log its board fetches) carries none of the first seat's spell cards or
chest contents."""

import json
import re
from typing import Any

import pytest
from django.test import Client

from apps.games.registry import game_face
from apps.games.zagor.data import CHEST_CONTENT_TEXT, SPELLS
from apps.games.zagor.scenarios import shipped
from apps.play.models import Game
from apps.play.services import game_launch
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


def _post(client: Client, url: str, body: object | None = None) -> Any:
    return client.post(url, json.dumps(body or {}), content_type="application/json")


def launched(tale: str, seed: int | None = None) -> tuple[int, list[Client]]:
    users = [make_user(), make_user()]
    clients = [_client(u) for u in users]
    body = {"name": "t", "seats": 2, "game": "zagor", "quest": tale}
    room_id = _post(clients[0], "/api/rooms", body).json()["id"]
    for number, client in enumerate(clients, start=1):
        assert _post(client, f"/api/rooms/{room_id}/seats/{number}").status_code == 200
    return game_launch(room_id=room_id, user=users[0], seed=seed).pk, clients


def seed_where(tale: str, done: Any, seeds: range = range(1, 200)) -> int:
    """A seed whose bot game (the pure engine, as the API plays it) comes to `done`."""
    for seed in seeds:
        state = ZAGOR.new_game(shipped(tale), 2, seed, {}, commitment=None).state
        for _ in range(3000):
            if done(state) or ZAGOR.outcome_of(state):
                break
            (seat,) = ZAGOR.seats_to_move(state)
            action = ZAGOR.ai_action(state, seat)
            assert action is not None
            state = ZAGOR.apply(state, seat, action).state
        if done(state):
            return seed
    raise AssertionError("no seed comes to that position")


def play_until(game_id: int, clients: list[Client], done: Any, limit: int = 3000) -> Game:
    """The face's bot plays every seat through the API until `done(state)` holds."""
    for n in range(limit):
        game = Game.objects.get(pk=game_id)
        state = ZAGOR.state_from_json(game.state, None)
        if done(state):
            return game
        assert not game.outcome, "the game ended first"
        (seat,) = game.to_move
        body = {
            "action": ZAGOR.ai_action(state, seat),
            "expected_version": game.version,
            "idempotency_key": f"k{n}",
        }
        assert _post(clients[seat - 1], f"/api/games/{game_id}/actions", body).status_code == 200
    raise AssertionError("the position never came about")


def embedded_view(html: str) -> dict[str, Any]:
    match = re.search(r'<script id="seat-view"[^>]*>(.*?)</script>', html, re.S)
    assert match, "the page embeds no seat view"
    view: dict[str, Any] = json.loads(match[1])
    return view


def test_the_table_page_loads_zagors_board_and_style() -> None:
    game_id, clients = launched("enchanted_orb")
    html = clients[0].get(f"/games/{game_id}/").content.decode()
    assert "js/games/zagor/board.js" in html and "css/games/zagor/board.css" in html
    assert "js/games/heroquest/" not in html  # HeroQuest's board is not loaded
    view = embedded_view(html)
    assert view["game"] == "zagor" and view["me"]["hero"] == "barbarian"


def test_a_seats_page_carries_none_of_another_seats_spells_or_chests() -> None:
    def kinds(s: Any, hero: str) -> set[str]:
        return {s.chest(c) for c in s.heroes[hero].chests}

    def first_holds_a_kind_the_second_lacks(s: Any) -> bool:
        return bool(kinds(s, "barbarian") - kinds(s, "dwarf")) and bool(
            s.heroes["barbarian"].spells
        )

    seed = seed_where("crypt_of_zagor", first_holds_a_kind_the_second_lacks)
    game_id, clients = launched("crypt_of_zagor", seed)
    game = play_until(game_id, clients, first_holds_a_kind_the_second_lacks)
    state = ZAGOR.state_from_json(game.state, None)
    one, two = state.heroes["barbarian"], state.heroes["dwarf"]
    hidden = kinds(state, "barbarian") - kinds(state, "dwarf")
    first = clients[0].get(f"/api/games/{game_id}/view").json()["me"]
    assert first["chests"] and first["spells"]  # seat 1 sees its own

    page = clients[1].get(f"/games/{game_id}/").content.decode()
    story = json.dumps(clients[1].get(f"/api/games/{game_id}/events?after=0&limit=1000").json())
    view = embedded_view(page)
    assert view["me"]["hero"] == "dwarf"
    assert {c["number"] for c in view["me"]["chests"]} == set(two.chests)
    sheet = next(h for h in view["heroes"] if h["hero"] == "barbarian")
    assert sheet["chests"] == len(one.chests) and sheet["spells"] == len(one.spells)
    for kind in hidden:
        text = CHEST_CONTENT_TEXT[kind]
        assert text not in page, f"seat 2's page names seat 1's chest content: {text}"
        assert text not in story, f"seat 2's story names seat 1's chest content: {text}"
    own = set(two.spells)
    for spell in set(one.spells) - own:
        assert SPELLS[spell].text not in page, f"seat 2's page tells seat 1's {spell}"
        assert f'"{spell}"' not in json.dumps(view["me"]), spell
        assert f"draws {spell}" not in story and f"draws {spell}" not in page, spell
