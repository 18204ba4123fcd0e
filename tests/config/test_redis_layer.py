"""The channel layer's settings with Redis, and its log while Redis is away."""

import logging
import sys
from typing import Any

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from config.redis_layer import RedisAwayOnce, redis_channel_layer


def test_the_layer_is_the_pub_sub_one_with_the_database_in_its_prefix() -> None:
    layer = redis_channel_layer(url="redis://cache.internal:6380/4", connect_timeout=0.5)

    assert layer["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert layer["CONFIG"]["prefix"] == "asgi.db4."
    assert layer["CONFIG"]["hosts"] == [
        {"address": "redis://cache.internal:6380/4", "socket_connect_timeout": 0.5}
    ]


def test_a_url_without_a_database_is_database_zero() -> None:
    layer = redis_channel_layer(url="redis://cache.internal", connect_timeout=0.5)

    assert layer["CONFIG"]["prefix"] == "asgi.db0."


def _receive_task_failed(error: BaseException) -> logging.LogRecord:
    """The record channels-redis logs when its receiving task fails (`logger.exception`)."""
    try:
        raise error
    except BaseException:
        exc_info = sys.exc_info()
    return logging.LogRecord(
        "channels_redis.pubsub",
        logging.ERROR,
        __file__,
        1,
        "Unexpected exception in receive task",
        (),
        exc_info,
    )


def test_redis_away_is_one_warning_line_a_minute(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [1000.0]
    monkeypatch.setattr("config.redis_layer.time.monotonic", lambda: clock[0])
    away = RedisAwayOnce()
    refused = RedisConnectionError("Error 111 connecting to redis:6379. Connection refused.")

    first = _receive_task_failed(refused)
    kept = [away.filter(first)]
    clock[0] += 59
    kept.append(away.filter(_receive_task_failed(refused)))
    clock[0] += 2
    kept.append(away.filter(_receive_task_failed(refused)))

    assert kept == [True, False, True]
    assert (first.levelname, first.exc_info) == ("WARNING", None)
    assert first.getMessage() == (
        "the channel layer cannot reach Redis (ConnectionError: Error 111 connecting to "
        "redis:6379. Connection refused.); it retries every second"
    )


def test_any_other_failure_of_the_layer_keeps_its_traceback() -> None:
    record = _receive_task_failed(KeyError("channel"))

    assert RedisAwayOnce().filter(record) is True
    assert record.levelname == "ERROR" and record.exc_info is not None


def test_the_site_s_logging_puts_the_filter_on_the_layer_s_logger(settings: Any) -> None:
    filters = logging.getLogger("channels_redis.pubsub").filters

    assert any(isinstance(f, RedisAwayOnce) for f in filters)
