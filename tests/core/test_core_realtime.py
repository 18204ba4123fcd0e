"""Pokes: published by the caller on Redis's pub/sub layer; on another layer, from a request of
the ASGI server, handed to the poke sender and never lost in a burst."""

import asyncio
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer

from apps.core.realtime import _ServerPokes, group_poke


async def receive_all(channel: str) -> list[dict[str, Any]]:
    layer = get_channel_layer()
    messages = []
    while True:
        try:
            messages.append(await asyncio.wait_for(layer.receive(channel), timeout=1))
        except TimeoutError:
            return messages


def a_request_sending(pokes: list[tuple[str, dict]]) -> list[bool]:
    """What a sync view does: poke from the request's thread, inside the server's loop."""
    return [group_poke(group=group, message=message) for group, message in pokes]


@pytest.mark.asyncio
async def test_a_request_hands_its_pokes_over_and_the_newest_version_arrives() -> None:
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("game-7", channel)

    burst = [("game-7", {"type": "game.changed", "version": v}) for v in range(1, 6)]
    handed_over = await sync_to_async(a_request_sending)(burst)

    assert handed_over == [True] * len(burst)  # the request did not wait for Redis
    versions = [m["version"] for m in await receive_all(channel)]
    assert versions[-1] == 5 and versions == sorted(set(versions))


def test_versions_waiting_together_go_out_as_the_newest_and_other_pokes_are_never_merged() -> None:
    pokes, busy_sender = _ServerPokes(), asyncio.new_event_loop()  # it never gets to run
    pokes._sender = lambda: (busy_sender, asyncio.Event())  # type: ignore[method-assign]
    for version in (1, 2, 3, 5, 4):  # the last one late
        pokes.add("game-7", {"type": "game.changed", "version": version})
    for n in (1, 2):
        pokes.add("game-8", {"type": "chat.posted", "id": n})

    waiting = list(pokes.take().values())
    busy_sender.close()

    assert [m["version"] for m in waiting if "version" in m] == [5]
    assert [m["id"] for m in waiting if "id" in m] == [1, 2]
    assert pokes.take() == {}


def test_merged_versions_name_only_the_newest_versions_acting_page() -> None:
    """A version's poke may name the page that played it (its socket skips that version); once
    merged into a newer version, only the newer one's page is named, so every other socket,
    the older version's page included, is sent the newer view."""
    pokes, busy_sender = _ServerPokes(), asyncio.new_event_loop()
    pokes._sender = lambda: (busy_sender, asyncio.Event())  # type: ignore[method-assign]
    page_a = {"socket": "page-a-0001", "user": 1, "seat": 2}
    page_b = {"socket": "page-b-0002", "user": 2, "seat": 3}
    merges = (
        ([(5, page_a), (6, None)], None),
        ([(5, page_a), (6, page_b)], page_b),
        ([(6, page_b), (5, page_a)], page_b),  # the older one late
    )
    for merged, named in merges:
        for version, answered in merged:
            message = {"type": "game.changed", "version": version}
            pokes.add("game-7", message | ({"answered": answered} if answered else {}))
        (waiting,) = pokes.take().values()
        assert (waiting["version"], waiting.get("answered")) == (6, named)
    busy_sender.close()


@pytest.mark.asyncio
async def test_pokes_still_go_out_after_a_drain_has_finished() -> None:
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("game-9", channel)
    for version in (1, 2):
        await sync_to_async(a_request_sending)(
            [("game-9", {"type": "game.changed", "version": version})]
        )
        message = await asyncio.wait_for(layer.receive(channel), timeout=5)
        assert message["version"] == version


@pytest.mark.asyncio
@pytest.mark.redis
async def test_on_the_pubsub_layer_a_request_publishes_its_poke_and_the_groups_sockets_hear_it(
    redis_url: str,
) -> None:
    """The request's thread publishes where the layer's own `group_send` would (the channel
    name and the encoding are channels-redis's: this pins them)."""
    layer = get_channel_layer()
    assert isinstance(layer, RedisPubSubChannelLayer)
    channel = await layer.new_channel()
    await layer.group_add("game-41", channel)
    answered = {"socket": "page-a-0001", "user": 3, "seat": 2}
    pokes = [
        ("game-41", {"type": "game.changed", "version": v, "answered": answered}) for v in (7, 8)
    ]

    sent = await sync_to_async(a_request_sending, thread_sensitive=False)(pokes)

    assert sent == [True, True]
    heard = [await asyncio.wait_for(layer.receive(channel), timeout=5) for _ in pokes]
    assert heard == [message for _, message in pokes]  # every version, in order, as sent
    await layer.group_discard("game-41", channel)
