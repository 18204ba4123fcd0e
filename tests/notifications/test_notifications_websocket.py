"""The notifications websocket: a user's own notifications arrive live; nobody else's do."""

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from apps.accounts.models import User
from apps.notifications.services import notification_send, user_group
from config.asgi import application
from config.routing import websocket_urlpatterns
from tests.conftest import make_user

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def connect(user: User | AnonymousUser) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/notifications/")
    communicator.scope["user"] = user
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def test_a_notification_reaches_its_users_socket_and_no_other() -> None:
    alice, bob = await sync_to_async(make_user)(), await sync_to_async(make_user)()
    alice_socket, bob_socket = await connect(alice), await connect(bob)

    await sync_to_async(notification_send)(
        user=alice, kind="your_turn", title="Your turn", body="Round 1.", url="/games/1/"
    )

    frame = await alice_socket.receive_json_from(timeout=5)
    assert frame == {
        "type": "notification",
        "title": "Your turn",
        "body": "Round 1.",
        "url": "/games/1/",
        "read": False,
    }
    assert await alice_socket.receive_nothing()
    assert await bob_socket.receive_nothing()
    await alice_socket.disconnect()
    await bob_socket.disconnect()


async def test_the_frame_carries_only_title_body_url_and_read() -> None:
    alice = await sync_to_async(make_user)()
    socket = await connect(alice)
    layer: Any = get_channel_layer()
    await layer.group_send(
        user_group(user_id=alice.pk),
        {"type": "notification.new", "title": "T", "body": "B", "url": "/u", "secret": "no"},
    )
    assert await socket.receive_json_from() == {
        "type": "notification",
        "title": "T",
        "body": "B",
        "url": "/u",
        "read": False,
    }
    await socket.send_json_to({"type": "ping"})
    assert await socket.receive_json_from() == {"type": "pong"}
    await socket.disconnect()


async def test_anonymous_users_are_closed_with_4403() -> None:
    socket = await connect(AnonymousUser())
    assert await socket.receive_output() == {"type": "websocket.close", "code": 4403}
    await socket.disconnect()


async def test_the_full_asgi_stack_routes_and_authenticates_the_socket() -> None:
    alice = await sync_to_async(make_user)()
    client = Client()
    await sync_to_async(client.force_login)(alice)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    headers = [(b"origin", b"http://testserver"), (b"cookie", cookie.encode())]
    socket = WebsocketCommunicator(application, "/ws/notifications/", headers=headers)
    assert (await socket.connect())[0]
    await sync_to_async(notification_send)(user=alice, kind="reminder", title="Reminder")
    assert (await socket.receive_json_from(timeout=5))["title"] == "Reminder"
    await socket.disconnect()


@pytest.mark.parametrize("frame", ["not json", "[" * 1000 + "]" * 1000, "{"])
async def test_a_frame_that_is_not_json_gets_an_error_frame_and_the_socket_lives(
    frame: str,
) -> None:
    alice = await sync_to_async(make_user)()
    socket = await connect(alice)

    await socket.send_to(text_data=frame)
    error = await socket.receive_json_from(timeout=5)
    await socket.send_json_to({"type": "ping"})
    pong = await socket.receive_json_from(timeout=5)

    assert error == {"type": "error", "error": "Send JSON text frames."}
    assert pong == {"type": "pong"}
    await socket.disconnect()
