"""Real ASGI servers for tests that need a browser or several processes.

The test writes rows through Django's test database connection; a web server process started here
sees them because it is pointed at that same database (use a transactional test).
"""

import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def shared_database_url() -> str:
    """The URL of the PostgreSQL test database the running test writes to."""
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def server_env(**overrides: str) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SECRET_KEY": settings.SECRET_KEY,
        "DJANGO_DEV": "1",  # a test's own server may run DEBUG with the dev key
        "LOG_LEVEL": "WARNING",
        "HEALTH_CHECK_TIMEOUT": "10",  # a busy test machine is not an outage
        **overrides,
    }


def _wait_until_serving(
    base: str, process: subprocess.Popen[bytes], log: Path, *, healthy: bool
) -> None:
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the web server at {base} exited:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=5) as response:
                if response.status == 200:
                    return
        except urllib.error.HTTPError as error:
            if error.code == 503 and not healthy:
                return  # serving, and saying what is down: what a fault test wants
            time.sleep(0.2)
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"the web server at {base} did not start:\n{log.read_text()}")


@contextmanager
def web_server(env: dict[str, str], log_dir: Path, *, healthy: bool = True) -> Iterator[str]:
    """A web server process (`config.server`, the production server: uvicorn) serving the
    whole site with `env`; yields its base URL.

    It is ready once `/healthz` answers 200 (or, unless `healthy`, 503 naming what is down).
    """
    with web_server_process(env, log_dir, healthy=healthy) as (base, _process):
        yield base


@contextmanager
def web_server_process(
    env: dict[str, str], log_dir: Path, *, healthy: bool = True
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """`web_server`, yielding the process too (a fault test kills it)."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = log_dir / f"web-{port}.log"
    # The production server: uvicorn with the site's request and socket limits (config/server.py).
    command = [sys.executable, "-m", "config.server", "-b", "127.0.0.1", "-p", str(port)]
    process = subprocess.Popen(
        [*command, "config.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )
    try:
        _wait_until_serving(base, process, log, healthy=healthy)
        yield base, process
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


@contextmanager
def frozen_redis() -> Iterator[str]:
    """A "Redis" that accepts connections and never answers (a hung server, not a dead one).

    Yields its redis:// URL; every connection is held open, unread, until the end.
    """
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    server.settimeout(0.2)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:  # the accept timed out: look at `stop` again
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"redis://127.0.0.1:{server.getsockname()[1]}/0"
    finally:
        stop.set()
        thread.join(timeout=5)
        for conn in held:
            conn.close()
        server.close()


@contextmanager
def redis_server(port: int) -> Iterator[str]:
    """A Redis of this test's own on `port`, keeping nothing on disk, stopped at the end (a test
    may stop and start it again on the same port: a restart). Yields its redis:// URL."""
    command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
    process = subprocess.Popen([*command, "--appendonly", "no"], stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError(f"redis-server did not start on port {port}")
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(timeout=10)
