"""The play API over HTTP: launch, view, actions (status codes), events, and membership."""

from typing import Any

import pytest
from django.test import Client

from apps.accounts.services import token_issue
from apps.games.heroquest import engine as rules
from apps.games.heroquest.engine.questfile import parse_quest_text
from apps.play.models import Game, GameEvent
from apps.play.view_cache import shared_views
from tests.conftest import make_user

from .conftest import GameMaker, RoomMaker, client_for, post_action

pytestmark = pytest.mark.django_db

ROLL = {"type": "roll_movement", "hero": "barbarian"}


def test_the_host_launches_through_the_api(make_room: RoomMaker) -> None:
    room, users = make_room(2)

    refused = client_for(users[2]).post(f"/api/rooms/{room.pk}/launch")
    response = client_for(users[1]).post(f"/api/rooms/{room.pk}/launch")
    again = client_for(users[1]).post(f"/api/rooms/{room.pk}/launch")

    assert refused.status_code == 403
    assert response.status_code == 200
    assert response.json() == {"game_id": Game.objects.get(room=room).pk}
    assert again.status_code == 409 and "already" in again.json()["detail"]


def test_launching_a_room_with_free_seats_is_a_conflict(make_room: RoomMaker) -> None:
    room, users = make_room(3, fill=False)
    response = client_for(users[1]).post(f"/api/rooms/{room.pk}/launch")
    assert response.status_code == 409 and "Every seat" in response.json()["detail"]


def test_anonymous_callers_are_unauthorised(make_game: GameMaker, client: Client) -> None:
    game, _ = make_game(2)
    assert client.get(f"/api/games/{game.pk}/view").status_code == 401
    assert post_action(client, game.pk, ROLL, 0).status_code == 401
    assert client.post(f"/api/rooms/{game.room_id}/launch").status_code == 401


def test_the_view_is_the_seat_view_with_version_and_game_id(make_game: GameMaker) -> None:
    game, users = make_game(3)
    view = client_for(users[2]).get(f"/api/games/{game.pk}/view").json()
    assert (view["seat"], view["version"], view["game_id"]) == (2, 0, game.pk)
    assert view["role"] == "hero" and view["heroes_owned"] == ["barbarian", "dwarf"]


def test_an_action_answers_the_new_version_and_the_seats_entries(make_game: GameMaker) -> None:
    game, users = make_game(2)
    response = post_action(client_for(users[2]), game.pk, ROLL, 0)
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["version"] == 1 and body["entries"]
    assert set(body) == {"version", "entries", "view"}


def test_an_action_answers_the_acting_seats_new_view_so_no_get_is_needed(
    make_game: GameMaker,
) -> None:
    game, users = make_game(3)
    seat2 = client_for(users[2])
    body = post_action(seat2, game.pk, ROLL, 0).json()

    assert body["view"] == seat2.get(f"/api/games/{game.pk}/view").json()
    assert (body["view"]["seat"], body["view"]["version"]) == (2, 1)
    assert body["view"]["turn"]["movement_rolled"] is True


def test_a_replayed_action_answers_the_seats_current_view(make_game: GameMaker) -> None:
    game, users = make_game(2)
    seat2 = client_for(users[2])
    first = post_action(seat2, game.pk, ROLL, 0, idem="roll-once").json()
    post_action(seat2, game.pk, {"type": "end_turn", "hero": "barbarian"}, 1)

    again = post_action(seat2, game.pk, ROLL, 0, idem="roll-once").json()

    assert (again["version"], again["entries"]) == (first["version"], first["entries"])
    assert again["view"]["version"] == 2


def test_a_bearer_token_works_like_the_session(make_game: GameMaker) -> None:
    game, users = make_game(2)
    token = token_issue(user=users[2])
    bot = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    assert bot.get(f"/api/games/{game.pk}/view").json()["seat"] == 2
    assert post_action(bot, game.pk, ROLL, 0).status_code == 200


def test_stale_version_is_409_with_the_current_version(make_game: GameMaker) -> None:
    game, users = make_game(2)
    seat2 = client_for(users[2])
    post_action(seat2, game.pk, ROLL, 0)
    response = post_action(seat2, game.pk, {"type": "end_turn", "hero": "barbarian"}, 0)
    assert response.status_code == 409
    assert response.json()["version"] == 1 and response.json()["detail"]


def test_illegal_action_is_422_with_the_engine_reason(make_game: GameMaker) -> None:
    game, users = make_game(2)
    action = {"type": "move", "hero": "barbarian", "to": [0, 0]}
    state = rules.State.from_json(game.state, parse_quest_text(game.quest_source))
    with pytest.raises(rules.IllegalAction) as engine:
        rules.apply(state, 2, rules.action_from_json(action))

    response = post_action(client_for(users[2]), game.pk, action, 0)

    assert response.status_code == 422
    assert response.json() == {"detail": engine.value.reason}


