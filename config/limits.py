"""The request body limit as an ASGI middleware, for a server that streams the body (uvicorn).

A body over `REQUEST_MAX_BYTES` is answered 413 (`{"detail": ...}` JSON, the connection closed)
before the application sees any of it: from a `Content-Length` over the limit at once, without
reading the body, or, for a body without a length (chunked), the moment what arrived passes it.
The body, at most the limit, is read here and handed to the application whole (Django reads it
whole before the view anyway); the server reads no more of the socket than the application asks.
"""

from __future__ import annotations

import json
from typing import Any

Scope = dict[str, Any]
Message = dict[str, Any]


def too_large_detail(limit: int) -> str:
    return f"The request is too large: at most {limit} bytes are accepted."


class BodyLimit:
    def __init__(self, app: Any, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.limit:
            await self._refuse(send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away: let the app see it
                await self.app(scope, _replay([message], receive), send)
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._refuse(send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        whole = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        await self.app(scope, _replay([whole], receive), send)

    async def _refuse(self, send: Any) -> None:
        body = json.dumps({"detail": too_large_detail(self.limit)}).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def _replay(messages: list[Message], receive: Any) -> Any:
    async def replayed() -> Message:
        if messages:
            return messages.pop(0)
        return await receive()

    return replayed
