"""The web server: daphne, refusing oversize requests as they arrive.

Run it as `python -m config.server -b 0.0.0.0 -p 8000 config.asgi:application` (the same
arguments as `daphne`). Stock daphne reads a whole request body (Twisted spools it) and then
queues all of it for the application before Django can refuse it: a 1 GB POST cost 1 GB of
memory. Here the limit is enforced by the server, before the body is buffered:

- a `Content-Length` over `REQUEST_MAX_BYTES` is answered 413 as soon as the headers are read,
  and the connection closed without reading the body;
- a body without a length (chunked) is counted as it arrives and refused the same way the
  moment it passes the limit;
- websocket messages and frames get the same limit (daphne's options, set from settings);
- a request's headers must arrive whole within `REQUEST_HEADER_TIMEOUT` seconds (10) of the
  connection opening, or of the previous response on a kept-alive one: otherwise 408 and the
  connection is closed. Stock Twisted only times out a connection idle for 12 hours, and a
  client trickling a header byte now and then held a connection (and its memory) that long.

The 413 body is `{"detail": ...}` JSON whatever the path, like every API error.
"""

from __future__ import annotations

import json
import sys
from io import BytesIO
from typing import Any

from daphne.cli import CommandLineInterface
from daphne.http_protocol import HTTPFactory, WebRequest
from daphne.server import Server
from django.conf import settings

DEFAULT_REQUEST_MAX_BYTES = 256 * 1024
DEFAULT_REQUEST_HEADER_TIMEOUT = 10.0


def request_max_bytes() -> int:
    """The limit from Django's settings (REQUEST_MAX_BYTES), read once the app is loaded."""
    return int(getattr(settings, "REQUEST_MAX_BYTES", DEFAULT_REQUEST_MAX_BYTES))


def request_header_timeout() -> float:
    """Seconds a request's headers may take to arrive (REQUEST_HEADER_TIMEOUT)."""
    return float(getattr(settings, "REQUEST_HEADER_TIMEOUT", DEFAULT_REQUEST_HEADER_TIMEOUT))


def _json_response(status: str, detail: str) -> bytes:
    body = json.dumps({"detail": detail}).encode()
    head = (
        f"HTTP/1.1 {status}\r\n"
        "Content-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    )
    return head.encode() + body


def too_large_response(limit: int) -> bytes:
    return _json_response(
        "413 Content Too Large", f"The request is too large: at most {limit} bytes are accepted."
    )


def header_timeout_response() -> bytes:
    return _json_response("408 Request Timeout", "The request's headers took too long to arrive.")


class HeaderDeadline:
    """Closes `channel` (408) unless a request's headers arrive whole within `seconds`.

    The clock runs from the connection's start, stops when a request's headers are in, and runs
    again when a kept-alive connection's response is done. A websocket, once upgraded, is no
    longer an HTTP request's: its headers are in, and the clock never runs again.
    """

    def __init__(self, channel: Any, seconds: float) -> None:
        from twisted.internet import reactor  # noqa: PLC0415  (daphne installs its reactor)

        self.channel, self.seconds = channel, seconds
        self.reactor: Any = reactor
        self.call: Any = None
        made, headers = channel.connectionMade, channel.allHeadersReceived
        done, lost = channel.requestDone, channel.connectionLost

        def connection_made() -> None:
            made()
            self.start()

        def all_headers_received() -> None:
            self.stop()
            headers()

        def request_done(request: Any) -> None:
            done(request)
            if channel.persistent and getattr(request, "transport", None) is not None:
                self.start()  # waiting for the next request's headers

        def connection_lost(reason: Any) -> None:
            self.stop()
            lost(reason)

        channel.connectionMade = connection_made
        channel.allHeadersReceived = all_headers_received
        channel.requestDone = request_done
        channel.connectionLost = connection_lost

    def start(self) -> None:
        self.stop()
        self.call = self.reactor.callLater(self.seconds, self.expire)

    def stop(self) -> None:
        if self.call is not None and self.call.active():
            self.call.cancel()
        self.call = None

    def expire(self) -> None:
        self.call = None
        transport = self.channel.transport
        if transport is None:
            return
        transport.write(header_timeout_response())
        transport.loseConnection()


class LimitedRequest(WebRequest):
    """A daphne request that refuses a body over the limit before buffering it."""

    max_bytes = DEFAULT_REQUEST_MAX_BYTES

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.refused = False
        self.received = 0
        super().__init__(*args, **kwargs)

    def gotLength(self, length: int | None) -> None:
        if length is not None and length > self.max_bytes:
            self.content = BytesIO()
            self.refuse()
            return
        super().gotLength(length)

    def handleContentChunk(self, data: bytes) -> None:
        if self.refused:
            return
        self.received += len(data)
        if self.received > self.max_bytes:
            self.refuse()
            return
        super().handleContentChunk(data)

    def requestReceived(self, command: bytes, path: bytes, version: bytes) -> None:
        if self.refused:  # the body ended in the same read that passed the limit
            return
        super().requestReceived(command, path, version)

    def refuse(self) -> None:
        self.refused = True
        transport = self.channel.transport
        transport.write(too_large_response(self.max_bytes))
        transport.loseConnection()


class LimitedHTTPFactory(HTTPFactory):
    header_timeout = DEFAULT_REQUEST_HEADER_TIMEOUT

    def buildProtocol(self, addr: Any) -> Any:
        protocol = super().buildProtocol(addr)
        protocol.requestFactory = LimitedRequest
        if self.header_timeout > 0:  # the HTTP/1.1 channel behind Twisted's protocol proxy
            HeaderDeadline(getattr(protocol, "_channel", protocol), self.header_timeout)
        return protocol


class LimitedServer(Server):
    """daphne's server with `LimitedHTTPFactory` (daphne builds its factory in `run`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        limit = request_max_bytes()
        LimitedRequest.max_bytes = limit
        LimitedHTTPFactory.header_timeout = request_header_timeout()
        kwargs["websocket_max_message_size"] = limit
        kwargs["websocket_max_frame_size"] = limit
        super().__init__(*args, **kwargs)

    @property
    def http_factory(self) -> HTTPFactory:
        return self._http_factory

    @http_factory.setter
    def http_factory(self, factory: HTTPFactory) -> None:
        self._http_factory = LimitedHTTPFactory(self)


class LimitedCommandLineInterface(CommandLineInterface):
    server_class = LimitedServer


def main(argv: list[str] | None = None) -> None:
    LimitedCommandLineInterface().run(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    main()
