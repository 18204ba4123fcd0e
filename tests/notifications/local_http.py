"""A tiny HTTP server on 127.0.0.1 for the tests: it records every request and answers with the
statuses it is given, in order (the last one for every request after them)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class LocalServer:
    url: str
    statuses: list[int]
    requests: list[Received] = field(default_factory=list)


@contextmanager
def local_server(statuses: tuple[int, ...] = (201,)) -> Iterator[LocalServer]:
    answers = list(statuses)
    server_box: list[LocalServer] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            record = server_box[0]
            record.requests.append(
                Received("POST", self.path, {k.lower(): v for k, v in self.headers.items()}, body)
            )
            status = answers.pop(0) if len(answers) > 1 else answers[0]
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:  # quiet
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    host, port = httpd.server_address[:2]
    server_box.append(LocalServer(url=f"http://{host!s}:{port}", statuses=list(statuses)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield server_box[0]
    finally:
        httpd.shutdown()
        httpd.server_close()
