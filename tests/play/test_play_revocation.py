"""Revoked means revoked, even when the channel layer does not answer (issue 22).

A socket used to learn that its seat changed hands, or that spectators were switched off, only
from the `game.seats` poke; with Redis hung at that moment the old holder's socket went on
receiving that seat's live view. Now every view carries the game's access generation (bumped in
the transaction that took the access away) and a socket checked at an older one checks again
before sending: the old sockets here get no further frame although that poke never arrives.
"""

import asyncio
import time
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from apps.accounts.models import User
from apps.core import realtime
from apps.play.models import Game
from apps.play.services import chat_message_post, quest_apply_action
from apps.play.table import game_seat_give, game_spectators_set
from apps.rooms.services import room_spectators_set
from config.routing import websocket_urlpatterns
from tests.conftest import make_user

from .conftest import GameMaker, key

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

ROLL = {"type": "roll_movement", "hero": "barbarian"}
CLOSED = {"type": "websocket.close", "code": 4403}


@pytest.fixture
def seat_pokes_hang(settings: Any, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The channel layer never answers the pokes that say access changed (as a frozen Redis
    does: each send is given up after REDIS_TIMEOUT); every other message still goes through.
    Returns the pokes that were lost. Both ways a poke leaves hang: the layer's `group_send`,
    and the publish a caller makes itself on Redis's pub/sub layer."""
    settings.REDIS_TIMEOUT = 0.2
    layer = get_channel_layer()
    assert layer is not None
    real_send, real_publish = layer.group_send, realtime._pubsub_publish
    lost: list[dict[str, Any]] = []

    async def group_send(group: str, message: dict[str, Any]) -> None:
        if message.get("type") == "game.seats":
            lost.append(message)
            await asyncio.Event().wait()  # hangs: never answers
        await real_send(group, message)

    def publish(layer: Any, group: str, message: dict[str, Any]) -> bool:
        if message.get("type") == "game.seats":
            lost.append(message)
            time.sleep(settings.REDIS_TIMEOUT)  # no answer: given up, as a frozen Redis is
            return False
        return real_publish(layer, group, message)

    monkeypatch.setattr(layer, "group_send", group_send)
    monkeypatch.setattr(realtime, "_pubsub_publish", publish)
    return lost


async def connect(game: Game, user: User) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/games/{game.pk}/")
    socket.scope["user"] = user
    connected, _ = await socket.connect()
    assert connected
    frame = await socket.receive_json_from()
    assert frame["type"] == "view"
    return socket


async def roll(game: Game, version: int = 0) -> None:
    await sync_to_async(quest_apply_action)(
        game_id=game.pk, seat=2, action=ROLL, expected_version=version, key=key()
    )


async def test_a_seat_given_away_while_the_layer_hangs_sends_its_old_holder_nothing_more(
    make_game: GameMaker, seat_pokes_hang: list[dict[str, Any]]
) -> None:
    game, users = await sync_to_async(make_game)(2)
    old_holder, zargon = await connect(game, users[2]), await connect(game, users[1])
    newcomer, staff = await sync_to_async(make_user)(), await sync_to_async(make_user)(staff=True)

    await sync_to_async(game_seat_give)(game_id=game.pk, number=2, to_user=newcomer, by=staff)
    await roll(game)  # the new holder plays: its poke does arrive

    assert await old_holder.receive_output(timeout=5) == CLOSED  # no frame: closed instead
    assert await old_holder.receive_nothing()
    frame = await zargon.receive_json_from(timeout=5)  # Zargon keeps his seat and his frames
    assert (frame["version"], frame["view"]["seat"]) == (1, 1)
    assert seat_pokes_hang == [{"type": "game.seats"}]  # the poke that would have told was lost
    await old_holder.disconnect()
    await zargon.disconnect()


async def test_spectators_switched_off_while_the_layer_hangs_get_no_further_frame(
    make_game: GameMaker, seat_pokes_hang: list[dict[str, Any]]
) -> None:
    game, users = await sync_to_async(make_game)(3)
    await sync_to_async(room_spectators_set)(room_id=game.room_id, user=users[1], allow=True)
    watching = [await connect(game, await sync_to_async(make_user)()) for _ in range(3)]

    await sync_to_async(game_spectators_set)(game_id=game.pk, user=users[1], allow=False)
    # One is told by the next move, one by table talk, one asks for the view itself.
    await roll(game)
    await sync_to_async(chat_message_post)(game_id=game.pk, user=users[2], text="Gone?")
    await watching[2].send_json_to({"type": "refresh"})

    for socket in watching:
        output = await socket.receive_output(timeout=5)
        assert output == CLOSED, output
        assert await socket.receive_nothing()
        await socket.disconnect()
    assert seat_pokes_hang == [{"type": "game.seats"}]


async def test_another_seat_changing_hands_costs_a_socket_one_check_and_no_frame(
    make_game: GameMaker, seat_pokes_hang: list[dict[str, Any]]
) -> None:
    game, users = await sync_to_async(make_game)(3)
    staying = await connect(game, users[3])
    newcomer, staff = await sync_to_async(make_user)(), await sync_to_async(make_user)(staff=True)

    await sync_to_async(game_seat_give)(game_id=game.pk, number=2, to_user=newcomer, by=staff)
    await roll(game)

    frame = await staying.receive_json_from(timeout=5)  # still seat 3: checked, then served
    assert (frame["version"], frame["view"]["seat"]) == (1, 3)
    await staying.disconnect()
