"""Each seat's view, built and JSON-encoded once per game version, for every process.

After an action every socket of a game is poked; without a cache each socket would load the
game, decode its state and build its seat's view. Two layers:

- `view_cache`, in each process: the first socket of a seat builds the view and the others (and
  the API's GET) reuse the encoded text. Only the newest version of each (game, seat) is kept.
  Thread-safe (request threads fill it, the consumers' event loop reads it).
- `shared_views`, in the cache every process shares (Redis; `SHARED_SEAT_VIEWS`, on with it):
  each (game, seat, version) for a minute. The action's request keeps there the new view of
  each seat with a socket open (its own seat's too, if a page of that seat has one), with the
  poke that announces them in the same round trip (`put_many_then_poke`; with the pub/sub
  layer the poke goes to each seat's own group, carrying that seat's view); a socket in another
  process has it from its poke, or finds it in the shared cache, instead of loading the game
  (a socket that connects later, a page's GET), and when two processes' sockets want a
  view nobody built yet, one of them builds it (`claim`) while the other waits for it. A cache
  that fails or hangs only costs a build.
- which seats have a socket open (`socket_open`, `seats_with_sockets`): each game socket marks
  its seat there, so the action's request also builds the views of the seats whose sockets it
  is about to poke, from the new state it holds: their processes then neither read nor decode
  the game. A process reads a game's marks at most once a second (`SOCKET_SEATS_SECONDS`).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache

from apps.core.realtime import game_group, game_seat_group, group_poke, pubsub_poke

logger = logging.getLogger(__name__)

SEATS_KEPT = 2048  # (game, seat) pairs; a view is ~10-45 KB of JSON text


@dataclass(frozen=True)
class SeatView:
    """A seat's view of one version of a game, encoded as JSON text."""

    game_id: int
    seat: int
    version: int
    json: str
    # The row's outcome when it was built: a game ended outside the engine (an admin's
    # "abandoned") keeps its version, so a view of the same version built before is not served.
    outcome: str = ""
    # The game's access generation read with the row it was built from (or a newer one read
    # since): a socket checked at an older generation checks its seat again before sending it.
    generation: int = 0

    def is_as_new_as(self, *, version: int, outcome: str) -> bool:
        """Is this view at least as new as a game row at `version` with `outcome`?"""
        return self.version > version or (self.version == version and self.outcome == outcome)

    def frame(self) -> str:
        """The websocket frame `{"type": "view", "version", "view"}` as text."""
        return f'{{"type":"view","version":{self.version},"view":{self.json}}}'


def _newness(view: SeatView) -> tuple[int, bool, int]:
    return view.version, bool(view.outcome), view.generation


class SeatViewCache:
    """The newest encoded view of each (game, seat), least recently used dropped first."""

    def __init__(self, size: int = SEATS_KEPT) -> None:
        self.size = size
        self._views: OrderedDict[tuple[int, int], SeatView] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: int, seat: int, *, at_least: int = 0) -> SeatView | None:
        """The cached view if its version is `at_least` or newer."""
        with self._lock:
            view = self._views.get((game_id, seat))
            if view is None or view.version < at_least:
                return None
            self._views.move_to_end((game_id, seat))
            return view

    def put(self, view: SeatView) -> None:
        """Keep `view` unless a newer version of the same seat is already kept."""
        key = (view.game_id, view.seat)
        with self._lock:
            kept = self._views.get(key)
            if kept is None or _newness(kept) < _newness(view):
                self._views[key] = view
            self._views.move_to_end(key)
            while len(self._views) > self.size:
                self._views.popitem(last=False)

    def forget(self, game_id: int, seat: int) -> None:
        with self._lock:
            self._views.pop((game_id, seat), None)

    def clear(self) -> None:
        with self._lock:
            self._views.clear()


view_cache = SeatViewCache()


