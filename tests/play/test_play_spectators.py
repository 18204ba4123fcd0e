"""Spectators: logged-in people without a seat who watch a quest whose room allows them.

They get the heroes' common view (the engine's SPECTATOR_SEAT), read the table talk, and can do
nothing else; when the host stops spectators their pages, API answers and sockets lose the game.
"""

import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.test import Client

from apps.accounts.models import User
from apps.games.heroquest import engine as rules
from apps.games.heroquest.engine.questfile import parse_quest_text
from apps.play.errors import GameNotFound, NotHost
from apps.play.models import Game, GameEvent
from apps.play.selectors import game_state
from apps.play.services import chat_message_post, game_launch, quest_apply_action
from apps.play.table import game_spectators_set
from apps.rooms.models import Room
from apps.rooms.services import room_create, room_seat_take, room_spectators_set
from config.routing import websocket_urlpatterns
from tests.conftest import make_user

from .conftest import GameMaker, RoomMaker, client_for, key, post_action

ROLL = {"type": "roll_movement", "hero": "barbarian"}


def watched_game(make_game: GameMaker, seats: int = 3, seed: int = 1) -> tuple[Game, dict]:
    """A launched game whose host lets spectators watch, and a spectator (key 0)."""
    game, users = make_game(seats, seed=seed)
    room_spectators_set(room_id=game.room_id, user=users[1], allow=True)
    users[0] = make_user()
    return game, users


def spectator_view(game: Game) -> dict[str, Any]:
    game.refresh_from_db()
    view = rules.seat_view(game_state(game=game), rules.SPECTATOR_SEAT)
    return {**view, "version": game.version, "game_id": game.pk}


def embedded_view(page: str) -> dict[str, Any]:
    script = page.split('<script id="seat-view" type="application/json">')[1].split("</script>")[0]
    view: dict[str, Any] = json.loads(script)
    return view


# --- refused unless the room allows them -------------------------------------------------------


@pytest.mark.django_db
def test_without_the_rooms_leave_a_stranger_finds_no_game(make_game: GameMaker) -> None:
    game, _ = make_game(3)
    stranger = client_for(make_user())
    for url in (
        f"/games/{game.pk}/",
        f"/api/games/{game.pk}/view",
        f"/api/games/{game.pk}/events",
        f"/api/games/{game.pk}/chat",
    ):
        assert stranger.get(url).status_code == 404, url
    assert f'id="watch-{game.pk}"' not in stranger.get("/").content.decode()


@pytest.mark.django_db
def test_a_spectator_needs_to_log_in(make_game: GameMaker, client: Client) -> None:
    game, _ = watched_game(make_game)
    assert client.get(f"/games/{game.pk}/").status_code == 302  # to the login page
    assert client.get(f"/api/games/{game.pk}/view").status_code == 401


# --- what a spectator sees ---------------------------------------------------------------------


@pytest.mark.django_db
def test_the_lobby_offers_others_a_watch_link(make_game: GameMaker) -> None:
    game, users = watched_game(make_game)
    lobby = client_for(users[0]).get("/").content.decode()
    assert f'id="watch-{game.pk}"' in lobby and f'href="/games/{game.pk}/"' in lobby
    # a player sees the game among their own, not as one to watch
    assert f'id="watch-{game.pk}"' not in client_for(users[2]).get("/").content.decode()


@pytest.mark.django_db
def test_a_spectators_page_and_api_serve_the_heroes_common_view(make_game: GameMaker) -> None:
    game, users = watched_game(make_game)
    spectator = client_for(users[0])
    quest_apply_action(game_id=game.pk, seat=2, action=ROLL, expected_version=0, key="a")

    response = spectator.get(f"/games/{game.pk}/")
    assert response.status_code == 200
    page = response.content.decode()
    expected = spectator_view(game)
    assert embedded_view(page) == expected
    assert expected["role"] == "spectator" and expected["legal_actions"] == []
    assert 'data-spectator="yes"' in page
    assert 'id="chat-form"' not in page and 'id="chat-readonly"' in page
    assert 'id="spectators-form"' not in page  # only the host decides
    assert json.loads(spectator.get(f"/api/games/{game.pk}/view").content) == expected


