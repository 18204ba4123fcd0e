"""A trivial authenticated GET as fast as the site answers it, from a process of its own.

    python -m tests.load.getflood --base 127.0.0.1:8000 --token TOKEN [--connections 16]
        [--seconds 10] [--path /api/auth/me]

`make loadtest` runs it after the bots' runs, on the same stack, to measure how many trivial
requests the web processes serve (issue 25: at least 800/s). The bots' own probe cannot: it is
one request at a time per thread of the harness, queued behind the bots' POSTs. Each of
`--connections` keep-alive connections sends the same prepared request again as soon as the
answer is in; the client is a few dozen lines on one event loop, so it takes little of the two
cores it shares with the site. Prints one JSON object: the count, the rate, p50 / p99 and the
answers that were not 200 (by status, or by the exception that ended a connection).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from collections import Counter
from typing import Any

import uvloop


def _request(host: str, path: str, token: str) -> bytes:
    return (
        f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\n"
        "Accept: application/json\r\n\r\n"
    ).encode()


def _content_length(head: bytes) -> int:
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return int(value)
    raise ValueError("an answer without Content-Length")


async def _connection(
    address: tuple[str, int],
    request: bytes,
    until: float,
    latencies: list[float],
    failures: Counter[str],
) -> None:
    """One keep-alive connection asking again and again; a dropped one is opened again."""
    while time.monotonic() < until:
        try:
            reader, writer = await asyncio.open_connection(*address)
        except OSError as exc:
            failures[type(exc).__name__] += 1
            await asyncio.sleep(0.1)
            continue
        try:
            while time.monotonic() < until:
                started = time.monotonic()
                writer.write(request)
                head = await reader.readuntil(b"\r\n\r\n")
                await reader.readexactly(_content_length(head))
                latencies.append(time.monotonic() - started)
                status = head[9:12].decode()
                if status != "200":
                    failures[status] += 1
        except (OSError, ValueError, asyncio.IncompleteReadError) as exc:
            failures[type(exc).__name__] += 1
            await asyncio.sleep(0.05)  # a server restarting: no busy loop of reconnections
        finally:
            writer.close()


async def flood(
    base: str, token: str, *, path: str, connections: int, seconds: float
) -> dict[str, Any]:
    """`connections` connections asking for `path` for `seconds`: what they got."""
    host, _, port = base.rpartition(":")
    request = _request(base, path, token)
    latencies: list[float] = []
    failures: Counter[str] = Counter()
    started = time.monotonic()
    until = started + seconds
    await asyncio.gather(
        *(
            _connection((host, int(port)), request, until, latencies, failures)
            for _ in range(connections)
        )
    )
    elapsed = time.monotonic() - started
    ordered = sorted(latencies)
    return {
        "requests": len(latencies),
        "per_second": len(latencies) / elapsed,
        "p50_ms": 1000 * statistics.median(ordered) if ordered else None,
        "p99_ms": 1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
        if ordered
        else None,
        "failures": dict(failures),
        "connections": connections,
        "seconds": elapsed,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="host:port")
    parser.add_argument("--token", required=True)
    parser.add_argument("--path", default="/api/auth/me")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args(argv)
    # The server's own loop (uvicorn[standard]): a cheaper client on the cores it shares.
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        figures = runner.run(
            flood(
                args.base,
                args.token,
                path=args.path,
                connections=args.connections,
                seconds=args.seconds,
            )
        )
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