SHARED_SECONDS = 60  # a version's views are wanted within seconds of it, or never again
CLAIM_SECONDS = 5  # a process that claimed a build and died frees it after this
WAIT_SECONDS = 0.5  # how long a process waits for the view another one claimed
WAIT_STEP = 0.01
# A socket marks its seat when it opens and again at least every third of this (its
# page's heartbeat comes every 30 s): a mark outlives its socket by at most this long, which
# costs the actions played meanwhile a view nobody wanted.
SOCKET_MARK_SECONDS = 150
# How long a process goes by the marks it last read for a game: flat out a game plays several
# actions a second, and reading the marks was one of an action's four round trips to Redis. A
# socket opened meanwhile in another process builds its own views until then, as without marks
# (one in this process is known at once).
SOCKET_SEATS_SECONDS = 1.0
SOCKET_SEATS_KEPT = 4096  # games; emptied whole when full


def _key(game_id: int, seat: int, version: int) -> str:
    return f"seat-view:{game_id}:{seat}:{version}"


def _socket_key(game_id: int, seat: int) -> str:
    return f"seat-socket:{game_id}:{seat}"


class SharedSeatViews:
    """The seats' views of each version, in the cache all processes share."""

    def __init__(self) -> None:
        # game: (read until, the seats asked about, those with a socket open)
        self._socket_seats: dict[int, tuple[float, range, list[int]]] = {}

    def get(self, game_id: int, seat: int, version: int) -> SeatView | None:
        found = self._call(cache.get, _key(game_id, seat, version))
        return found if isinstance(found, SeatView) else None

    async def aget(self, game_id: int, seat: int, version: int) -> SeatView | None:
        """`get` from a socket's event loop, with no thread: the cache's own `aget` reads on the
        loop (config/cache.py); a slow or failing cache gives None after `REDIS_TIMEOUT`."""
        if not settings.SHARED_SEAT_VIEWS:
            return None
        try:
            found = await asyncio.wait_for(
                cache.aget(_key(game_id, seat, version)), timeout=settings.REDIS_TIMEOUT
            )
        except Exception as exc:  # a courtesy, as `_call`: the socket then builds the view
            logger.warning("shared seat views: %s", type(exc).__name__)
            return None
        return found if isinstance(found, SeatView) else None

    def put(self, view: SeatView) -> None:
        key = _key(view.game_id, view.seat, view.version)
        self._call(cache.set, key, view, SHARED_SECONDS)

    def put_many(self, views: list[SeatView]) -> None:
        """`put` each of `views`, in one round trip."""
        if len(views) == 1:
            self.put(views[0])  # one command where set_many makes four
        elif views:
            keyed = {_key(view.game_id, view.seat, view.version): view for view in views}
            self._call(cache.set_many, keyed, SHARED_SECONDS)

    def put_many_then_poke(
        self, views: list[SeatView], *, game_id: int, seats: range, message: dict[str, Any]
    ) -> None:
        """`put_many(views)`, then the poke that announces them (`group_poke`) to the sockets of
        game `game_id` (of `seats`), in one round trip where the shared cache is the pub/sub
        layer's Redis; a poked socket in any process finds its view there. Neither may fail the
        caller (each logged).

        On that layer the poke goes to each seat's own group (`game_seat_group`) instead of the
        game's, with that seat's view in it where one was built (`poke_with_view`): each socket
        hears one message and sends its view without reading Redis first. Lobbies following the
        game hear it on the game's group only when it changes what they show (`turn`)."""
        group = game_group(game_id=game_id)
        poke = pubsub_poke(group=group, message=message) if views else None
        send = getattr(cache, "set_many_then_publish", None)
        location = settings.CACHES["default"].get("LOCATION")
        if poke is None or send is None or poke.server != location:
            self.put_many(views)
            group_poke(group=group, message=message)
            return
        keyed = {_key(view.game_id, view.seat, view.version): view for view in views}
        built = {view.seat: view for view in views}
        messages = [
            (told.channel, told.payload)
            for seat in seats
            if (
                told := pubsub_poke(
                    group=game_seat_group(game_id=game_id, seat=seat),
                    message=poke_with_view(message, built.get(seat)),
                )
            )
        ]
        if message.get("turn"):
            messages.append((poke.channel, poke.payload))
        try:
            send(keyed, SHARED_SECONDS, messages=messages)
        except Exception as exc:  # both courtesies: the sockets catch up on their next fetch
            logger.warning("shared seat views and poke: %s", type(exc).__name__)

    def claim(self, game_id: int, seat: int, version: int) -> bool:
        """This process builds that view (True), or another one already is (False)."""
        claimed = self._call(cache.add, _key(game_id, seat, version) + ":build", 1, CLAIM_SECONDS)
        return claimed is not False

    def wait_for(self, game_id: int, seat: int, version: int) -> SeatView | None:
        """The view another process claimed, once it is there (None after `WAIT_SECONDS`)."""
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            time.sleep(WAIT_STEP)
            if (view := self.get(game_id, seat, version)) is not None:
                return view
        return None

    def _call(self, method: Any, *args: Any) -> Any:
        if not settings.SHARED_SEAT_VIEWS:
            return None  # one process: nothing to share (get: None, claim: this one builds)
        try:
            return method(*args)
        except Exception as exc:  # a courtesy: whatever the cache does, the view gets built
            logger.warning("shared seat views: %s", type(exc).__name__)
            return None

    def forget(self, game_id: int, seat: int, version: int) -> None:
        key = _key(game_id, seat, version)
        self._call(cache.delete_many, [key, key + ":build"])

    def socket_open(self, game_id: int, seat: int) -> None:
        """A socket of `seat` is open, in some process, for `SOCKET_MARK_SECONDS` more."""
        self._socket_seats.pop(game_id, None)
        self._call(cache.set, _socket_key(game_id, seat), 1, SOCKET_MARK_SECONDS)

    def socket_seats_forget(self) -> None:
        """Read every game's marks afresh next time."""
        self._socket_seats.clear()

    def seats_with_sockets(self, game_id: int, seats: range) -> list[int]:
        """Those of `seats` with a socket open (none without a shared cache: the one process's
        sockets build their views themselves), as read at most `SOCKET_SEATS_SECONDS` ago."""
        now = time.monotonic()
        read = self._socket_seats.get(game_id)
        if read is not None and read[0] > now and read[1] == seats:
            return list(read[2])
        keys = {_socket_key(game_id, seat): seat for seat in seats}
        found = self._call(cache.get_many, list(keys))
        if not isinstance(found, dict):  # no shared cache, or it failed: read again next time
            return []
        marked = sorted(keys[key] for key in found)
        if len(self._socket_seats) >= SOCKET_SEATS_KEPT:
            self._socket_seats.clear()
        self._socket_seats[game_id] = (now + SOCKET_SEATS_SECONDS, seats, marked)
        return list(marked)


