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

Not imported from Channels here: settings load this before Django is set up.
"""

from typing import Any

from redis.connection import parse_url


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