@pytest.mark.parametrize(
    "seat, action",
    [
        (3, {"type": "roll_movement", "hero": "barbarian"}),  # another seat's hero
        (3, {"type": "roll_movement", "hero": "elf"}),  # out of turn
        (2, {"type": "end_phase"}),  # Zargon's
        (1, {"type": "end_phase"}),  # Zargon out of turn
    ],
)
def test_acting_for_others_or_out_of_turn_is_403(
    make_game: GameMaker, seat: int, action: dict[str, Any]
) -> None:
    game, users = make_game(3)
    response = post_action(client_for(users[seat]), game.pk, action, 0)
    assert response.status_code == 403 and response.json()["detail"]


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"action": ROLL, "expected_version": 0},  # no key
        {"action": ROLL, "idempotency_key": "k"},  # no version
        {"action": "roll", "expected_version": 0, "idempotency_key": "k"},
        {"action": ROLL, "expected_version": "soon", "idempotency_key": "k"},
        {"action": ROLL, "expected_version": True, "idempotency_key": "k"},
        {"action": ROLL, "expected_version": "0", "idempotency_key": "k"},
        {"action": ROLL, "expected_version": 0, "idempotency_key": ""},
        {"action": {"type": "teleport"}, "expected_version": 0, "idempotency_key": "k"},
        {
            "action": {"type": "move", "hero": "barbarian"},
            "expected_version": 0,
            "idempotency_key": "k",
        },
    ],
)
def test_malformed_bodies_are_400_with_a_clear_message(
    make_game: GameMaker, body: dict[str, Any]
) -> None:
    game, users = make_game(2)
    response = client_for(users[2]).post(
        f"/api/games/{game.pk}/actions", body, content_type="application/json"
    )
    assert response.status_code == 400, response.content
    assert isinstance(response.json()["detail"], str) and response.json()["detail"]
    game.refresh_from_db()
    assert game.version == 0


def test_a_body_that_is_not_json_is_400(make_game: GameMaker) -> None:
    game, users = make_game(2)
    response = client_for(users[2]).post(
        f"/api/games/{game.pk}/actions", "{not json", content_type="application/json"
    )
    assert response.status_code == 400


def test_a_retried_key_returns_the_first_answer(make_game: GameMaker) -> None:
    game, users = make_game(2)
    seat2 = client_for(users[2])
    first = post_action(seat2, game.pk, ROLL, 0, idem="retry-me")
    again = post_action(seat2, game.pk, ROLL, 0, idem="retry-me")
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    game.refresh_from_db()
    assert game.version == 1
    assert game.events.filter(kind=GameEvent.Kind.ACTION).count() == 1


def test_non_members_get_404_for_everything(make_game: GameMaker) -> None:
    game, _ = make_game(2)
    stranger = client_for(make_user())
    for response in (
        stranger.get(f"/api/games/{game.pk}/view"),
        stranger.get(f"/api/games/{game.pk}/events"),
        post_action(stranger, game.pk, ROLL, 0),
        stranger.get("/api/games/999999/view"),
    ):
        assert response.status_code == 404
        assert response.json() == {"detail": "There is no such game."}
    game.refresh_from_db()
    assert game.version == 0


def test_every_legal_action_of_the_view_posts_verbatim(make_game: GameMaker) -> None:
    """Each listed action is accepted as is (tried on a fresh game for each)."""
    game, users = make_game(2, seed=5)
    legal = client_for(users[2]).get(f"/api/games/{game.pk}/view").json()["legal_actions"]
    assert legal
    for action in legal:
        fresh, fresh_users = make_game(2, seed=5)
        response = post_action(client_for(fresh_users[2]), fresh.pk, action, 0)
        assert response.status_code == 200, (action, response.content)


def test_the_events_endpoint_pages_after_a_seq(make_game: GameMaker) -> None:
    game, users = make_game(2)
    seat2 = client_for(users[2])
    post_action(seat2, game.pk, ROLL, 0)
    everything = seat2.get(f"/api/games/{game.pk}/events").json()
    assert everything and [e["seq"] for e in everything] == sorted(e["seq"] for e in everything)
    tail = seat2.get(f"/api/games/{game.pk}/events", {"after": everything[0]["seq"]}).json()
    assert tail == everything[1:]


def test_the_openapi_schema_lists_the_play_endpoints(client: Client) -> None:
    paths = client.get("/api/openapi.json").json()["paths"]
    for path in (
        "/api/rooms/{room_id}/launch",
        "/api/games/{game_id}/view",
        "/api/games/{game_id}/actions",
        "/api/games/{game_id}/events",
    ):
        assert path in paths


