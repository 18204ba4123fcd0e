"""Serve the site in production: one daphne process per core, all on one port.

    python -m config.serve --host 0.0.0.0 --port 8000 [--workers N]

A Python process runs one request at a time (the GIL, and Django's single thread for sync code
under ASGI), so a machine with N cores needs N web processes. This opens the listening socket
once and starts N `config.server` processes (daphne with the request size limits) that share it
(`--fd`), as the Channels docs suggest under a process manager: the kernel hands each new
connection to one of them. A process that
exits is started again; SIGTERM or SIGINT stops them all. `WEB_CONCURRENCY` sets N when
`--workers` is not given (default: the number of cores).
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
from types import FrameType

RESTART_PAUSE = 1.0  # seconds before starting a crashed process again


def listening_socket(host: str, port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(1024)
    sock.set_inheritable(True)
    return sock


def start(fd: int, extra: list[str]) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "config.server", "--fd", str(fd), *extra]
    command.append("config.asgi:application")
    return subprocess.Popen(command, pass_fds=(fd,))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument(
        "--workers",
        type=int,
        default=int(os.environ.get("WEB_CONCURRENCY", 0)) or os.cpu_count() or 1,
    )
    parser.add_argument("daphne_args", nargs="*", help="passed to daphne (after --)")
    args = parser.parse_args(argv)

    sock = listening_socket(args.host, args.port)
    processes = [start(sock.fileno(), args.daphne_args) for _ in range(args.workers)]
    stopping = False

    def stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print(f"serving on {args.host}:{args.port} with {args.workers} web processes", flush=True)
    while not stopping:
        time.sleep(0.2)
        for n, process in enumerate(processes):
            if process.poll() is not None and not stopping:
                time.sleep(RESTART_PAUSE)
                processes[n] = start(sock.fileno(), args.daphne_args)
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
