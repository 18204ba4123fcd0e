"""The SQLite channel layer (config/channel_layer.py): what one process sends, another receives.

Two layer objects on one file stand for two processes (each has its own process prefix); the
tests in tests/play/test_play_live_embedded.py use real separate processes.
"""

import asyncio
import sqlite3
import time
from pathlib import Path

import pytest
from channels.exceptions import ChannelFull

from config.channel_layer import SQLiteChannelLayer

pytestmark = pytest.mark.asyncio


@pytest.fixture
def path(tmp_path: Path) -> str:
    return str(tmp_path / "channels.sqlite3")


async def test_a_group_message_sent_by_one_process_reaches_a_member_in_another(path: str) -> None:
    web, worker = SQLiteChannelLayer(path), SQLiteChannelLayer(path)
    socket = await web.new_channel()
    await web.group_add("game-1", socket)

    await worker.group_send("game-1", {"type": "game.changed", "version": 3})

    assert await asyncio.wait_for(web.receive(socket), 5) == {
        "type": "game.changed",
        "version": 3,
    }
    await web.close()


async def test_each_member_gets_the_message_once_and_a_discarded_one_none(path: str) -> None:
    web, worker = SQLiteChannelLayer(path), SQLiteChannelLayer(path)
    first, second, gone = [await web.new_channel() for _ in range(3)]
    for channel in (first, second, gone):
        await web.group_add("user-7", channel)
    await web.group_discard("user-7", gone)

    await worker.group_send("user-7", {"type": "notification.new", "title": "Your turn"})
    await worker.group_send("user-8", {"type": "notification.new", "title": "Not yours"})

    for channel in (first, second):
        message = await asyncio.wait_for(web.receive(channel), 5)
        assert message["title"] == "Your turn"
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(web.receive(gone), 0.5)
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(web.receive(first), 0.5)
    await web.close()


async def test_messages_arrive_in_the_order_they_were_sent(path: str) -> None:
    web, worker = SQLiteChannelLayer(path), SQLiteChannelLayer(path)
    socket = await web.new_channel()
    await web.group_add("game-2", socket)

    for version in range(1, 21):
        await worker.group_send("game-2", {"type": "game.changed", "version": version})

    received = [(await asyncio.wait_for(web.receive(socket), 5))["version"] for _ in range(20)]
    assert received == list(range(1, 21))
    await web.close()


async def test_a_named_channel_is_read_by_one_taker(path: str) -> None:
    sender, one, other = (SQLiteChannelLayer(path) for _ in range(3))

    await sender.send("jobs", {"type": "job", "n": 1})

    done, pending = await asyncio.wait(
        [asyncio.ensure_future(layer.receive("jobs")) for layer in (one, other)], timeout=1
    )
    assert [task.result() for task in done] == [{"type": "job", "n": 1}]
    for task in pending:
        task.cancel()


async def test_a_full_channel_refuses_a_send_and_skips_a_group_send(path: str) -> None:
    layer = SQLiteChannelLayer(path, capacity=2)
    socket = "nobody-reads-this"
    await layer.group_add("room-1", socket)
    await layer.send(socket, {"type": "poke"})
    await layer.group_send("room-1", {"type": "poke"})

    with pytest.raises(ChannelFull):
        await layer.send(socket, {"type": "poke"})
    await layer.group_send("room-1", {"type": "poke"})  # dropped silently, as the spec says

    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM message").fetchone() == (2,)


async def test_a_member_whose_process_is_gone_is_dropped_once_its_messages_expire(
    path: str,
) -> None:
    dead, alive = SQLiteChannelLayer(path, expiry=1), SQLiteChannelLayer(path, expiry=1)
    socket = await dead.new_channel()  # nobody ever receives on it
    await dead.group_add("game-3", socket)
    await alive.group_send("game-3", {"type": "game.changed", "version": 1})
    time.sleep(1.1)

    alive._last_clean = 0.0  # the next write cleans up
    await alive.group_send("game-3", {"type": "game.changed", "version": 2})

    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM membership").fetchone() == (0,)
        assert conn.execute("SELECT COUNT(*) FROM message").fetchone() == (0,)


async def test_flush_empties_the_file(path: str) -> None:
    layer = SQLiteChannelLayer(path)
    await layer.group_add("game-4", "some-channel")
    await layer.send("some-channel", {"type": "poke"})

    await layer.flush()

    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM membership").fetchone() == (0,)
        assert conn.execute("SELECT COUNT(*) FROM message").fetchone() == (0,)
