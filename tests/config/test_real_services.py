"""The same code runs on PostgreSQL and Redis when DATABASE_URL / REDIS_URL are set."""

import threading

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels_redis.core import RedisChannelLayer
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.utils import OperationalError

User = get_user_model()


def test_channel_layer_round_trips_a_message_through_redis(redis_url: str) -> None:
    layer = get_channel_layer()
    assert isinstance(layer, RedisChannelLayer)

    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.send)(channel, {"type": "test.message", "text": "hello"})

    assert async_to_sync(layer.receive)(channel) == {"type": "test.message", "text": "hello"}


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
