"""A channel-layer member for synchronous tests: hears a group as a server's socket would."""

import asyncio
import contextlib
import queue
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from channels.layers import get_channel_layer


class GroupListener:
    """The messages a group's member got, in order, as they come."""

    def __init__(self) -> None:
        self.heard: queue.Queue[dict[str, Any]] = queue.Queue()

    def take(self, count: int, *, timeout: float = 10) -> list[dict[str, Any]]:
        """The next `count` messages (failing, not hanging, if they never come)."""
        return [self.heard.get(timeout=timeout) for _ in range(count)]


@contextmanager
def group_listener(group: str) -> Iterator[GroupListener]:
    """A member of `group` for as long as the block runs, on an event loop of its own.

    The pub/sub layer keeps a loop's subscriptions with that loop, as a server's consumers keep
    theirs: a test that joined a group with one `async_to_sync` call and received with another
    heard nothing (each call runs on a new loop).
    """
    listener = GroupListener()
    layer = get_channel_layer()
    assert layer is not None
    joined = threading.Event()
    running: list[tuple[asyncio.AbstractEventLoop, asyncio.Task[None]]] = []

    async def listen() -> None:
        task = asyncio.current_task()
        assert task is not None
        running.append((asyncio.get_running_loop(), task))
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        joined.set()
        try:
            while True:
                listener.heard.put(await layer.receive(channel))
        finally:
            await layer.group_discard(group, channel)

    def run() -> None:
        with contextlib.suppress(asyncio.CancelledError):  # the end of the block
            asyncio.run(listen())  # which ends the layer's own tasks on the loop too

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        if not joined.wait(timeout=10):
            raise TimeoutError(f"could not join {group}")
        yield listener
    finally:
        for loop, task in running:
            loop.call_soon_threadsafe(task.cancel)
        thread.join(timeout=10)
