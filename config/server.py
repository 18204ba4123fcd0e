"""The web server: uvicorn (uvloop, httptools), with the site's limits on requests and sockets.

Run one process as `python -m config.server -b 127.0.0.1 -p 8000 config.asgi:application` (or
`--fd N` for a socket opened by a parent); production runs one per core under uvicorn's own
supervisor (`python -m config.serve`). Chosen over daphne by measurement (docs/operations.md,
"Speed"): same site, same machine, it serves more requests and actions a second.

The limits, each checked by tests/config/test_server_limits.py:

- a request body over `REQUEST_MAX_BYTES` is refused 413 by `config.limits.BodyLimit`, an ASGI
  middleware: from the `Content-Length` header before any of the body is read, or the moment a
  chunked body passes the limit. uvicorn streams the body to the application and stops reading
  the socket while a chunk waits (flow control), so nothing more than the limit is buffered;
- websocket messages over the same limit close the socket (1009): uvicorn's `ws_max_size`;
- a request's headers must arrive whole within `REQUEST_HEADER_TIMEOUT` seconds (10) of the
  connection opening, or of the previous response on a kept-alive one: otherwise 408 and the
  connection is closed (`HeaderDeadlineProtocol`). uvicorn's own keep-alive timeout is reset by
  every byte received, so a client trickling a header byte now and then held its connection for
  ever. A kept-alive connection on which nothing at all was sent is closed without a 408 (no
  request to answer; the client would read it as the answer to its next request).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

DEFAULT_REQUEST_MAX_BYTES = 256 * 1024
DEFAULT_REQUEST_HEADER_TIMEOUT = 10.0
KEEP_ALIVE_SECONDS = 5  # an idle kept-alive connection is closed after this long (uvicorn's own)


def request_max_bytes() -> int:
    """The limit from Django's settings (REQUEST_MAX_BYTES)."""
    from django.conf import settings  # noqa: PLC0415  (read once the settings module is known)

    return int(getattr(settings, "REQUEST_MAX_BYTES", DEFAULT_REQUEST_MAX_BYTES))


def request_header_timeout() -> float:
    """Seconds a request's headers may take to arrive (REQUEST_HEADER_TIMEOUT)."""
    from django.conf import settings  # noqa: PLC0415

    return float(getattr(settings, "REQUEST_HEADER_TIMEOUT", DEFAULT_REQUEST_HEADER_TIMEOUT))


def json_response(status: str, detail: str) -> bytes:
    """A whole HTTP/1.1 response that closes the connection, `{"detail": ...}` as its body."""
    body = json.dumps({"detail": detail}).encode()
    head = (
        f"HTTP/1.1 {status}\r\n"
        "Content-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    )
    return head.encode() + body


def header_timeout_response() -> bytes:
    return json_response("408 Request Timeout", "The request's headers took too long to arrive.")


class HeaderDeadlineProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, closing (408) a connection whose request headers are late.

    The clock runs from the connection's start, stops when a request's headers are in, and runs
    again when a kept-alive connection's response is done. A websocket's headers are in before
    it is upgraded: the clock never runs again for it.
    """

    header_timeout: float | None = None  # from the settings, in each process on first use

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._deadline: asyncio.TimerHandle | None = None
        self._begun = False  # some bytes of the awaited request arrived
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        self._begun = True
        super().data_received(data)

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.transport.is_closing():
            return
        if self.cycle is not None and not self.cycle.response_complete:
            return  # a pipelined request started: its headers are in
        self._begun = False
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        seconds = HeaderDeadlineProtocol.header_timeout
        if seconds is None:
            seconds = HeaderDeadlineProtocol.header_timeout = request_header_timeout()
        if seconds > 0:
            self._deadline = self.loop.call_later(seconds, self._expire)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expire(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        if self._begun:
            self.transport.write(header_timeout_response())
        self.transport.close()


def uvicorn_options(workers: int = 1, *, proxy_headers: bool = False) -> dict[str, Any]:
    """The options every web process runs with (the limits from Django's settings).

    `proxy_headers`: take the client's address from `X-Forwarded-For` when the connection comes
    from `FORWARDED_ALLOW_IPS` (default 127.0.0.1): behind a reverse proxy only. Off, unlike
    uvicorn's default, as daphne's was: a client's own header never names its address.
    """
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    return {
        "proxy_headers": proxy_headers,
        "forwarded_allow_ips": os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1"),
        "loop": "uvloop",
        "http": HeaderDeadlineProtocol,
        "ws": "websockets-sansio",
        "ws_max_size": request_max_bytes(),
        "ws_per_message_deflate": False,  # daphne offered none either: CPU per frame
        "timeout_keep_alive": KEEP_ALIVE_SECONDS,
        "lifespan": "off",  # Django's ASGI handler has no lifespan events
        "access_log": False,
        "server_header": False,
        "date_header": True,
        "workers": workers,
        "log_level": os.environ.get("LOG_LEVEL", "warning").lower(),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-b", "--bind", default="127.0.0.1")
    parser.add_argument("-p", "--port", type=int, default=8000)
    parser.add_argument("--fd", type=int, default=None, help="serve a socket opened by a parent")
    parser.add_argument("--proxy-headers", action="store_true", help="behind a reverse proxy")
    parser.add_argument("application", nargs="?", default="config.asgi:application")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    import uvicorn  # noqa: PLC0415

    options = uvicorn_options(proxy_headers=args.proxy_headers)
    if args.fd is not None:
        uvicorn.run(args.application, fd=args.fd, **options)
    else:
        uvicorn.run(args.application, host=args.bind, port=args.port, **options)


if __name__ == "__main__":
    main()
