"""The one way out to open pages: channel groups, and pokes sent after commit.

Every app that tells open pages something goes through here (play, rooms, chat, notifications):
the groups' names, `poke_on_commit` (the message leaves only once the transaction that caused it
is committed; a rolled-back change tells nobody), and `group_poke`, which publishes it (Redis's
pub/sub layer) or hands it to the process's poke sender (any other layer).

A poke carries no game content: a page (or socket) that gets one reads again what its own user
may see. The one exception is a poke to one seat's group (`game_seat_group`, where only the
sockets of that seat listen), which may carry that seat's own view: a socket keeps it in its
process's cache and sends it, as any view, only after its own checks.

A poke is a courtesy, so a frozen or unreachable Redis costs the caller at most
`settings.REDIS_TIMEOUT` seconds and never fails the change it announces.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import os
import re
import threading
from dataclasses import dataclass
from typing import Any

import redis
from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings
from django.db import transaction

logger = logging.getLogger(__name__)

# Every lobby page listens here: a room was created, filled, launched or closed.
LOBBY_GROUP = "lobby"


def game_group(*, game_id: int) -> str:
    """The channel group of a game's websocket consumers (and of lobbies following it)."""
    return f"game-{game_id}"


def game_seat_group(*, game_id: int, seat: int) -> str:
    """The channel group of the sockets of one seat of a game (its spectators' for the
    spectator seat): what that seat alone may read goes there."""
    return f"game-{game_id}-seat-{seat}"


def room_group(*, room_id: int) -> str:
    """The channel group of the sockets of one room's pages."""
    return f"room-{room_id}"


def user_group(*, user_id: int) -> str:
    """The channel group of one user's notification sockets (it carries only their messages)."""
    return f"user-{user_id}"


# A page's id for its game socket (`?socket=` on the socket's URL, the `X-Socket-Id` header of
# its action POSTs): the socket of the page that played an action does not send it the view
# of that version again (the action's answer brought it). Anything else is no id at all.
_SOCKET_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")


def socket_id_or_none(value: object) -> str | None:
    """`value` if it is a well-formed socket id (8 to 64 letters, digits, - or _), else None."""
    return value if isinstance(value, str) and _SOCKET_ID.fullmatch(value) else None


def poke_on_commit(*, group: str, message: dict[str, Any]) -> None:
    """Send `message` to `group` once the current transaction commits (at once outside one)."""
    transaction.on_commit(functools.partial(group_poke, group=group, message=message))


def group_poke(*, group: str, message: dict[str, Any]) -> bool:
    """Send `message` to the sockets of a channel group; False if it could not be sent.

    A poke is a courtesy (clients catch up on their next fetch), so a frozen or unreachable
    Redis costs the caller at most `settings.REDIS_TIMEOUT` seconds, never a hung request.

    On channels-redis's pub/sub layer (a site with Redis) the caller publishes it itself: one
    PUBLISH from its own thread, as its cache calls are. Under load the poke sender's hand-over
    (a wake of its thread and loop) cost the web processes 0.3 ms of CPU an action and put 3 ms
    between an action's answer and its frame (docs/operations.md, issue 25). On another layer,
    a request (or consumer) of the ASGI server hands it to the process's poke sender and goes
    on at once (True: handed over; a failure is logged there).
    """
    layer = get_channel_layer()
    if layer is None:
        return False
    if isinstance(layer, RedisPubSubChannelLayer):
        return _pubsub_publish(layer, group, message)
    if _serving_a_request():
        _server_pokes.add(group, message)
        return True
    return async_to_sync(_group_send)(group, message)


@dataclass(frozen=True)
class PubSubPoke:
    """A poke as channels-redis's pub/sub layer publishes it: on `channel` of the Redis at
    `server`, `payload` (the layer's serialized message)."""

    server: str
    channel: str
    payload: bytes


def pubsub_poke(*, group: str, message: dict[str, Any]) -> PubSubPoke | None:
    """`message` to `group` as one PUBLISH, for a caller that sends it along with writes of its
    own to the same Redis in one round trip (apps/play/view_cache.py: the views it announces);
    None on any other layer, or several shards (then `group_poke`)."""
    layer = get_channel_layer()
    if not isinstance(layer, RedisPubSubChannelLayer):
        return None
    config = settings.CHANNEL_LAYERS["default"].get("CONFIG", {})
    hosts, prefix = config.get("hosts") or [], config.get("prefix", "asgi")
    if len(hosts) != 1:  # several shards: the layer picks one a group
        return None
    channel = pubsub_group_channel(prefix, group)
    return PubSubPoke(server=hosts[0]["address"], channel=channel, payload=layer.serialize(message))


