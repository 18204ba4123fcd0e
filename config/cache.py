"""Django's Redis cache, with one Redis client a connection pool instead of one a call."""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class ReusedClientRedisCacheClient(RedisCacheClient):
    """Django's client makes a new `redis.Redis` around its pool for every get and set; building
    one (its response callbacks, its retry policy) was 6% of a busy web process's samples, more
    than the round trip. A `redis.Redis` is safe to share between threads (each command takes
    a connection from the pool), so one per pool serves every call."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        # Django's own (private, unstubbed) parts: tests/config/test_cache.py pins them.
        django: Any = self
        index = django._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            pool = django._get_connection_pool(write)
            client = self._clients.setdefault(index, django._client(connection_pool=pool))
        return client


class ReusedClientRedisCache(RedisCache):
    """`django.core.cache.backends.redis.RedisCache` with `ReusedClientRedisCacheClient`."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusedClientRedisCacheClient
