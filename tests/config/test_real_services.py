"""The same code runs on PostgreSQL and Redis when DATABASE_URL / REDIS_URL are set."""

import asyncio
import contextlib
import shutil
import threading
from typing import Any
from urllib.parse import urlsplit

import pytest
import redis
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.utils import OperationalError
from redis.connection import parse_url

from config.health import CHECKS
from config.redis_layer import redis_channel_layer
from tests.servers import free_port, redis_server

User = get_user_model()


def test_channel_layer_round_trips_a_message_through_redis(redis_url: str) -> None:
    layer = get_channel_layer()
    assert isinstance(layer, RedisPubSubChannelLayer)

    async def scenario() -> dict[str, str]:
        # One event loop, as a server's consumers have: the layer subscribes per loop.
        channel = await layer.new_channel()
        await layer.send(channel, {"type": "test.message", "text": "hello"})
        return await layer.receive(channel)

    assert async_to_sync(scenario)() == {"type": "test.message", "text": "hello"}


def test_group_message_reaches_every_member_through_redis(redis_url: str) -> None:
    layer = get_channel_layer()
    assert layer is not None

    async def scenario() -> list[dict[str, str]]:
        first, second = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("quest-test", first)
        await layer.group_add("quest-test", second)
        await layer.group_send("quest-test", {"type": "quest.changed", "version": "7"})
        received = [await layer.receive(first), await layer.receive(second)]
        await layer.group_discard("quest-test", first)
        await layer.group_discard("quest-test", second)
        return received

    assert async_to_sync(scenario)() == [{"type": "quest.changed", "version": "7"}] * 2


def _listening_channels(redis_url: str, prefix: str) -> set[bytes]:
    """The pub/sub channels of `prefix` that have a subscriber, as Redis itself counts them."""
    client = redis.Redis.from_url(redis_url)
    try:
        channels: list[bytes] = client.pubsub_channels(f"{prefix}*")  # type: ignore[assignment]
        return set(channels)
    finally:
        client.close()


def test_health_checks_leave_no_subscription_behind(redis_url: str) -> None:
    prefix = settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"]

    async def scenario() -> tuple[set[bytes], set[bytes]]:
        # One loop, as in a server, whose layer outlives the checks.
        await CHECKS["channel_layer"]()
        before = _listening_channels(redis_url, prefix)
        for _ in range(5):
            await CHECKS["channel_layer"]()
        for _ in range(40):  # an unsubscribe reaches Redis a moment after it is sent
            after = _listening_channels(redis_url, prefix)
            if after == before:
                break
            await asyncio.sleep(0.05)
        return before, after

    before, after = async_to_sync(scenario)()

    assert after == before


def _layer(url: str) -> RedisPubSubChannelLayer:
    return RedisPubSubChannelLayer(**redis_channel_layer(url=url, connect_timeout=1)["CONFIG"])


def test_sites_on_two_databases_of_one_redis_hear_only_their_own_groups(redis_url: str) -> None:
    own = parse_url(redis_url).get("db", 0)
    other_url = urlsplit(redis_url)._replace(path=f"/{(own + 8) % 16}").geturl()
    ours, theirs = _layer(redis_url), _layer(other_url)

    async def scenario() -> tuple[dict[str, str], dict[str, str] | None]:
        our_socket, their_socket = await ours.new_channel(), await theirs.new_channel()
        await ours.group_add("game-isolation", our_socket)
        await theirs.group_add("game-isolation", their_socket)
        await ours.group_send("game-isolation", {"type": "game.changed", "version": 3})
        received = await asyncio.wait_for(ours.receive(our_socket), 5)
        try:
            overheard = await asyncio.wait_for(theirs.receive(their_socket), 0.5)
        except TimeoutError:
            overheard = None
        await ours.flush()
        await theirs.flush()
        return received, overheard

    received, overheard = async_to_sync(scenario)()

    assert received == {"type": "game.changed", "version": 3}
    assert overheard is None


@pytest.mark.faults
def test_a_socket_hears_its_group_again_once_redis_is_back(
    redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Redis restarted (a deploy, a crash): the process's subscriptions come back by themselves,
    and the pokes sent after that reach the sockets that were open all along. Meanwhile the log
    says so in one line, not a traceback a second."""
    if shutil.which("redis-server") is None:
        pytest.skip("needs redis-server")
    port = free_port()

    async def scenario() -> dict[str, Any]:
        with redis_server(port) as url:
            layer = _layer(url)
            channel = await layer.new_channel()
            await layer.group_add("game-restart", channel)
            waiting = asyncio.ensure_future(layer.receive(channel))
        await asyncio.sleep(2.5)  # away long enough for the layer to try again, and fail
        with redis_server(port):
            for _ in range(100):  # the subscription is back within a reconnect or two
                with contextlib.suppress(redis.ConnectionError):
                    await layer.group_send("game-restart", {"type": "game.changed", "version": 9})
                if (await asyncio.wait({waiting}, timeout=0.1))[0]:
                    break
            await layer.flush()
        return waiting.result() if waiting.done() else {}

    assert async_to_sync(scenario)() == {"type": "game.changed", "version": 9}
    said = [r for r in caplog.records if r.name == "channels_redis.pubsub"]
    assert len(said) == 1
    assert said[0].levelname == "WARNING" and said[0].exc_info is None
    assert "cannot reach Redis" in said[0].getMessage()


@pytest.mark.django_db(transaction=True)
def test_select_for_update_makes_a_second_writer_wait_on_postgres(postgres: None) -> None:
    user = User.objects.create_user(username="locked", email="l@example.com", password="x")
    order: list[str] = []
    first_has_lock = threading.Event()

    def second_writer() -> None:
        first_has_lock.wait()
        with transaction.atomic():
            User.objects.select_for_update().get(pk=user.pk)
            order.append("second")
        connection.close()

    thread = threading.Thread(target=second_writer)
    thread.start()
    with transaction.atomic():
        User.objects.select_for_update().get(pk=user.pk)
        first_has_lock.set()
        thread.join(timeout=0.5)  # the second writer must still be blocked on our row lock
        order.append("first")
    thread.join(timeout=10)

    assert order == ["first", "second"]


@pytest.mark.django_db(transaction=True)
def test_select_for_update_nowait_refuses_a_locked_row_on_postgres(postgres: None) -> None:
    user = User.objects.create_user(username="busy", email="b@example.com", password="x")
    errors: list[str] = []
    has_lock, done = threading.Event(), threading.Event()

    def holder() -> None:
        with transaction.atomic():
            User.objects.select_for_update().get(pk=user.pk)
            has_lock.set()
            done.wait(timeout=10)
        connection.close()

    thread = threading.Thread(target=holder)
    thread.start()
    has_lock.wait(timeout=10)
    try:
        with transaction.atomic():
            User.objects.select_for_update(nowait=True).get(pk=user.pk)
    except OperationalError as exc:
        errors.append(type(exc).__name__)
    finally:
        done.set()
        thread.join(timeout=10)

    assert errors == ["OperationalError"]