def _pubsub_publish(layer: RedisPubSubChannelLayer, group: str, message: dict[str, Any]) -> bool:
    """`message` published to `group` as the pub/sub layer's `group_send` does, from this
    thread, given up after `settings.REDIS_TIMEOUT` (logged); whether it was sent."""
    poke = pubsub_poke(group=group, message=message)
    if poke is None:  # several shards: the layer picks one a group, so it sends
        return async_to_sync(_group_send)(group, message)
    try:
        _publisher(poke.server, settings.REDIS_TIMEOUT).publish(poke.channel, poke.payload)
    except Exception as exc:  # a courtesy: whatever Redis does, the caller goes on
        logger.warning("could not poke %s: %s", group, type(exc).__name__)
        return False
    return True


def pubsub_group_channel(prefix: str, group: str) -> str:
    """The Redis channel channels-redis's pub/sub layer sends a group's messages on (its
    `_get_group_channel_name`; tests/core/test_core_realtime.py checks that its sockets hear
    what is published there)."""
    return f"{prefix}__group__{group}"


_publishers: dict[tuple[int, str, float], redis.Redis] = {}


def _publisher(url: str, timeout: float) -> redis.Redis:
    """This process's client for `url` (thread-safe: a pool of connections), every call
    bounded by `timeout` seconds."""
    key = (os.getpid(), url, timeout)
    client = _publishers.get(key)
    if client is None:
        client = redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
        client = _publishers.setdefault(key, client)
    return client


async def _group_send(group: str, message: dict[str, Any]) -> bool:
    """One poke, given up after `settings.REDIS_TIMEOUT` (logged); whether it was sent."""
    try:
        await asyncio.wait_for(
            get_channel_layer().group_send(group, message), timeout=settings.REDIS_TIMEOUT
        )
    except Exception as exc:  # TimeoutError included: whatever Redis does, the caller goes on
        logger.warning("could not poke %s: %s", group, type(exc).__name__)
        return False
    return True


class _ServerPokes:
    """The pokes of a web process's requests on a layer other than Redis's pub/sub one (the
    embedded site's), sent by a thread of its own with its own loop.

    Not on the server's loop: that one is busy with every socket of the process, and a send
    queued behind them timed out (and was lost) under load. Versions pile up faster than they
    go out in a burst: a game's newer version replaces the one still waiting (a socket sends the
    newest view anyway), so a burst costs one send per game, not one per version. Other messages
    go out one by one.
    """

    def __init__(self) -> None:
        self._pending: dict[tuple[str, Any], dict[str, Any]] = {}
        self._lock = threading.Lock()
        self._extra = itertools.count()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._woken = False
        self._pid = 0

    def add(self, group: str, message: dict[str, Any]) -> None:
        version = message.get("version")
        coalesced = message.get("type") == "game.changed" and isinstance(version, int)
        key = (group, "game.changed" if coalesced else next(self._extra))
        with self._lock:
            waiting = self._pending.get(key)
            if waiting is None or not coalesced:
                self._pending[key] = message
            else:  # the newest version goes, and says a turn changed if any merged one did
                newest = message if waiting["version"] < message["version"] else waiting
                turn = bool(waiting.get("turn") or message.get("turn"))
                self._pending[key] = newest | ({"turn": True} if turn else {})
            loop, wake = self._sender()
            if self._woken:
                return
            self._woken = True
        loop.call_soon_threadsafe(wake.set)

    def take(self) -> dict[tuple[str, Any], dict[str, Any]]:
        """What waits to be sent, emptied."""
        with self._lock:
            batch, self._pending = self._pending, {}
            self._woken = False
            return batch

    def _sender(self) -> tuple[asyncio.AbstractEventLoop, asyncio.Event]:
        """The sending thread's loop, started on first use in this process (with the lock)."""
        if self._loop is None or self._wake is None or self._pid != os.getpid():
            self._woken = False  # a forked child has no sender yet, whatever its parent had
            started = threading.Event()
            threading.Thread(target=self._run, args=(started,), name="pokes", daemon=True).start()
            started.wait()
            self._pid = os.getpid()
        assert self._loop is not None and self._wake is not None
        return self._loop, self._wake

    def _run(self, started: threading.Event) -> None:
        async def send_forever() -> None:
            self._loop, self._wake = asyncio.get_running_loop(), asyncio.Event()
            started.set()
            while True:
                await self._wake.wait()
                self._wake.clear()
                batch = self.take()
                await asyncio.gather(*(_group_send(group, m) for (group, _), m in batch.items()))

        asyncio.run(send_forever())


_server_pokes = _ServerPokes()


_request_thread = threading.local()


def mark_request_thread() -> None:
    """This thread runs a web process's requests (config/request_threads.py): on a layer other
    than Redis's pub/sub one, its pokes go through the process's poke sender."""
    _request_thread.serving = True


def _serving_a_request() -> bool:
    """This thread runs a web process's requests, or sync code for an ASGI server's event loop
    (a consumer's)."""
    if getattr(_request_thread, "serving", False):
        return True
    local = SyncToAsync.threadlocal
    loop: asyncio.AbstractEventLoop | None = getattr(local, "main_event_loop", None)
    same_process = getattr(local, "main_event_loop_pid", None) == os.getpid()
    return loop is not None and same_process and loop.is_running()
