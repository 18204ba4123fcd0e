"""`make run` hands the address it serves to the web process and the worker as SITE_URL."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["PORT=8765"], "http://127.0.0.1:8765"),
        (["HOST=0.0.0.0", "PORT=9001"], "http://127.0.0.1:9001"),
        (["PORT=8765", "SITE_URL=https://vault.example.org"], "https://vault.example.org"),
    ],
)
def test_make_run_sets_the_site_address_from_host_and_port(args: list[str], expected: str) -> None:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    printed = subprocess.run(
        ["make", "--no-print-directory", "-s", *args, "print-site-url"],
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k not in {"SITE_URL", "MAKEFLAGS"}},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert printed == expected
