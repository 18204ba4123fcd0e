"""Django's Redis cache, with one Redis client a connection pool instead of one a call, and
one client (with its pools) a process instead of one a cache object."""

from __future__ import annotations

import asyncio
import threading
import weakref
from typing import Any

import redis.asyncio
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property


class ReusedClientRedisCacheClient(RedisCacheClient):
    """Django's client makes a new `redis.Redis` around its pool for every get and set; building
    one (its response callbacks, its retry policy) was 6% of a busy web process's samples, more
    than the round trip. A `redis.Redis` is safe to share between threads (each command takes
    a connection from the pool), so one per pool serves every call."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}
        # One asyncio client an event loop (its connections belong to that loop).
        self._async_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Any] = (
            weakref.WeakKeyDictionary()
        )

    def async_client(self) -> Any:
        """redis's asyncio client for the running loop, on the server reads go to, with the
        same timeouts as the pools."""
        django: Any = self  # Django's own (private) parts: tests/config/test_cache.py pins them
        loop = asyncio.get_running_loop()
        client = self._async_clients.get(loop)
        if client is None:
            options = {k: v for k, v in django._pool_options.items() if k != "parser_class"}
            server = django._servers[django._get_connection_pool_index(False)]
            client = self._async_clients.setdefault(
                loop, redis.asyncio.Redis.from_url(server, **options)
            )
        return client

    async def aget(self, key: Any, default: Any) -> Any:
        """`get`, on the running loop: no thread."""
        django: Any = self
        value = await self.async_client().get(key)
        return default if value is None else django._serializer.loads(value)

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        # Django's own (private, unstubbed) parts: tests/config/test_cache.py pins them.
        django: Any = self
        index = django._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            pool = django._get_connection_pool(write)
            client = self._clients.setdefault(index, django._client(connection_pool=pool))
        return client


# The clients of this process, by servers and options.
_clients: dict[str, ReusedClientRedisCacheClient] = {}
_clients_lock = threading.Lock()


class ReusedClientRedisCache(RedisCache):
    """`django.core.cache.backends.redis.RedisCache` with `ReusedClientRedisCacheClient`, one a
    process for the same servers and options.

    Django keeps a cache object per thread and per asyncio task (`caches` is an asgiref Local
    that is not thread-critical): every websocket consumer that touched the cache had a client,
    a connection pool and a connection to Redis of its own, held as long as its socket was open
    (25 KiB an idle socket, and as many Redis connections as sockets). The cache objects stay
    per task; what they hold is shared.
    """

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusedClientRedisCacheClient

    async def aget(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        """Read on the running loop by redis's asyncio client, where Django's `aget` hands
        `get` to a thread: a poked socket reads its view this way (apps/play/consumers.py)."""
        key = self.make_and_validate_key(key, version=version)
        return await self._cache.aget(key, default)

    def set_many_then_publish(
        self, mapping: dict[str, Any], timeout: int, *, messages: list[tuple[str, bytes]]
    ) -> None:
        """`set_many(mapping, timeout)`, then a PUBLISH of each `(channel, payload)` of
        `messages` in order, in one round trip to Redis (a pipeline, not a transaction): a round
        trip cost the caller about 0.1 ms of CPU. Whoever hears a message finds the values
        there."""
        django: Any = self._cache  # Django's own (private) parts: tests/config/test_cache.py
        pipeline = self._cache.get_client(None, write=True).pipeline(transaction=False)
        for key, value in mapping.items():
            made = self.make_and_validate_key(key)
            pipeline.set(made, django._serializer.dumps(value), ex=max(1, int(timeout)))
        for channel, payload in messages:
            pipeline.publish(channel, payload)
        pipeline.execute()

    @cached_property
    def _cache(self) -> ReusedClientRedisCacheClient:
        django: Any = self  # Django's own (private) parts, pinned by tests/config/test_cache.py
        key = repr((django._servers, sorted(django._options.items())))
        with _clients_lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = ReusedClientRedisCacheClient(
                    django._servers, **django._options
                )
        return client
