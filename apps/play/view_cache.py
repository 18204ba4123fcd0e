"""Each seat's view, built and JSON-encoded once per game version in a process.

After an action every socket of a game is poked; without this cache each socket would load the
game, decode its state and build its seat's view. Here the first one builds it and the others (and
the API's GET) reuse the encoded text. Only the newest version of each (game, seat) is kept: an
older view is never served again. The cache is per process and thread-safe (the HTTP thread
fills it, the consumers' event loop reads it).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

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