shared_views = SharedSeatViews()


def poke_with_view(message: dict[str, Any], view: SeatView | None) -> dict[str, Any]:
    """The poke `message` for `view`'s seat alone, carrying the view (`message` if None)."""
    if view is None:
        return message
    return message | {
        "game": view.game_id,
        "seat": view.seat,
        "version": view.version,
        "json": view.json,
        "outcome": view.outcome,
        "generation": view.generation,
    }


def seat_view_of_message(message: dict[str, Any]) -> SeatView | None:
    """The view a poke carries (`poke_with_view`), or None if it carries none."""
    game, seat, version = message.get("game"), message.get("seat"), message.get("version")
    text, outcome, generation = (
        message.get("json"),
        message.get("outcome"),
        message.get("generation"),
    )
    if (
        type(game) is int
        and type(seat) is int
        and type(version) is int
        and type(generation) is int
        and isinstance(text, str)
        and isinstance(outcome, str)
    ):
        return SeatView(game, seat, version, text, outcome=outcome, generation=generation)
    return None


def seat_view_keep(view: SeatView) -> None:
    """Keep a view just built for this process and for the others."""
    view_cache.put(view)
    shared_views.put(view)


def seat_view_forget(game_id: int, seat: int, version: int) -> None:
    """Forget a seat's view of `version` everywhere (a private setting changed it in place)."""
    view_cache.forget(game_id, seat)
    shared_views.forget(game_id, seat, version)
