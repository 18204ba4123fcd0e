"""What the one-process benches share (tests/load/actionbench.py, tests/load/deliverbench.py):
the stack's options, a database made afresh, and the bench's script run in the checkout measured
(`--root`, for a before/after with the same script)."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

from tests.load.loadtest import (
    DEFAULT_DATABASE,
    DEFAULT_REDIS,
    HERE,
    flush_redis,
    manage,
    recreate_database,
    stack_env,
)


def bench_arguments(parser: argparse.ArgumentParser) -> None:
    """Whether to profile, and the database, the Redis and the checkout a bench runs on."""
    parser.add_argument("--profile", action="store_true", help="print cProfile's top functions")
    parser.add_argument("--profile-lines", type=int, default=35)
    parser.add_argument(
        "--database-url", default=os.environ.get("LOADTEST_DATABASE_URL", DEFAULT_DATABASE)
    )
    parser.add_argument("--redis-url", default=os.environ.get("LOADTEST_REDIS_URL", DEFAULT_REDIS))
    parser.add_argument("--root", default=str(HERE), help="the checkout to measure")


def bench_script_run(
    script: str,
    args: argparse.Namespace,
    *,
    title: str,
    quests: bool = False,
    under: list[str] | None = None,
) -> tuple[int, dict[str, str]]:
    """Drop and create the database (its quests loaded if `quests`), flush Redis, and run
    `script` in the measured checkout with the options as its one argument (JSON), under the
    command `under` if given (valgrind): its exit status, and the environment it ran in."""
    env = stack_env(args) | {"ALLOWED_HOSTS": "testserver", "PYTHONPATH": f"{args.root}:{HERE}"}
    recreate_database(args.database_url)
    flush_redis(args.redis_url)  # an earlier run's rate-limit counters would refuse its rooms
    manage(args, env, "migrate", "--noinput")
    if quests:
        manage(args, env, "load_quests")
    request = vars(args) | {"database_url": None, "redis_url": None}
    print(f"{title} of {args.root}; load average before: {os.getloadavg()[0]:.2f}")
    sys.stdout.flush()
    done = subprocess.run(
        [*(under or []), sys.executable, "-c", script, json.dumps(request)],
        cwd=args.root,
        env=env,
        check=False,
    )
    return done.returncode, env
