"""Each game's newest state, decoded, kept in each process.

Every action reads its game's row and rebuilt the engine's state from the row's JSON, which cost
more than playing the action (HeroQuest: 0.35 ms for a 16 KB state; Legend of Zagor deep-copies
its JSON first). The process that played a game's last action holds that state already: it keeps
it here with the JSON text it stored, and the next read of the game in this process takes it when
the row's text is that text, compared whole (a 16 KB string compare: about a microsecond; the row's
text is never decoded then, apps/core/fields.py), so a state written by another process, an admin
or a migration is never mistaken for it.

Sound because a game's face never changes a state in place (apps/games/port.py,
`state_from_json`): a kept state is handed to any number of readers, in any thread.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

GAMES_KEPT = 128  # a HeroQuest state and its JSON text: about 0.15 MB in memory, 20 MB at most


@dataclass(frozen=True)
class KeptState:
    version: int
    scenario: Any
    text: str  # the JSON text the state was stored as
    state: Any


class StateCache:
    """The newest state of each game this process stored or decoded, least recently used
    dropped first."""

    def __init__(self, size: int = GAMES_KEPT) -> None:
        self.size = size
        self._states: OrderedDict[int, KeptState] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, *, game_id: int, version: int, scenario: Any, text: str) -> Any | None:
        """The kept state of `game_id` if it is the one stored as `text` (at `version`, on
        `scenario`), else None."""
        with self._lock:
            kept = self._states.get(game_id)
            if kept is not None:
                self._states.move_to_end(game_id)
        if kept is None or kept.version != version or kept.scenario is not scenario:
            return None
        return kept.state if kept.text == text else None

    def put(self, *, game_id: int, version: int, scenario: Any, text: str, state: Any) -> None:
        """Keep `state`, stored as `text` at `version` on `scenario`, as the game's newest."""
        with self._lock:
            kept = self._states.get(game_id)
            if kept is None or kept.version <= version:
                self._states[game_id] = KeptState(version, scenario, text, state)
            self._states.move_to_end(game_id)
            while len(self._states) > self.size:
                self._states.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._states.clear()


state_cache = StateCache()
