"""The channel layer of a site with Redis: channels-redis's pub/sub layer.

Each process subscribes over one connection to the channels and groups of its own sockets, and
a message waits in that process's memory for its consumer. So a socket receives with no round
trip to Redis, and a group message is one PUBLISH. The queue layer (`channels_redis.core`), which
the site used before, made about four round trips for each message received (its script, a
BZPOPMIN, its backup sorted set) and four for each group send; under load that was 16% of the web
processes' time (docs/operations.md, issue 25).

What the site gives up, and why it may:
- a message published while no process listens (a Redis restart, a socket between two
  processes) is gone, not kept for a minute. The site sends only pokes, and a page catches up:
  a socket sends the current view when it connects, and a page that sees a version gap asks
  for the view again (docs/web-contract.md);
- no channel has a capacity, so nothing is dropped for a full channel (the queue layer dropped
  pokes past 100 at saturation, and screens missed their last version). A poke is a few dozen
  bytes, a socket drains its queue as fast as it reads it, and the queue goes with the socket.

Pub/sub channels belong to the whole Redis server, whatever the database the URL names, so the
layer's prefix carries that number: sites on other databases of one Redis (and the test workers,
config/settings_test.py) stay apart, as the queue layer's keys did.

While Redis is away, the layer's receiving task logs a traceback a second in every process
(channels-redis retries each second); `RedisAwayOnce` makes that one warning line a minute.

Not imported from Channels here: settings load this before Django is set up.
"""

import logging
import time
from typing import Any

from redis.connection import parse_url
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError


def redis_channel_layer(*, url: str, connect_timeout: float) -> dict[str, Any]:
    """The `CHANNEL_LAYERS` entry for the Redis at `url`."""
    database = parse_url(url).get("db", 0)
    return {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {
            # No socket timeout: a process's subscription waits on Redis for as long as it
            # lives. The sends from requests are bounded by `group_poke` instead.
            "hosts": [{"address": url, "socket_connect_timeout": connect_timeout}],
            "prefix": f"asgi.db{database}.",
        },
    }


class RedisAwayOnce(logging.Filter):
    """The pub/sub layer's "Unexpected exception in receive task" for a Redis that is away (it
    refuses, drops or times out the connection): one warning line without the traceback, at most
    every `every` seconds. Any other exception there keeps its traceback."""

    def __init__(self, every: float = 60.0) -> None:
        super().__init__()
        self.every = every
        self.last_said: float | None = None

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if not isinstance(error, RedisConnectionError | RedisTimeoutError | OSError):
            return True
        now = time.monotonic()
        if self.last_said is not None and now - self.last_said < self.every:
            return False
        self.last_said = now
        record.msg = "the channel layer cannot reach Redis (%s: %s); it retries every second"
        record.args = (type(error).__name__, error)
        record.exc_info, record.exc_text = None, None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True
