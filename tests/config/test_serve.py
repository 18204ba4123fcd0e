"""`python -m config.serve`: uvicorn's supervisor with one web process per worker on one port,
a process killed (SIGKILL) started again while the others serve on, and every one stopped by
SIGTERM."""

import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.servers import ROOT, free_port, server_env


def children(pid: int) -> list[int]:
    found = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    web = []
    for child in map(int, found):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"resource_tracker" not in command:  # multiprocessing's helper, not a web process
            web.append(child)
    return web


def healthz(base: str) -> int:
    with urllib.request.urlopen(f"{base}/healthz", timeout=10) as response:
        return int(response.status)


def wait_for(condition: object, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if condition():  # type: ignore[operator]
                return True
        except OSError:
            pass
        time.sleep(0.2)
    return False


def test_a_killed_web_process_is_started_again_and_sigterm_stops_them_all(tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = (tmp_path / "serve.log").open("wb")
    command = [sys.executable, "-m", "config.serve", "--port", str(port), "--workers", "2"]
    supervisor = subprocess.Popen(
        command, cwd=ROOT, env=server_env(), stdout=log, stderr=subprocess.STDOUT
    )
    try:
        assert wait_for(lambda: healthz(base) == 200 and len(children(supervisor.pid)) == 2, 60)
        first = children(supervisor.pid)
        os.kill(first[0], signal.SIGKILL)
        assert wait_for(
            lambda: (
                len(set(children(supervisor.pid)) - set(first)) == 1
                and len(children(supervisor.pid)) == 2
            ),
            60,
        ), (tmp_path / "serve.log").read_text()
        assert first[1] in children(supervisor.pid)  # the other one served on
        assert wait_for(lambda: healthz(base) == 200, 30)
        workers = children(supervisor.pid)
        supervisor.send_signal(signal.SIGTERM)
        assert supervisor.wait(timeout=30) == 0
        assert not any(Path(f"/proc/{pid}").exists() for pid in workers)
    finally:
        if supervisor.poll() is None:
            supervisor.kill()
        log.close()
