"""Serve the site in production: one uvicorn process per core, all on one port.

    python -m config.serve --host 0.0.0.0 --port 8000 [--workers N]

A Python process runs one request at a time (the GIL, and Django's single thread for sync code
under ASGI), so a machine with N cores needs N web processes. This opens the listening socket
once and hands it to N `config.server` processes (uvicorn with uvloop and httptools, and the
site's request and socket limits) under uvicorn's own supervisor: the kernel hands each new
connection to one of them, a process that dies (or stops answering the supervisor's health
check) is started again, SIGTERM or SIGINT stops them all gracefully, SIGHUP restarts them one
by one. `WEB_CONCURRENCY` sets N when `--workers` is not given (default: the number of cores).
"""

from __future__ import annotations

import argparse
import os
import sys

import uvicorn
from uvicorn.supervisors import Multiprocess

from config.server import uvicorn_options

APPLICATION = "config.asgi:application"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument(
        "--workers",
        type=int,
        default=int(os.environ.get("WEB_CONCURRENCY", 0)) or os.cpu_count() or 1,
    )
    parser.add_argument("--proxy-headers", action="store_true", help="behind a reverse proxy")
    args = parser.parse_args(argv)

    options = uvicorn_options(workers=args.workers, proxy_headers=args.proxy_headers)
    config = uvicorn.Config(APPLICATION, host=args.host, port=args.port, **options)
    sock = config.bind_socket()
    print(f"serving on {args.host}:{args.port} with {args.workers} web processes", flush=True)
    # Even one worker runs under the supervisor: a dead process is started again.
    Multiprocess(config, sockets=[sock]).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
