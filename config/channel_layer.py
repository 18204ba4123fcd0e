"""A Channels layer kept in a SQLite file: live updates between processes with no server.

Why it exists: the embedded profile (`make run`: SQLite, no Redis) runs the web server and the
Celery worker as two processes. Channels' `InMemoryChannelLayer` reaches only consumers of its
own process, so nothing the worker sent (notifications, timeouts, the monster AI's moves) ever
reached an open page. Every process on the machine opens this layer's file instead; a group
message is a row per member channel, and each web process picks up the rows of its own consumers
every `poll_interval` seconds (0.1 s by default, far inside the 2 s the site promises; an
indexed SELECT that finds nothing costs microseconds and takes no lock in WAL mode).

Why not the alternatives:
- channels-lite (the one maintained SQLite layer on PyPI, alpha) keeps its rows in Django's
  *default* database through the ORM, which must then be SQLite: every poke, every delivery
  and every socket joining a group takes the write lock that game actions need, and a site on
  PostgreSQL without Redis could not use it. This file is separate, so the layer's writes never
  queue behind (or in front of) a game's transaction, whatever the main database.
- Running the worker inside the web process would hide exactly the cross-process mistakes
  (serialisation, on_commit) the embedded profile is meant to catch, and `make run` already
  runs a real worker.
- Relaying pokes through the web process would need a second transport for the relay anyway.

With REDIS_URL set, settings use channels_redis instead; this layer is for one machine.

Messages are JSON (the site sends only content-free pokes and a user's own notification text).
A message lives `expiry` seconds if nobody takes it; a channel holds at most `capacity` waiting
messages (`send` raises ChannelFull past that, `group_send` skips that member, as the spec says).
Group memberships last `group_expiry` seconds, and a member whose messages expire untaken (its
process is gone) is dropped from its groups.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from channels.exceptions import ChannelFull
from channels.layers import BaseChannelLayer

T = TypeVar("T")

SCHEMA = """
CREATE TABLE IF NOT EXISTS message (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    queue TEXT NOT NULL,    -- who takes it: the channel, or a process's prefix "name.<id>!"
    channel TEXT NOT NULL,  -- the full channel name it was sent to
    body TEXT NOT NULL,     -- the message, as JSON
    expires REAL NOT NULL   -- unix time
);
CREATE INDEX IF NOT EXISTS message_queue ON message (queue, id);
CREATE INDEX IF NOT EXISTS message_channel ON message (channel);
CREATE INDEX IF NOT EXISTS message_expires ON message (expires);
CREATE TABLE IF NOT EXISTS membership (
    group_name TEXT NOT NULL,
    channel TEXT NOT NULL,
    queue TEXT NOT NULL,
    expires REAL NOT NULL,
    PRIMARY KEY (group_name, channel)
);
CREATE INDEX IF NOT EXISTS membership_queue ON membership (queue);
"""
# How long a writer waits for another process's write to finish (they take microseconds).
BUSY_TIMEOUT_SECONDS = 20
CLEAN_EVERY_SECONDS = 30
TAKE_BATCH = 500


class SQLiteChannelLayer(BaseChannelLayer):
    extensions = ["groups", "flush"]

    def __init__(
        self,
        path: str,
        *,
        expiry: int = 60,
        group_expiry: int = 86400,
        capacity: int = 100,
        channel_capacity: dict[str, int] | None = None,
        poll_interval: float = 0.1,
    ) -> None:
        super().__init__(expiry=expiry, capacity=capacity, channel_capacity=channel_capacity)
        self.path = Path(path)
        self.group_expiry = group_expiry
        self.poll_interval = poll_interval
        # Process-local channels ("specific.<prefix>!<id>") share one queue per process.
        self.client_prefix = uuid.uuid4().hex
        self._pid = os.getpid()
        self._executor_: ThreadPoolExecutor | None = None
        self._local = threading.local()
        self._last_clean = 0.0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._poller: asyncio.Task[None] | None = None
        self._buffers: dict[str, asyncio.Queue[dict[str, Any]]] = {}
        self._receivers = 0  # `receive` calls waiting in this process

    # --- the file, from one thread per process --------------------------------------------------

    def _executor(self) -> ThreadPoolExecutor:
        # A forked child (a prefork worker) gets a fresh thread and connection of its own.
        if self._executor_ is None or self._pid != os.getpid():
            self._pid = os.getpid()
            self._local = threading.local()
            self._executor_ = ThreadPoolExecutor(max_workers=1, thread_name_prefix="channel-layer")
        return self._executor_

    def _connection(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.executescript(SCHEMA)
            self._local.conn = conn
        return conn

    async def _run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor(), lambda: work(self._connection()))

    @staticmethod
    @contextlib.contextmanager
    def _write(conn: sqlite3.Connection) -> Any:
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def _queue_of(self, channel: str) -> str:
        return self.non_local_name(channel) if "!" in channel else channel

    def _clean_if_due(self, conn: sqlite3.Connection, now: float) -> None:
        if now - self._last_clean < CLEAN_EVERY_SECONDS:
            return
        self._last_clean = now
        with self._write(conn):
            # A queue whose messages outlived their expiry has no process taking it any more.
            conn.execute(
                "DELETE FROM membership WHERE expires < ? OR queue IN "
                "(SELECT DISTINCT queue FROM message WHERE expires < ?)",
                (now, now),
            )
            conn.execute("DELETE FROM message WHERE expires < ?", (now,))

    # --- the channel layer specification --------------------------------------------------------

    async def new_channel(self, prefix: str = "specific") -> str:
        return f"{prefix}.{self.client_prefix}!{uuid.uuid4().hex}"

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        body = json.dumps(message)
        capacity = self.get_capacity(channel)

        def work(conn: sqlite3.Connection) -> None:
            now = time.time()
            self._clean_if_due(conn, now)
            with self._write(conn):
                (waiting,) = conn.execute(
                    "SELECT COUNT(*) FROM message WHERE channel = ? AND expires >= ?",
                    (channel, now),
                ).fetchone()
                if waiting >= capacity:
                    raise ChannelFull(channel)
                conn.execute(
                    "INSERT INTO message (queue, channel, body, expires) VALUES (?, ?, ?, ?)",
                    (self._queue_of(channel), channel, body, now + self.expiry),
                )

        await self._run(work)

    async def receive(self, channel: str) -> dict[str, Any]:
        self.require_valid_channel_name(channel)
        if "!" not in channel:
            return await self._receive_shared(channel)
        assert self.non_local_name(channel).endswith(self.client_prefix + "!"), (
            "this channel belongs to another process"
        )
        self._bind_loop()
        buffer = self._buffers.setdefault(channel, asyncio.Queue())
        self._receivers += 1
        self._start_polling()
        try:
            message = await buffer.get()
        except asyncio.CancelledError:
            self._buffers.pop(channel, None)  # the consumer is gone (its socket closed)
            raise
        finally:
            self._receivers -= 1
        if buffer.empty():  # as channels_redis does: the poller makes it again when needed
            self._buffers.pop(channel, None)
        return message

    async def _receive_shared(self, channel: str) -> dict[str, Any]:
        """A channel any process may read: take its oldest message, the first taker wins."""

        def take_one(conn: sqlite3.Connection) -> str | None:
            now = time.time()
            row = conn.execute(
                "SELECT id, body FROM message WHERE queue = ? AND expires >= ? ORDER BY id LIMIT 1",
                (channel, now),
            ).fetchone()
            if row is None:
                return None
            taken = conn.execute("DELETE FROM message WHERE id = ?", (row[0],)).rowcount
            return str(row[1]) if taken else None

        while True:
            body = await self._run(take_one)
            if body is not None:
                message: dict[str, Any] = json.loads(body)
                return message
            await asyncio.sleep(self.poll_interval)

    def _bind_loop(self) -> None:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:  # a new event loop (tests run one per test): start afresh
            self._loop = loop
            self._poller = None
            self._buffers = {}
            self._receivers = 0

    def _start_polling(self) -> None:
        if self._poller is None or self._poller.done():
            queue = f"specific.{self.client_prefix}!"
            self._poller = asyncio.get_running_loop().create_task(self._poll(queue))

    def _take_queue(self, conn: sqlite3.Connection, queue: str) -> list[tuple[str, str]]:
        """This process's waiting messages, oldest first, removed from the file."""
        now = time.time()
        rows = conn.execute(
            "SELECT id, channel, body FROM message WHERE queue = ? ORDER BY id LIMIT ?",
            (queue, TAKE_BATCH),
        ).fetchall()
        if not rows:
            self._clean_if_due(conn, now)
            return []
        # Only this process reads its queue, so nobody else can take these rows meanwhile.
        conn.execute("DELETE FROM message WHERE queue = ? AND id <= ?", (queue, rows[-1][0]))
        return [(str(channel), str(body)) for _, channel, body in rows]

    async def _poll(self, queue: str) -> None:
        # It stops when nobody in this process is receiving; the next `receive` starts it again
        # (messages wait in the file meanwhile).
        while self._receivers:
            try:
                rows = await self._run(lambda conn: self._take_queue(conn, queue))
            except sqlite3.Error:
                rows = []  # a busy file: try again on the next tick
            for channel, body in rows:
                buffer = self._buffers.setdefault(channel, asyncio.Queue())
                if buffer.qsize() >= self.get_capacity(channel):
                    buffer.get_nowait()  # a consumer that stopped reading loses the oldest
                buffer.put_nowait(json.loads(body))
            if not rows:
                await asyncio.sleep(self.poll_interval)

    # --- groups ---------------------------------------------------------------------------------

    async def group_add(self, group: str, channel: str) -> None:
        self.require_valid_group_name(group)
        self.require_valid_channel_name(channel)

        def work(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO membership (group_name, channel, queue, expires) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (group_name, channel) DO UPDATE SET expires = excluded.expires",
                (group, channel, self._queue_of(channel), time.time() + self.group_expiry),
            )

        await self._run(work)

    async def group_discard(self, group: str, channel: str) -> None:
        self.require_valid_group_name(group)
        self.require_valid_channel_name(channel)

        def work(conn: sqlite3.Connection) -> None:
            conn.execute(
                "DELETE FROM membership WHERE group_name = ? AND channel = ?", (group, channel)
            )

        await self._run(work)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_group_name(group)
        body = json.dumps(message)

        def work(conn: sqlite3.Connection) -> None:
            now = time.time()
            self._clean_if_due(conn, now)
            # One row per live member whose channel is not full (a full one skips this message).
            conn.execute(
                "INSERT INTO message (queue, channel, body, expires)"
                " SELECT m.queue, m.channel, ?, ? FROM membership m"
                " WHERE m.group_name = ? AND m.expires >= ?"
                " AND (SELECT COUNT(*) FROM message w WHERE w.channel = m.channel) < ?",
                (body, now + self.expiry, group, now, self.capacity),
            )

        await self._run(work)

    # --- flush and close ------------------------------------------------------------------------

    async def flush(self) -> None:
        def work(conn: sqlite3.Connection) -> None:
            with self._write(conn):
                conn.execute("DELETE FROM message")
                conn.execute("DELETE FROM membership")

        await self._run(work)

    async def close(self) -> None:
        if self._poller is not None:
            self._poller.cancel()
            with contextlib.suppress(asyncio.CancelledError, RuntimeError):
                await self._poller
            self._poller = None
        self._buffers = {}