@pytest.mark.django_db
def test_a_spectators_log_holds_only_what_every_seat_reads(make_game: GameMaker) -> None:
    """A treasure search: the finder's seat reads the find, a spectator only the redacted
    line every other seat reads; events for some seats only are never served in full."""
    game, users = watched_game(make_game, seats=3)
    search = {"type": "search_treasure", "hero": "barbarian"}
    assert post_action(client_for(users[2]), game.pk, search, 0).status_code == 200

    entries = client_for(users[0]).get(f"/api/games/{game.pk}/events").json()
    served = {e["seq"]: e for e in entries}
    stored = [row.payload for row in game.events.filter(kind=GameEvent.Kind.EVENT)]
    private = [e for e in stored if e["audience"] != "all"]
    assert private, "the search should be told to its seat only"
    for event in stored:
        entry = served.get(event["seq"])
        if event["audience"] == "all":
            assert entry is not None and entry["text"] == event["text"]
        elif event["redacted"] is None:
            assert entry is None, event
        else:
            assert entry is not None and entry["text"] == event["redacted"]["text"]
            assert set(entry) - set(event["redacted"]) <= {"seq", "type", "dice", "version"}
    seat_3 = {e["seq"] for e in client_for(users[3]).get(f"/api/games/{game.pk}/events").json()}
    assert set(served) <= seat_3


@pytest.mark.django_db
def test_a_spectators_pages_name_nothing_hidden_or_private(make_game: GameMaker) -> None:
    """The hero-seat leak check of test_play_pages, for a spectator: no internal id, name or
    note of anything the heroes have not found, no seat's spells, no seed."""
    game, users = watched_game(make_game, seats=3, seed=918273645)
    state = rules.State.from_json(game.state, parse_quest_text(game.quest_source))
    quest = state.quest
    hidden = [f'"{m.key}"' for m in state.monsters.values() if m.pub is None]
    hidden += [f'"{t}"' for t, ts in state.traps.items() if ts.pub is None]
    hidden += [f'"{d}"' for d, ds in state.doors.items() if ds.pub is None]
    hidden += [a.name for a in quest.areas.values() if a.id not in state.areas]
    hidden = [h for h in hidden if h != quest.name]
    hidden += ['"z-', quest.notes.split(".")[0], "deck", '"rng"', '"seed"', str(game.seed)]
    hidden += ['"spells"', '"potions"', '"gold"', '"artifacts"', '"auto_drink"']
    assert len(hidden) > 30

    spectator = client_for(users[0])
    for url in (
        f"/games/{game.pk}/",
        "/",
        f"/api/games/{game.pk}/view",
        f"/api/games/{game.pk}/events",
    ):
        page = spectator.get(url).content.decode()
        assert not [h for h in hidden if h in page], url


# --- a spectator cannot act or speak -----------------------------------------------------------


@pytest.mark.django_db
def test_a_spectator_cannot_act(make_game: GameMaker) -> None:
    game, users = watched_game(make_game)
    response = post_action(client_for(users[0]), game.pk, ROLL, 0)
    assert response.status_code == 403
    assert response.json()["detail"] == "Spectators watch the quest; they do not play."
    game.refresh_from_db()
    assert game.version == 0


@pytest.mark.django_db
def test_a_spectator_reads_the_chat_but_cannot_post(make_game: GameMaker) -> None:
    game, users = watched_game(make_game)
    chat_message_post(game_id=game.pk, user=users[2], text="Onward!")
    spectator = client_for(users[0])

    said = [m["text"] for m in spectator.get(f"/api/games/{game.pk}/chat").json()["messages"]]
    assert "Onward!" in said
    response = spectator.post(
        f"/api/games/{game.pk}/chat", {"text": "Boo"}, content_type="application/json"
    )
    assert response.status_code == 403
    assert response.json()["detail"] == "Spectators read the table talk; only the players speak."
    assert not game.chat.filter(text="Boo").exists()


# --- the host decides --------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_host_chooses_spectators_when_creating_the_room(make_room: RoomMaker) -> None:
    host = client_for(make_user())
    form = {"name": "Open table", "seats": 2, "quest": "ashen_vault", "allow_spectators": "on"}
    assert host.post("/rooms/new", form).status_code == 302
    assert Room.objects.get(name="Open table").allow_spectators
    answer = host.post(
        "/api/rooms",
        {"name": "API table", "seats": 2, "allow_spectators": True},
        content_type="application/json",
    )
    assert answer.status_code == 201 and answer.json()["allow_spectators"] is True
    assert not Room.objects.filter(pk=make_room(2)[0].pk, allow_spectators=True).exists()


@pytest.mark.django_db
def test_the_host_toggles_spectators_on_the_game_page(make_game: GameMaker) -> None:
    game, users = make_game(2)
    host, watcher = client_for(users[1]), client_for(make_user())
    assert 'id="spectators-form"' in host.get(f"/games/{game.pk}/").content.decode()

    host.post(f"/games/{game.pk}/spectators", {"allow": "on"})
    assert watcher.get(f"/games/{game.pk}/").status_code == 200
    host.post(f"/games/{game.pk}/spectators", {"allow": "off"})
    assert watcher.get(f"/games/{game.pk}/").status_code == 404
    assert watcher.get(f"/api/games/{game.pk}/view").status_code == 404


