"""Django's requests on REQUEST_RUNNING threads, handed over once (config/request_threads.py)."""

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.core.wsgi import get_wsgi_application

from apps.core import realtime
from config.request_threads import DjangoInThreads

Message = dict[str, Any]


def _request(path: str = "/", *, method: str = "GET", body: bytes = b"") -> dict[str, Any]:
    return {
        "type": "http",
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), (b"content-length", str(len(body)).encode())],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }


async def _serve(app: DjangoInThreads, scope: dict[str, Any], *parts: bytes) -> list[Message]:
    """What `app` sends for a request whose body arrives in `parts`."""
    incoming: list[Message] = [
        {"type": "http.request", "body": part, "more_body": i < len(parts) - 1}
        for i, part in enumerate(parts or (b"",))
    ]
    sent: list[Message] = []

    async def receive() -> Message:
        return incoming.pop(0) if incoming else {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        sent.append(message)

    await app(scope, receive, send)
    return sent


def _wsgi(body: Callable[[dict[str, Any]], bytes]) -> Any:
    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [body(environ)]

    return app


def test_requests_past_the_threads_wait_their_turn_and_are_all_answered() -> None:
    running, most = 0, 0
    lock = threading.Lock()

    def slow(environ: dict[str, Any]) -> bytes:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        time.sleep(0.05)
        with lock:
            running -= 1
        return b"ok"

    app = DjangoInThreads(_wsgi(slow), threads=2)

    async def six_at_once() -> list[list[Message]]:
        return await asyncio.gather(*(_serve(app, _request()) for _ in range(6)))

    answers = asyncio.run(six_at_once())
    assert [sent[1]["body"] for sent in answers] == [b"ok"] * 6
    assert most == 2


def test_the_body_reaches_the_view_whole_from_its_parts() -> None:
    app = DjangoInThreads(_wsgi(lambda environ: environ["wsgi.input"].read()), threads=1)
    sent = asyncio.run(_serve(app, _request(method="POST"), b"lantern ", b"crypt"))
    assert sent[1]["body"] == b"lantern crypt"


def test_a_client_gone_before_its_body_is_whole_runs_nothing() -> None:
    calls: list[str] = []

    def ran(environ: dict[str, Any]) -> bytes:
        calls.append("ran")
        return b""

    app = DjangoInThreads(_wsgi(ran), threads=1)

    async def leaves() -> list[Message]:
        async def receive() -> Message:
            return {"type": "http.disconnect"}

        sent: list[Message] = []

        async def send(message: Message) -> None:
            sent.append(message)

        await app(_request(method="POST"), receive, send)
        return sent

    assert asyncio.run(leaves()) == []
    assert calls == []


@pytest.mark.django_db
def test_django_answers_with_its_status_headers_and_body() -> None:
    app = DjangoInThreads(get_wsgi_application(), threads=1)
    start, body = asyncio.run(_serve(app, _request("/api/auth/me")))
    assert start["status"] == 401
    headers = dict(start["headers"])
    assert headers[b"content-type"] == b"application/json; charset=utf-8"
    assert b"content-security-policy" in headers
    assert body["body"].startswith(b"{")
    assert body.get("more_body", False) is False


def test_a_request_thread_sends_its_pokes_through_the_process_sender() -> None:
    seen: list[bool] = []

    def note(environ: dict[str, Any]) -> bytes:
        seen.append(realtime._serving_a_request())
        return b""

    app = DjangoInThreads(_wsgi(note), threads=1)
    asyncio.run(_serve(app, _request()))
    assert seen == [True]
    assert realtime._serving_a_request() is False  # this test's own thread serves nothing
