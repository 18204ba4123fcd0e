"""Real ASGI servers for tests that need a browser or several processes.

The test writes rows through Django's test database connection; a daphne process started here
sees them because it is pointed at that same database (use a transactional test).
"""

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[1]
DAPHNE = Path(sys.executable).parent / "daphne"


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
        "LOG_LEVEL": "WARNING",
        **overrides,
    }


def _wait_until_serving(base: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"daphne at {base} exited:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"daphne at {base} did not start:\n{log.read_text()}")


@contextmanager
def daphne(env: dict[str, str], log_dir: Path) -> Iterator[str]:
    """A daphne process serving the whole site with `env`; yields its base URL."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = log_dir / f"daphne-{port}.log"
    process = subprocess.Popen(
        [str(DAPHNE), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )
    try:
        _wait_until_serving(base, process, log)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