@pytest.mark.django_db
def test_only_the_host_toggles_spectators(make_game: GameMaker) -> None:
    game, users = make_game(2)
    with pytest.raises(NotHost, match="Only the host"):
        game_spectators_set(game_id=game.pk, user=users[2], allow=True)
    with pytest.raises(GameNotFound):
        game_spectators_set(game_id=game.pk, user=make_user(), allow=True)
    game.room.refresh_from_db()
    assert not game.room.allow_spectators


@pytest.mark.django_db
def test_the_host_switches_spectators_on_the_open_room_page(make_room: RoomMaker) -> None:
    room, users = make_room(2, fill=False)
    host = client_for(users[1])
    page = host.get(f"/rooms/{room.pk}/").content.decode()
    assert 'id="room-spectators-form"' in page and "Not allowed" in page

    answer = host.post(f"/rooms/{room.pk}/spectators", {"allow": "on"}, follow=True)
    assert "May watch the quest" in answer.content.decode()
    stranger = client_for(make_user())
    stranger.post(f"/rooms/{room.pk}/spectators", {"allow": "off"})
    room.refresh_from_db()
    assert room.allow_spectators  # only the host decides


@pytest.mark.django_db
def test_after_the_launch_the_switch_is_on_the_game_page_only(make_game: GameMaker) -> None:
    game, users = watched_game(make_game)
    answer = client_for(users[1]).post(
        f"/rooms/{game.room_id}/spectators", {"allow": "off"}, follow=True
    )
    assert "change this on the game page" in answer.content.decode()
    game.room.refresh_from_db()
    assert game.room.allow_spectators


@pytest.mark.django_db
def test_a_launched_rooms_invite_offers_a_non_member_the_game_to_watch(
    make_game: GameMaker,
) -> None:
    game, users = watched_game(make_game)
    page = client_for(users[0]).get(f"/rooms/join/{game.room.invite_code}").content.decode()
    assert 'id="locked-out"' in page and 'id="watch-link"' in page
    assert f'href="/games/watch/{game.watch_token}/"' in page  # the spectators' link, not the id


@pytest.mark.django_db
def test_an_invite_only_room_is_not_offered_to_watch_in_the_lobby(quest: object) -> None:
    host, player, watcher = make_user(), make_user(), client_for(make_user())
    room = room_create(
        host=host, name="Quiet table", seat_count=2, invite_only=True, allow_spectators=True
    )
    room_seat_take(room_id=room.pk, user=host, number=1)
    room_seat_take(room_id=room.pk, user=player, number=2, invite_code=room.invite_code)
    game = game_launch(room_id=room.pk, user=host)

    assert f'id="watch-{game.pk}"' not in watcher.get("/").content.decode()
    # its id leads nobody in (ids are sequential); the spectators' link the host shares does
    assert watcher.get(f"/games/{game.pk}/").status_code == 404
    assert watcher.get(f"/games/watch/{game.watch_token}/").status_code == 302
    assert watcher.get(f"/games/{game.pk}/").status_code == 200


# --- live --------------------------------------------------------------------------------------


async def connect(game: Game, user: User) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/games/{game.pk}/")
    communicator.scope["user"] = user
    connected, _ = await communicator.connect()
    assert connected
    return communicator


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_spectator_sees_the_game_live_until_the_host_stops_spectators(
    make_game: GameMaker,
) -> None:
    game, users = await sync_to_async(watched_game)(make_game)
    socket = await connect(game, users[0])
    first = await socket.receive_json_from()
    expected = await sync_to_async(spectator_view)(game)
    assert first == {"type": "view", "version": 0, "view": expected}

    await sync_to_async(quest_apply_action)(
        game_id=game.pk, seat=2, action=ROLL, expected_version=0, key=key()
    )
    frame = await socket.receive_json_from()
    assert frame["version"] == 1 and frame["view"]["role"] == "spectator"
    assert frame["view"] == await sync_to_async(spectator_view)(game)
    assert frame["view"]["turn"]["movement_rolled"] is True  # the move shows up live

    await sync_to_async(chat_message_post)(game_id=game.pk, user=users[2], text="Watch this")
    chat = await socket.receive_json_from()
    assert chat["type"] == "chat" and chat["message"]["text"] == "Watch this"

    await sync_to_async(game_spectators_set)(game_id=game.pk, user=users[1], allow=False)
    assert await socket.receive_output() == {"type": "websocket.close", "code": 4403}
    await socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_stranger_socket_is_closed_when_the_room_allows_no_spectators(
    make_game: GameMaker,
) -> None:
    game, _ = await sync_to_async(make_game)(2)
    socket = await connect(game, await sync_to_async(make_user)())
    assert await socket.receive_output() == {"type": "websocket.close", "code": 4403}
    await socket.disconnect()
