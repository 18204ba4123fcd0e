"""config/cache.py: Django's Redis cache, one Redis client a connection pool."""

from __future__ import annotations

import asyncio
import threading
import uuid
from typing import Any, cast

import pytest
import redis
from asgiref.sync import sync_to_async
from django.core.cache import caches

from config.cache import ReusedClientRedisCache, ReusedClientRedisCacheClient


def _cache(url: str) -> ReusedClientRedisCache:
    return ReusedClientRedisCache(url, {"KEY_PREFIX": f"test-{uuid.uuid4().hex}"})


def _client_of(cache: ReusedClientRedisCache) -> Any:
    return cast(Any, cache)._cache  # Django's RedisCacheClient, private


def test_every_call_of_a_cache_uses_the_same_redis_client(redis_url: str) -> None:
    cache = _cache(redis_url)
    client = _client_of(cache).get_client("a")

    assert _client_of(cache).get_client("b") is client
    assert _client_of(cache).get_client("c", write=True) is client  # one server: one pool


def test_the_cache_gets_sets_adds_and_counts_as_djangos_does(redis_url: str) -> None:
    cache = _cache(redis_url)

    cache.set("view", {"seat": 1, "text": "a view"}, 30)
    assert cache.get("view") == {"seat": 1, "text": "a view"}
    assert cache.add("claim", 1, 5) is True and cache.add("claim", 1, 5) is False
    cache.set("uses", 0, 30)
    assert cache.incr("uses") == 1 and cache.incr("uses", 4) == 5
    assert cache.delete("view") is True and cache.get("view", "gone") == "gone"


def test_threads_sharing_the_client_each_read_their_own_values(redis_url: str) -> None:
    cache = _cache(redis_url)
    wrong: list[str] = []

    def read_and_write(n: int) -> None:
        for i in range(50):
            cache.set(f"k{n}", f"{n}:{i}", 30)
            if cache.get(f"k{n}") != f"{n}:{i}":
                wrong.append(f"thread {n}, round {i}")

    threads = [threading.Thread(target=read_and_write, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert wrong == []


def test_cache_objects_of_the_same_servers_and_options_share_one_client(redis_url: str) -> None:
    params = {"KEY_PREFIX": "p", "OPTIONS": {"socket_timeout": 0.5}}
    one = ReusedClientRedisCache(redis_url, params)
    other = ReusedClientRedisCache(redis_url, params)
    elsewhere = ReusedClientRedisCache(redis_url, {"OPTIONS": {"socket_timeout": 0.25}})

    assert _client_of(one) is _client_of(other)
    assert _client_of(one).get_client("k") is _client_of(other).get_client("k")
    assert _client_of(elsewhere) is not _client_of(one)  # other options: a client of its own


def test_every_websocket_task_uses_the_processs_one_redis_client(
    redis_url: str, settings: Any
) -> None:
    settings.CACHES = {
        **settings.CACHES,
        "tasks": {"BACKEND": "config.cache.ReusedClientRedisCache", "LOCATION": redis_url},
    }

    def client_in_this_task() -> tuple[int, Any]:
        cache = caches["tasks"]
        cache.set("seen", 1, 30)
        return id(cache), _client_of(cast(ReusedClientRedisCache, cache))

    async def consumer() -> tuple[int, Any]:  # Django keeps a cache object per task
        return await sync_to_async(client_in_this_task, thread_sensitive=False)()

    async def sockets() -> list[tuple[int, Any]]:
        return await asyncio.gather(*(consumer() for _ in range(5)))

    seen = asyncio.run(sockets())
    assert len({cache for cache, _ in seen}) == 5
    assert len({id(client) for _, client in seen}) == 1


def test_aget_reads_on_the_loop_what_set_wrote_without_a_thread(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = _cache(redis_url)
    cache.set("view", {"seat": 1, "text": "a view"}, 30)
    cache.set("count", 7, 30)  # Django keeps integers unpickled

    def no_sync_read(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("aget read through the sync client (a thread)")

    monkeypatch.setattr(ReusedClientRedisCacheClient, "get", no_sync_read)

    async def read() -> tuple[Any, Any, Any]:
        return (
            await cache.aget("view"),
            await cache.aget("count"),
            await cache.aget("never-set", "gone"),
        )

    assert asyncio.run(read()) == ({"seat": 1, "text": "a view"}, 7, "gone")
    assert asyncio.run(read())[0] == {"seat": 1, "text": "a view"}  # another loop: its own client


def test_values_set_with_a_publish_are_there_for_whoever_hears_it(redis_url: str) -> None:
    cache = _cache(redis_url)
    listener = redis.Redis.from_url(redis_url).pubsub()
    channel = f"test-{uuid.uuid4().hex}"
    listener.subscribe(channel)
    assert listener.get_message(timeout=5)["type"] == "subscribe"

    cache.set_many_then_publish(
        {"a": {"seat": 1}, "b": 7}, 30, messages=[(channel, b"ready"), (channel, b"go")]
    )

    heard = [listener.get_message(timeout=5) for _ in range(2)]
    assert [message and message["data"] for message in heard] == [b"ready", b"go"]  # in order
    assert cache.get_many(["a", "b"]) == {"a": {"seat": 1}, "b": 7}  # as set_many writes them
    assert 0 < _client_of(cache).get_client("a").ttl(cache.make_key("a")) <= 30
    listener.close()
