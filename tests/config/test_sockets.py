"""A user holds at most WS_MAX_PER_USER websockets open in a web process (config/sockets.py):
past it a new one is closed with 4429, the others live on, and a closed one frees its place."""

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from config.asgi import application
from config.sockets import CLOSE_TOO_MANY
from tests.conftest import make_user

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def session_headers() -> list[tuple[bytes, bytes]]:
    client = Client()
    await sync_to_async(client.force_login)(await sync_to_async(make_user)())
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    return [(b"origin", b"http://testserver"), (b"cookie", cookie.encode())]


async def open_socket(headers: list[tuple[bytes, bytes]]) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(application, "/ws/notifications/", headers=headers)
    assert (await socket.connect())[0]
    return socket


async def test_a_users_sockets_past_the_cap_are_closed_with_4429(settings: Any) -> None:
    settings.WS_MAX_PER_USER = 3
    mine, theirs = await session_headers(), await session_headers()
    sockets = [await open_socket(mine) for _ in range(3)]

    extra = await open_socket(mine)
    assert await extra.receive_output(timeout=5) == {
        "type": "websocket.close",
        "code": CLOSE_TOO_MANY,
    }
    other_user = await open_socket(theirs)  # another user's count is their own
    await other_user.send_json_to({"type": "ping"})
    assert await other_user.receive_json_from(timeout=5) == {"type": "pong"}
    for socket in sockets:  # the first three live on
        await socket.send_json_to({"type": "ping"})
        assert await socket.receive_json_from(timeout=5) == {"type": "pong"}

    await sockets.pop().disconnect()
    again = await open_socket(mine)  # a closed socket frees its place
    await again.send_json_to({"type": "ping"})
    assert await again.receive_json_from(timeout=5) == {"type": "pong"}
    for socket in [*sockets, again, other_user, extra]:
        await socket.disconnect()