def test_the_400_message_names_the_bad_field(make_game: GameMaker) -> None:
    game, users = make_game(2)
    response = client_for(users[2]).post(
        f"/api/games/{game.pk}/actions",
        {"action": ROLL, "expected_version": 0},
        content_type="application/json",
    )
    assert response.json()["detail"] == "Malformed request: body.idempotency_key: Field required"


def test_the_events_endpoint_serves_each_seat_only_its_audience(make_game: GameMaker) -> None:
    """A treasure find is the finder's seat's alone; the others read "found treasure". A seat's
    private setting is in no one's log, and no accepted-action row is ever served."""
    quest = rules.load_quest("ashen_vault")
    seed = next(s for s in range(1, 500) if rules.new_game(quest, 3, s).deck[0] == "gold_25")
    game, users = make_game(3, seed=seed)
    clients = {seat: client_for(user) for seat, user in users.items()}
    search = {"type": "search_treasure", "hero": "barbarian"}
    assert post_action(clients[2], game.pk, search, 0).status_code == 200
    auto = {"type": "set_auto_drink", "hero": "elf", "on": False}
    assert post_action(clients[3], game.pk, auto, 1).status_code == 200

    served = {seat: c.get(f"/api/games/{game.pk}/events").json() for seat, c in clients.items()}
    found = {seat: [e for e in log if e["type"] == "search"] for seat, log in served.items()}
    assert "25 gold" in found[2][0]["text"]
    for seat in (1, 3):
        assert [e["find"] for e in found[seat]] == ["treasure"]
        assert "gold" not in found[seat][0]["text"]
    assert all(e["type"] != "setting" for log in served.values() for e in log)
    for log in served.values():
        assert all("audience" not in e and "redacted" not in e and "action" not in e for e in log)
        assert [e["seq"] for e in log] == sorted({e["seq"] for e in log})
    # The search only: the setting is not a logged action.
    assert game.events.filter(kind=GameEvent.Kind.ACTION).count() == 1


def test_zargons_view_flags_what_the_heroes_have_found(make_game: GameMaker) -> None:
    """Zargon's view carries every area, monster, trap and secret door, each flagged."""
    game, users = make_game(2, seed=3)
    zargon, heroes = client_for(users[1]), client_for(users[2])
    view = zargon.get(f"/api/games/{game.pk}/view").json()
    hero_view = heroes.get(f"/api/games/{game.pk}/view").json()
    quest = parse_quest_text(game.quest_source)

    areas = {a["id"]: a["revealed"] for a in view["map"]["areas"]}
    assert len(areas) == len(quest.areas)
    assert {a for a, shown in areas.items() if shown} == {
        a["id"] for a in hero_view["map"]["areas"]
    }
    assert False in areas.values()
    assert len(view["monsters"]) == len(quest.monsters)
    assert all(m["revealed"] is False for m in view["monsters"])
    assert all("revealed" not in m for m in hero_view["monsters"])
    assert len(view["map"]["traps"]) == len(quest.traps)
    assert {t["detected"] for t in view["map"]["traps"]} == {False}
    secret = [d for d in view["map"]["doors"] if d["secret"]]
    assert len(secret) == 2 and {d["found"] for d in secret} == {False}
    assert all(d["found"] for d in view["map"]["doors"] if not d["secret"])
    assert all(isinstance(sq["revealed"], bool) for sq in view["map"]["squares"])


def test_the_action_api_names_the_acting_page_socket_in_its_poke(
    make_game: GameMaker, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    """`X-Socket-Id` on the POST reaches the game's poke with the acting user and seat (that
    socket then skips the version: tests/play/test_play_websocket.py); without the header, or
    with a malformed one, the poke is as it always was."""
    pokes: list[dict[str, Any]] = []
    monkeypatch.setattr(
        shared_views,
        "put_many_then_poke",
        lambda views, *, game_id, seats, message: pokes.append(message),
    )
    game, users = make_game(2)
    client = client_for(users[2])
    plays: tuple[tuple[dict[str, str], dict[str, str]], ...] = (
        (ROLL, {"X-Socket-Id": "page-one-0001"}),
        ({"type": "end_turn", "hero": "barbarian"}, {}),
        ({"type": "roll_movement", "hero": "dwarf"}, {"X-Socket-Id": "x" * 65}),
    )
    for version, (action, header) in enumerate(plays):
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(
                f"/api/games/{game.pk}/actions",
                {"action": action, "expected_version": version, "idempotency_key": f"k{version}"},
                content_type="application/json",
                headers=header,
            )
        assert response.status_code == 200, response.content
    assert pokes[0]["answered"] == {"socket": "page-one-0001", "user": users[2].pk, "seat": 2}
    assert [("answered" in poke) for poke in pokes] == [True, False, False]
