"""The room page's websocket: a content-free poke whenever the room changes, to those who may
see the room."""

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from apps.accounts.models import User
from apps.quests.models import QuestDefinition
from apps.rooms import services
from apps.rooms.models import Room
from config.routing import websocket_urlpatterns
from tests.conftest import make_user

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def listen(room: Room, user: User | AnonymousUser) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/rooms/{room.pk}/")
    socket.scope["user"] = user
    connected, _ = await socket.connect()
    assert connected
    return socket


async def test_a_seat_taken_or_left_pokes_everyone_on_the_room_page(
    quest: QuestDefinition,
) -> None:
    host, guest = await sync_to_async(make_user)("hostess"), await sync_to_async(make_user)("al")
    room = await sync_to_async(services.room_create)(host=host, name="Friday", seat_count=2)
    host_page, guest_page = await listen(room, host), await listen(room, guest)

    await sync_to_async(services.room_seat_take)(room_id=room.pk, user=guest, number=2)

    for page in (host_page, guest_page):
        assert await page.receive_json_from(timeout=10) == {"type": "changed"}

    await sync_to_async(services.room_seat_leave)(room_id=room.pk, user=guest)

    assert await host_page.receive_json_from(timeout=10) == {"type": "changed"}
    await host_page.disconnect()
    await guest_page.disconnect()


async def test_a_refused_seat_pokes_nobody(quest: QuestDefinition) -> None:
    host = await sync_to_async(make_user)("hostess")
    room = await sync_to_async(services.room_create)(host=host, name="Friday", seat_count=2)
    page = await listen(room, host)
    # the poke of an accepted seat goes out from another thread after commit: take it first,
    # so a late one is never mistaken for a poke of the refused seat
    await sync_to_async(services.room_seat_take)(room_id=room.pk, user=host, number=1)
    assert await page.receive_json_from(timeout=10) == {"type": "changed"}

    with pytest.raises(services.RoomError):
        await sync_to_async(services.room_seat_take)(room_id=room.pk, user=host, number=3)

    assert await page.receive_nothing(timeout=1)
    await page.disconnect()


async def test_only_those_who_may_see_the_room_may_listen(quest: QuestDefinition) -> None:
    host, guest = await sync_to_async(make_user)("hostess"), await sync_to_async(make_user)("al")
    room = await sync_to_async(services.room_create)(host=host, name="Friday", seat_count=2)
    await sync_to_async(Room.objects.filter(pk=room.pk).update)(status=Room.Status.PLAYING)

    for user in (AnonymousUser(), guest):  # a launched room is its members' only
        socket = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/rooms/{room.pk}/")
        socket.scope["user"] = user
        await socket.connect()
        assert (await socket.receive_output(timeout=5))["code"] == 4403
    page = await listen(room, host)
    await page.disconnect()
