"""Django's requests on a few threads of the web process, handed over once each way.

Django's ASGI handler runs a sync stack (every middleware of the site is sync, and so is every
view) by hopping between the event loop and a request thread about eight times a request: into
the middleware, back to the loop for the view's lookup, out again for the view, back, and once
more to close the response. Each hop waits for the loop's turn, and the loop is also the one
that writes every socket's frames: flat out, asyncio's and asgiref's hand-offs were a fifth of a
web process's samples (py-spy, docs/operations.md "Speed").

`DjangoInThreads` runs Django's WSGI handler instead, the whole request on one thread of a pool
of `REQUEST_RUNNING`: the loop reads the body (whole, config/limits.py), hands the request over
once, and gets the whole answer back once. The pool is the cap on requests running at once (the
others wait in its queue, first come first served, holding no GIL), so the loop keeps its share
of the core for the sockets; a slow upload is read on the loop and holds no thread.

The WSGI environ is built by a2wsgi (the library's `build_environ`: headers, script name, client
and server addresses as PEP 3333 wants them). Its `WSGIMiddleware` is not used as it is: it
reads the body and writes each part of the answer from the thread, a hop to the loop each.
"""

from __future__ import annotations

import asyncio
import io
from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

from a2wsgi.wsgi import build_environ

from apps.core.realtime import mark_request_thread

Scope = dict[str, Any]
Headers = list[tuple[bytes, bytes]]


class DjangoInThreads:
    def __init__(self, wsgi_app: Any, *, threads: int) -> None:
        self.wsgi_app = wsgi_app
        self.threads = ThreadPoolExecutor(
            max_workers=threads, thread_name_prefix="request", initializer=mark_request_thread
        )

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        body = await _read_body(receive)
        if body is None:  # the client went away before its request was whole
            return
        environ = cast(dict[str, Any], build_environ(scope, io.BytesIO(body)))  # type: ignore[arg-type]
        loop = asyncio.get_running_loop()
        status, headers, content = await loop.run_in_executor(self.threads, self._answer, environ)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content})

    def _answer(self, environ: dict[str, Any]) -> tuple[int, Headers, bytes]:
        """The whole answer, on a request thread (the site streams no response)."""
        started: list[tuple[int, Headers]] = []

        def start_response(
            status: str, headers: list[tuple[str, str]], exc_info: Any = None
        ) -> Any:
            code = int(status.split(" ", 1)[0])
            started[:] = [
                (code, [(k.lower().encode("latin1"), v.encode("latin1")) for k, v in headers])
            ]
            return _no_write

        response = self.wsgi_app(environ, start_response)
        try:
            content = b"".join(response)
        finally:
            # Django's request_finished: the connection goes back to the pool, on this thread.
            getattr(response, "close", lambda: None)()
        status, headers = started[0]
        return status, headers, content


async def _read_body(receive: Any) -> bytes | None:
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


def _no_write(data: bytes) -> None:
    raise NotImplementedError("the site's responses are returned, never written")
