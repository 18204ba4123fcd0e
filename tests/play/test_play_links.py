"""Links that cannot be walked (issue 22): game ids are sequential, so spectating an invite-only
room and watching a public replay take the unguessable links the host shares
(apps/play/links.py), and nothing answers a stranger differently for a game that exists."""

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.test import Client

from apps.accounts.models import User
from apps.play.models import Game
from apps.play.services import game_launch
from apps.play.table import game_abandon, game_spectators_set
from apps.rooms.services import room_create, room_seat_take
from config.routing import websocket_urlpatterns
from tests.conftest import make_user

from .conftest import GameMaker, client_for


def invite_only_game(*, allow_spectators: bool = True) -> tuple[Game, dict[int, User]]:
    host, player = make_user(), make_user()
    room = room_create(
        host=host,
        name="Quiet table",
        seat_count=2,
        invite_only=True,
        allow_spectators=allow_spectators,
    )
    room_seat_take(room_id=room.pk, user=host, number=1)
    room_seat_take(room_id=room.pk, user=player, number=2, invite_code=room.invite_code)
    return game_launch(room_id=room.pk, user=host), {1: host, 2: player}


@pytest.mark.django_db
def test_an_invite_only_games_spectators_come_by_the_hosts_link_not_by_its_id(
    quest: Any,
) -> None:
    game, users = invite_only_game()
    host_page = client_for(users[1]).get(f"/games/{game.pk}/").content.decode()
    link = f"/games/watch/{game.watch_token}/"
    assert f'id="watch-link" class="break-all" href="http://testserver{link}"' in host_page
    assert game.watch_token != str(game.pk) and len(game.watch_token) >= 40  # 256 random bits
    stranger = client_for(make_user())
    for walked in (
        f"/games/{game.pk}/",
        f"/api/games/{game.pk}/view",
        f"/api/games/{game.pk}/chat",
    ):
        assert stranger.get(walked).status_code == 404

    opened = stranger.get(link)

    assert (opened.status_code, opened["Location"]) == (302, f"/games/{game.pk}/")
    assert stranger.get(f"/games/{game.pk}/").status_code == 200
    assert stranger.get(f"/api/games/{game.pk}/view").json()["role"] == "spectator"
    assert client_for(users[2]).get(f"/games/{game.pk}/").status_code == 200  # members: as ever
    assert client_for(make_user()).get(f"/games/watch/{game.watch_token[:-1]}x/").status_code == 404


@pytest.mark.django_db
def test_the_spectators_link_leads_nowhere_while_spectators_are_off(quest: Any) -> None:
    game, users = invite_only_game()
    watcher = client_for(make_user())
    watcher.get(f"/games/watch/{game.watch_token}/")
    game_spectators_set(game_id=game.pk, user=users[1], allow=False)

    assert watcher.get(f"/games/{game.pk}/").status_code == 404
    assert client_for(make_user()).get(f"/games/watch/{game.watch_token}/").status_code == 404
    assert Client().get(f"/games/watch/{game.watch_token}/").status_code == 302  # log in first


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_socket_of_an_invite_only_game_serves_only_those_who_opened_the_link(
    quest: Any,
) -> None:
    game, _ = await sync_to_async(invite_only_game)()
    walker, invited = await sync_to_async(make_user)(), await sync_to_async(make_user)()
    await sync_to_async(lambda: client_for(invited).get(f"/games/watch/{game.watch_token}/"))()
    frames = {}
    for name, user in (("walker", walker), ("invited", invited)):
        socket = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/games/{game.pk}/")
        socket.scope["user"] = user
        await socket.connect()
        frames[name] = await socket.receive_output()
        await socket.disconnect()

    assert frames["walker"] == {"type": "websocket.close", "code": 4403}
    assert frames["invited"]["type"] == "websocket.send"


@pytest.mark.django_db
def test_a_public_replay_is_watched_by_its_link_not_by_the_game_id(make_game: GameMaker) -> None:
    game, users = make_game(2)
    game_abandon(game_id=game.pk, by=make_user(staff=True))
    host = client_for(users[1])
    host.post(f"/games/{game.pk}/replay/public", {"public": "on"})
    game.refresh_from_db()
    link = f"/replays/{game.replay_token}/"
    assert f"http://testserver{link}" in host.get(f"/games/{game.pk}/").content.decode()
    visitor = Client()

    page = visitor.get(link)
    steps = visitor.get(f"/api/games/replays/{game.replay_token}")

    assert page.status_code == 200
    assert f'data-api-replay-url="/api/games/replays/{game.replay_token}"' in page.content.decode()
    assert steps.status_code == 200 and steps.json()["game_id"] == game.pk
    assert visitor.get(f"/games/{game.pk}/replay/").status_code == 404  # not by the id
    assert visitor.get(f"/api/games/{game.pk}/replay").status_code == 404


@pytest.mark.django_db
def test_a_running_games_public_replay_answers_like_a_missing_one(make_game: GameMaker) -> None:
    game, _ = make_game(2)
    Game.objects.filter(pk=game.pk).update(replay_public=True)  # shared before the end
    visitor = client_for(make_user())

    running = visitor.get(f"/api/games/replays/{game.replay_token}")
    missing = visitor.get("/api/games/replays/no-such-token")
    by_id, no_id = (
        visitor.get(f"/api/games/{game.pk}/replay"),
        visitor.get("/api/games/999999/replay"),
    )

    assert (running.status_code, running.json()) == (missing.status_code, missing.json())
    assert running.json() == {"detail": "There is no such replay."}
    assert (by_id.status_code, by_id.json()) == (no_id.status_code, no_id.json())
    assert visitor.get(f"/replays/{game.replay_token}/").status_code == 404


@pytest.mark.django_db
def test_leaving_or_cancelling_a_launched_room_answers_a_stranger_as_a_missing_one(
    make_game: GameMaker,
) -> None:
    game, _ = make_game(2)
    stranger = client_for(make_user())
    missing = 999_999

    for path in ("seats/leave", "cancel"):
        launched = stranger.post(f"/rooms/{game.room_id}/{path}")
        absent = stranger.post(f"/rooms/{missing}/{path}")
        assert (launched.status_code, absent.status_code) == (404, 404)
    api_launched = stranger.delete(f"/api/rooms/{game.room_id}/seats/2")
    api_absent = stranger.delete(f"/api/rooms/{missing}/seats/2")
    assert (api_launched.status_code, api_launched.json()) == (
        api_absent.status_code,
        api_absent.json(),
    )
