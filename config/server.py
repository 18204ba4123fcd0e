"""The web server: daphne, refusing oversize requests as they arrive.

Run it as `python -m config.server -b 0.0.0.0 -p 8000 config.asgi:application` (the same
arguments as `daphne`). Stock daphne reads a whole request body (Twisted spools it) and then
queues all of it for the application before Django can refuse it: a 1 GB POST cost 1 GB of
memory. Here the limit is enforced by the server, before the body is buffered:

- a `Content-Length` over `REQUEST_MAX_BYTES` is answered 413 as soon as the headers are read,
  and the connection closed without reading the body;
- a body without a length (chunked) is counted as it arrives and refused the same way the
  moment it passes the limit;
- websocket messages and frames get the same limit (daphne's options, set from settings).

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


def request_max_bytes() -> int:
    """The limit from Django's settings (REQUEST_MAX_BYTES), read once the app is loaded."""
    return int(getattr(settings, "REQUEST_MAX_BYTES", DEFAULT_REQUEST_MAX_BYTES))


def too_large_response(limit: int) -> bytes:
    body = json.dumps(
        {"detail": f"The request is too large: at most {limit} bytes are accepted."}
    ).encode()
    head = (
        "HTTP/1.1 413 Content Too Large\r\n"
        "Content-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    )
    return head.encode() + body


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
    def buildProtocol(self, addr: Any) -> Any:
        protocol = super().buildProtocol(addr)
        protocol.requestFactory = LimitedRequest
        return protocol


class LimitedServer(Server):
    """daphne's server with `LimitedHTTPFactory` (daphne builds its factory in `run`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        limit = request_max_bytes()
        LimitedRequest.max_bytes = limit
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
