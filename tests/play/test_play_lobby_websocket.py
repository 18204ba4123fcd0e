"""The lobby's and the room page's websockets as play changes rooms: a content-free poke when a
room changes or one of the user's games moves; nothing for other people's games."""

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from apps.accounts.models import User
from apps.play.services import game_launch, quest_apply_action
from apps.play.table import game_pause
from apps.rooms import services as rooms
from config.routing import websocket_urlpatterns
from tests.conftest import make_user

from .conftest import GameMaker, RoomMaker

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

ROLL = {"type": "roll_movement", "hero": "barbarian"}


async def listen(user: User) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/lobby/")
    socket.scope["user"] = user
    # Connecting looks up the user's games in the database, which the communicator's default of
    # one second leaves no room for on a loaded `-n 2` run.
    connected, _ = await socket.connect(timeout=10)
    assert connected
    return socket


async def settled(socket: WebsocketCommunicator) -> WebsocketCommunicator:
    """The socket once the setup's own pokes have come and gone. Making a room or launching a
    game pokes every lobby, and in these tests the process's poke sender (a thread) sends it:
    on a loaded `-n 2` run, sometimes only after the socket has joined (this file's failures
    there, 7 December 2026)."""
    while not await socket.receive_nothing(timeout=1):
        await socket.receive_json_from()
    return socket


async def test_a_new_room_pokes_every_lobby(make_game: GameMaker) -> None:
    reader = await sync_to_async(make_user)()
    lobby = await listen(reader)

    await sync_to_async(rooms.room_create)(host=reader, name="Sunday table", seat_count=3)

    assert await lobby.receive_json_from(timeout=10) == {"type": "changed"}
    await lobby.disconnect()


async def test_a_turn_change_in_my_game_pokes_my_lobby_and_not_a_strangers(
    make_game: GameMaker,
) -> None:
    game, users = await sync_to_async(make_game)(5)  # one hero a seat: an end is a turn change
    stranger = await sync_to_async(make_user)()
    mine, theirs = await settled(await listen(users[3])), await settled(await listen(stranger))

    await sync_to_async(quest_apply_action)(
        game_id=game.pk, seat=2, action=ROLL, expected_version=0, key="roll"
    )
    assert await mine.receive_nothing(timeout=1)  # a roll: the lobby shows the same
    await sync_to_async(quest_apply_action)(
        game_id=game.pk,
        seat=2,
        action={"type": "end_turn", "hero": "barbarian"},
        expected_version=1,
        key="end",
    )

    assert await mine.receive_json_from(timeout=10) == {"type": "changed"}
    assert await theirs.receive_nothing(timeout=1)
    await mine.disconnect()
    await theirs.disconnect()


async def test_a_game_launched_after_the_lobby_opened_is_followed_too(
    make_room: RoomMaker,
) -> None:
    room, users = await sync_to_async(make_room)(3)
    lobby = await listen(users[2])

    game = await sync_to_async(game_launch)(room_id=room.pk, user=users[1], seed=1)
    assert await lobby.receive_json_from(timeout=10) == {"type": "changed"}  # the launch
    await sync_to_async(quest_apply_action)(
        game_id=game.pk, seat=2, action=ROLL, expected_version=0, key="roll"
    )
    for version, hero in enumerate(("barbarian", "dwarf"), start=1):
        await sync_to_async(quest_apply_action)(
            game_id=game.pk,
            seat=2,
            action={"type": "end_turn", "hero": hero},
            expected_version=version,
            key=f"end-{hero}",
        )

    assert await lobby.receive_json_from(timeout=10) == {"type": "changed"}  # seat 3's turn
    await lobby.disconnect()


async def test_the_host_pausing_the_game_pokes_the_room_page(make_game: GameMaker) -> None:
    game, users = await sync_to_async(make_game)(3)
    room_page = WebsocketCommunicator(
        URLRouter(websocket_urlpatterns), f"/ws/rooms/{game.room_id}/"
    )
    room_page.scope["user"] = users[2]
    assert (await room_page.connect())[0]

    await sync_to_async(game_pause)(game_id=game.pk, user=users[1])

    assert await room_page.receive_json_from(timeout=10) == {"type": "changed"}
    await room_page.disconnect()
