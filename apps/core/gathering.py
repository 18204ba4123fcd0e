"""Hand-offs to other processes gathered for a moment, so that many small ones cost one.

A turn change writes its notices and, once committed, asks a worker to deliver them. In Legend
of Zagor the turn changes about every other action, and Celery's publish of each delivery task
was 5% of a web process's samples flat out (py-spy), besides a task for the worker each time.
A `Gatherer` keeps what it is handed for `window` seconds on a thread of its own, then sends it
all in one call (in parts of at most `most` items, so that workers still share a burst).

What a process holds when it dies is lost here: gather only work that is also kept elsewhere (a
notification waits in its outbox row until delivered, and the minute's sweep delivers what no
task did). A process sends what it holds when it exits (`atexit`; a Celery worker's children
leave without running it, so config/celery.py calls `gatherers_flush` as each one stops); a
forked child starts empty.
"""

from __future__ import annotations

import atexit
import logging
import os
import threading
import time
import weakref
from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar

logger = logging.getLogger(__name__)

Item = TypeVar("Item")

# Every gatherer of this process, for `gatherers_flush` (weakly: a test's gatherers may go).
_GATHERERS: weakref.WeakSet[Gatherer[Any]] = weakref.WeakSet()


def gatherers_flush() -> None:
    """Send what every gatherer of this process holds, now, on the caller's thread: for a
    process about to exit without running `atexit`."""
    for gatherer in list(_GATHERERS):
        gatherer.flush()


class Gatherer(Generic[Item]):
    def __init__(
        self, send: Callable[[list[Item]], None], *, window: float, most: int, name: str
    ) -> None:
        self.send = send
        self.window = window
        self.most = most
        self.name = name
        self._held: list[Item] = []
        self._ready = threading.Condition()
        self._sender: threading.Thread | None = None
        self._sender_pid = 0
        atexit.register(self.flush)
        os.register_at_fork(after_in_child=self._forget)
        _GATHERERS.add(self)

    def add(self, items: Iterable[Item]) -> None:
        """Hold `items` until the window closes (its thread started on this process's first)."""
        with self._ready:
            self._held.extend(items)
            if self._sender is None or self._sender_pid != os.getpid():
                self._sender_pid = os.getpid()
                self._sender = threading.Thread(target=self._run, name=self.name, daemon=True)
                self._sender.start()
            self._ready.notify()

    def flush(self) -> None:
        """Send what is held now, on the caller's thread."""
        with self._ready:
            held, self._held = self._held, []
        for start in range(0, len(held), self.most):
            part = held[start : start + self.most]
            try:
                self.send(part)
            except Exception:  # the thread lives on; what was lost waits for its sweep
                logger.exception("%s: %d items not sent", self.name, len(part))

    def held(self) -> int:
        with self._ready:
            return len(self._held)

    def _run(self) -> None:
        while True:
            with self._ready:
                while not self._held:
                    self._ready.wait()
            # The window opens with the first item: whatever arrives within it goes along.
            time.sleep(self.window)
            self.flush()

    def _forget(self) -> None:
        """In a forked child: the parent's items are the parent's to send; its thread is gone."""
        self._held = []
        self._ready = threading.Condition()
        self._sender = None
