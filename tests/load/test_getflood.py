"""The trivial GET's own run (tests/load/getflood.py), against small servers of the test's own."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from tests.load.getflood import flood

Answer = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


def answering(status: str, body: bytes = b"{}") -> Answer:
    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                assert head.startswith(b"GET /api/auth/me HTTP/1.1\r\n"), head
                assert b"\r\nAuthorization: Bearer secret\r\n" in head, head
                writer.write(
                    f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\n"
                    f"content-length: {len(body)}\r\n\r\n".encode()
                    + body
                )
                await writer.drain()
        except asyncio.IncompleteReadError:
            writer.close()

    return serve


def flood_against(answer: Answer, *, connections: int = 3) -> dict[str, object]:
    async def run() -> dict[str, object]:
        server = await asyncio.start_server(answer, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        async with server:
            return await flood(
                f"127.0.0.1:{port}",
                "secret",
                path="/api/auth/me",
                connections=connections,
                seconds=0.3,
            )

    return asyncio.run(run())


def test_every_answer_is_counted_with_its_time_over_keep_alive_connections() -> None:
    figures = flood_against(answering("200 OK", b'{"username": "load1"}'))

    assert figures["failures"] == {}
    assert isinstance(figures["requests"], int) and figures["requests"] > 10
    assert isinstance(figures["per_second"], float) and figures["per_second"] > 0
    assert figures["connections"] == 3
    assert figures["p50_ms"] is not None and figures["p99_ms"] is not None


def test_an_answer_that_is_not_200_is_counted_by_its_status() -> None:
    figures = flood_against(answering("401 Unauthorized"), connections=1)

    failures = figures["failures"]
    assert isinstance(failures, dict) and set(failures) == {"401"}
    assert failures["401"] == figures["requests"]


def test_a_connection_the_server_drops_is_counted_and_opened_again() -> None:
    opened = 0

    async def drop(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal opened
        opened += 1
        await reader.readuntil(b"\r\n\r\n")
        writer.close()

    figures = flood_against(drop, connections=1)

    failures = figures["failures"]
    assert isinstance(failures, dict) and failures.get("IncompleteReadError", 0) >= 2
    assert figures["requests"] == 0
    assert opened >= 2
