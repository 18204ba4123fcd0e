"""A short run of `make loadtest` (tests/load/loadtest.py): the whole harness works end to end,
for each game its bots play.

It starts the production-like stack on this machine's PostgreSQL and Redis, in a database of its
own named after the test database, plays a few games for a few seconds and prints every figure.
No figure is asserted (the machine may be busy); that it ran, with no errors, is.
"""

import subprocess
import sys

import pytest
from django.db import connection

from tests.servers import ROOT, shared_database_url

pytestmark = [pytest.mark.load, pytest.mark.postgres, pytest.mark.redis]


@pytest.mark.parametrize(
    ("game", "name"), [("heroquest", "HeroQuest"), ("zagor", "Legend of Zagor")]
)
def test_a_short_load_test_runs_and_prints_every_figure(
    postgres: None, redis_url: str, game: str, name: str
) -> None:
    database = shared_database_url().rsplit("/", 1)[0] + f"/{connection.settings_dict['NAME']}_load"
    options = ["--game", game, "--games", "3", "--seconds", "4", "--paced-rate", "3"]
    options += ["--long-events", "40"]
    options += ["--idle-sockets", "10", "--get-seconds", "2"]
    options += ["--database-url", database, "--redis-url", redis_url]
    done = subprocess.run(
        [sys.executable, "-m", "tests.load.loadtest", *options, "--timeout", "300"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=360,
    )

    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    for figure in (
        f"setup: 3 games of {name}, 3 seats each",
        "this machine's speed:",
        "this machine's speed after:",
        "cores at once:",
        "cores at once after:",
        "SQL statements per action:",
        "reconnect, first view frame:",
        "events page of 100, first / last:",
        "accepted actions/s:",
        "errors by status:          none",
        "POST p50 / p95:",
        "action-to-screen p50 / p95:",
        "(none failed)",  # every watcher, in its own process, saw its game
        "trivial GET rate, p50:",
        "KiB per idle websocket:",
        "GETs/s:",
        "not 200:                   none",
        "== issue 25's targets",
        "<= 5 SQL statements an action:",
    ):
        assert figure in done.stdout, done.stdout
