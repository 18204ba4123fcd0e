"""Request threads kept between requests, instead of two new threads for every request.

Django's ASGI handler runs each request's sync code (middleware, views, the ORM) in a
`ThreadSensitiveContext` of its own, and asgiref gives a context without an executor a new
single-thread executor: a new thread started for every request, and another one started to join
it when the request ends. Under load that was ~7% of a web process's time (py-spy,
docs/operations.md "Speed"). `RequestThreads` wraps the HTTP application in a context that
brings an executor of its own (asgiref's `ThreadSensitiveContext(executor=...)`), taken from a
few kept idle: Django's own context inside it is then no more than a look-up. Each request still
has a thread to itself for as long as it runs, as before; only the thread outlives it.

A request cancelled while its sync code still runs gives its executor back at once: the next
request to take it waits for that code to end, on the same thread, as a thread-sensitive call
would anyway.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext
from django.conf import settings
from django.http import HttpRequest, HttpResponse

IDLE_KEPT = 16  # idle request threads kept per process; more are started, and ended, as needed


class RequestThreads:
    def __init__(self, app: Any, *, keep: int = IDLE_KEPT) -> None:
        self.app, self.keep = app, keep
        self._idle: list[ThreadPoolExecutor] = []  # used on the event loop's thread only

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        executor = self._take()
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.app(scope, receive, send)
        finally:
            self._give_back(executor)

    def _take(self) -> ThreadPoolExecutor:
        if self._idle:
            return self._idle.pop()
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="request")

    def _give_back(self, executor: ThreadPoolExecutor) -> None:
        if len(self._idle) < self.keep:
            self._idle.append(executor)
        else:
            executor.shutdown(wait=False)


class RunningRequestsCap:
    """At most `REQUEST_RUNNING` requests of a process run their middleware and view at once;
    the others wait their turn on a lock, holding no GIL (the first middleware).

    One process runs Python on one core however many threads it has. With every request of a
    busy process running at once, 25 threads took turns at the GIL with the event loop that
    sends the sockets' frames, which then waited seconds between two steps: flat out, screens
    were seconds behind the actions' answers. Requests get the same CPU either way; the loop
    gets its share of it. The body is read before (on the loop), so a slow upload holds no turn.
    """

    sync_capable, async_capable = True, False

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.turns = threading.BoundedSemaphore(settings.REQUEST_RUNNING)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with self.turns:
            return self.get_response(request)
