"""The web server refuses oversize requests before buffering them (config/server.py).

A declared length over REQUEST_MAX_BYTES is answered 413 from the headers alone; a chunked body
is refused the moment it passes the limit; a websocket message over it closes the socket (1009).
"""

import asyncio
import http.client
import json
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.servers import server_env, shared_database_url, web_server

LIMIT = 64 * 1024
HEADER_TIMEOUT = 2


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """The production server, with a 64 KiB limit and 2 s for a request's headers."""
    log_dir: Path = tmp_path_factory.mktemp("server")
    env = server_env(REQUEST_MAX_BYTES=str(LIMIT), REQUEST_HEADER_TIMEOUT=str(HEADER_TIMEOUT))
    with web_server(env, log_dir) as base:
        host, port = base.removeprefix("http://").split(":")
        yield host, int(port)


def read_response(conn: socket.socket) -> tuple[str, dict[str, Any]]:
    """The status line and JSON body of the server's answer, read until it closes."""
    data = b""
    conn.settimeout(20)
    while chunk := conn.recv(65536):
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return head.split(b"\r\n")[0].decode(), json.loads(body)


def post_headers(extra: str) -> bytes:
    return (
        "POST /api/auth/token HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Content-Type: application/json\r\n{extra}\r\n"
    ).encode()


def test_a_declared_length_over_the_limit_is_refused_from_the_headers(
    server: tuple[str, int],
) -> None:
    with socket.create_connection(server) as conn:
        conn.sendall(post_headers("Content-Length: 1073741824\r\n"))  # 1 GB announced, none sent
        status, body = read_response(conn)

    assert status.startswith("HTTP/1.1 413 ")  # the reason phrase is the server's
    assert body == {"detail": f"The request is too large: at most {LIMIT} bytes are accepted."}


def test_a_chunked_body_is_refused_once_it_passes_the_limit(server: tuple[str, int]) -> None:
    chunk = b"x" * 8192
    sent = 0
    with socket.create_connection(server) as conn:
        conn.sendall(post_headers("Transfer-Encoding: chunked\r\n"))
        try:
            while sent < 100 * LIMIT:  # the server hangs up long before this
                conn.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                sent += len(chunk)
        except OSError:
            pass  # closed on us: what we expect
        status, body = read_response(conn)

    assert status.startswith("HTTP/1.1 413 ")  # the reason phrase is the server's
    assert "too large" in body["detail"]
    assert sent < 100 * LIMIT


def test_a_body_within_the_limit_reaches_the_site(server: tuple[str, int]) -> None:
    host, port = server
    payload = json.dumps({"action": {"type": "x" * (LIMIT // 2)}}).encode()
    request = urllib.request.Request(
        f"http://{host}:{port}/api/games/1/actions",
        data=payload,
        headers={"Content-Type": "application/json"},
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=20)

    assert refused.value.code == 401  # judged by the site (not signed in), not by its size
    assert "detail" in json.loads(refused.value.read())


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_websocket_message_over_the_limit_closes_the_socket(
    postgres: None, tmp_path: Path, django_user_model: Any
) -> None:
    user = django_user_model.objects.create_user(username="sender", password="x-long-secret-1")
    browser = Client()
    browser.force_login(user)  # a session row in the shared database
    cookie = f"{settings.SESSION_COOKIE_NAME}={browser.cookies[settings.SESSION_COOKIE_NAME].value}"
    env = server_env(REQUEST_MAX_BYTES=str(LIMIT), DATABASE_URL=shared_database_url())

    async def scenario(base: str) -> tuple[str, int | str | None]:
        ws_base = base.replace("http://", "ws://")
        async with connect(
            f"{ws_base}/ws/notifications/",
            origin=base,  # type: ignore[arg-type]
            additional_headers={"Cookie": cookie},
            open_timeout=20,
            max_size=None,
        ) as ws:
            await ws.send(json.dumps({"type": "ping"}))
            answer = await asyncio.wait_for(ws.recv(), 20)
            try:
                await ws.send("x" * (LIMIT + 1))
                await asyncio.wait_for(ws.recv(), 20)
            except ConnectionClosed as closed:
                return str(answer), closed.rcvd.code if closed.rcvd else None
        return str(answer), "still open"

    with web_server(env, tmp_path) as base:
        answer, code = asyncio.run(scenario(base))

    # Closed by the server: 1009 "message too big", or no close frame at all when the server
    # hung up while the client was still sending the message.
    assert code in {1009, None}
    assert answer  # the small frame was read and answered: the socket worked until then


def test_django_refuses_the_same_limit() -> None:
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE == settings.REQUEST_MAX_BYTES


def test_headers_sent_a_byte_at_a_time_are_cut_off_with_408(server: tuple[str, int]) -> None:
    """A half-sent request (slowloris) used to hold its connection for Twisted's 12-hour idle
    timeout, each trickled byte resetting it; the headers now have HEADER_TIMEOUT seconds."""
    with socket.create_connection(server, timeout=20) as conn:
        started = time.monotonic()
        conn.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        try:
            for byte in b"abcdefghijklmnopqrstuvwxyz":  # one byte every 0.25 s, never the end
                conn.sendall(bytes([byte]))
                time.sleep(0.25)
        except OSError:  # the server closed the connection: what we wait for
            pass
        status, body = read_response(conn)
        elapsed = time.monotonic() - started

    assert status == "HTTP/1.1 408 Request Timeout"
    assert body == {"detail": "The request's headers took too long to arrive."}
    assert HEADER_TIMEOUT - 0.5 < elapsed < HEADER_TIMEOUT + 3


def test_a_kept_alive_connection_serves_requests_sent_in_time(server: tuple[str, int]) -> None:
    # One connection, each response read whole (a response may come in more than one read).
    conn = http.client.HTTPConnection(*server, timeout=20)
    try:
        for _ in range(3):
            conn.request("GET", "/rules/", headers={"Host": "127.0.0.1"})
            response = conn.getresponse()
            assert response.status == 200
            response.read()
            time.sleep(HEADER_TIMEOUT / 4)
        assert conn.sock is not None  # still the same connection: never closed under us
    finally:
        conn.close()
