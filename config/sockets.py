"""A cap on the websockets one user holds open in a web process (`WS_MAX_PER_USER`, 20).

Each open socket costs its process memory (~40 KiB) and a share of every poke's work; a script
opening sockets in a loop could take a process down. Past the cap a new socket is accepted and
closed at once with 4429, so the browser sees why; the user's other sockets are untouched. The
count is per process (each process guards its own memory) and goes down when a socket closes,
however it closes. Anonymous sockets are closed by the consumers anyway (4403).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.conf import settings

CLOSE_TOO_MANY = 4429
DEFAULT_MAX_PER_USER = 20

Scope = dict[str, Any]


class SocketCap:
    """ASGI middleware (inside the auth middleware: it reads the resolved `scope["user"]`)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.open: Counter[int] = Counter()

    @staticmethod
    def limit() -> int:
        return int(getattr(settings, "WS_MAX_PER_USER", DEFAULT_MAX_PER_USER))

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        user = scope.get("user")
        user_id = getattr(user, "pk", None) if getattr(user, "is_authenticated", False) else None
        if scope["type"] != "websocket" or user_id is None:
            await self.inner(scope, receive, send)
            return
        if self.open[user_id] >= self.limit():
            await _refuse(receive, send)
            return
        self.open[user_id] += 1
        try:
            await self.inner(scope, receive, send)
        finally:
            self.open[user_id] -= 1
            if self.open[user_id] <= 0:
                del self.open[user_id]


async def _refuse(receive: Any, send: Any) -> None:
    """Accept, then close with 4429: a refused handshake would lose the code."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": CLOSE_TOO_MANY})
