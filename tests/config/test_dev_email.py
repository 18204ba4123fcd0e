"""Development emails (issue 21): the console email backend prints every email, and the Celery
worker `make run` starts sends most of them (turn notices, reminders, digests). `make run` keeps
the worker's standard output in its own terminal and only the worker's log in var/celery.log, so
the emails print in the `make run` terminal, where the README says they are."""

import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.embedded import Embedded, embedded_env

ROOT = Path(__file__).resolve().parents[2]


def worker_command(folder: Path) -> str:
    """The worker's command line as `make run` runs it, its log and beat schedule in `folder`."""
    printed = subprocess.run(
        [
            "make",
            "--no-print-directory",
            "-s",
            f"BIN={Path(sys.executable).parent}",
            f"CELERY_LOG={folder / 'celery.log'}",
            f"CELERY_SCHEDULE={folder / 'celerybeat-schedule'}",
            "print-worker-command",
        ],
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k != "MAKEFLAGS"},
        capture_output=True,
        text=True,
        check=True,
    )
    return printed.stdout.strip()


def wait_for(
    path: Path, text: str, process: subprocess.Popen[bytes], seconds: float, *, line_with: str = ""
) -> str:
    """What `path` holds once a line of it has `text` (and `line_with`, when given)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = path.read_text(errors="replace") if path.exists() else ""
        if any(text in line and line_with in line for line in found.splitlines()):
            return found
        if process.poll() is not None:
            break
        time.sleep(0.2)
    raise AssertionError(f"{text!r} never reached {path.name}")


def test_make_runs_worker_prints_emails_in_its_terminal_and_logs_to_var(tmp_path: Path) -> None:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    command = worker_command(tmp_path)
    assert command.startswith("CELERY_WORKER_REDIRECT_STDOUTS=false ")
    assert f"--logfile={tmp_path / 'celery.log'}" in shlex.split(command)
    env = {**embedded_env(tmp_path), "EMAIL_URL": "consolemail://"}
    for args in (["migrate", "--noinput"], ["load_quests"]):
        subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=True
        )
    terminal = tmp_path / "terminal.txt"  # what `make run`'s terminal would show
    with terminal.open("wb") as out:
        worker = subprocess.Popen(
            command,
            shell=True,
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        wait_for(tmp_path / "celery.log", "ready.", worker, 60)
        table = Embedded(env=env, folder=tmp_path).script("table", seats=2)

        shown = wait_for(terminal, "Subject: Your turn in Embedded table", worker, 60)

        assert table["game"] and "To: p2-" in shown  # the seat to move, emailed by the worker
        # The email prints while the task runs; the worker logs "succeeded" only after it returns.
        log = wait_for(
            tmp_path / "celery.log", "] succeeded", worker, 60, line_with="notifications.deliver["
        )
        assert "Subject: Your turn" not in log  # the log keeps the log lines only
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)
