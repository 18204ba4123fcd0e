"""The worker's turn notice alone, in one process, on PostgreSQL and Redis: what delivering one
notification costs.

    python -m tests.load.deliverbench [--notices 2000] [--rounds 3] [--profile] [--root DIR]

A Legend of Zagor action changes the turn about every other time, and each change has the worker
deliver a notice (the claim, the router's facts, the live toast, the email, the row saved):
2.3-2.9 ms of the worker's CPU an action under `make loadtest`. This writes `--notices` turn
notices through `notifications_send` (to 50 users who take turn emails, none with a browser
taking push: none is sent) and times `notification_deliver` on each, in `--rounds` rounds of
fresh notices; it prints the CPU and wall milliseconds a delivery and the SQL statements of one
(in the first round, with those that prepare its statements once).
Email is written and "sent" to the dummy backend, as in `make loadtest`. `--root` runs another
checkout with the same script, for a before/after comparison. The database (`--database-url`) is
dropped and created. Not part of `make test`.
"""

from __future__ import annotations

import argparse
import os
import sys

from tests.load.benchrun import bench_arguments, bench_script_run

SCRIPT = r"""
import cProfile, json, pstats, statistics, sys, time
import django
django.setup()
from django.db import connection
from django.test.utils import CaptureQueriesContext
from apps.accounts.models import User
from apps.notifications.models import Notification
from apps.notifications.services import Kind, Notice, notification_deliver, notifications_send

request = json.loads(sys.argv[1])
users = [
    User.objects.create_user(username=f"bench{n}", email=f"bench{n}@example.com")
    for n in range(50)
]


def fresh(count):
    notices = [
        Notice(user=users[n % len(users)], kind=Kind.YOUR_TURN, title="Your turn in bench",
               body="Anvar the Barbarian is up.", url="/games/1/", topic="game-1")
        for n in range(count)
    ]
    return [n.pk for n in notifications_send(notices=notices)]


profile = cProfile.Profile() if request["profile"] else None
for round_ in range(1, request["rounds"] + 1):
    ids = fresh(request["notices"])
    with CaptureQueriesContext(connection) as queries:
        notification_deliver(notification_id=ids[0])
    cpu, wall = time.process_time(), time.perf_counter()
    if profile:
        profile.enable()
    delivered = sum(notification_deliver(notification_id=pk) for pk in ids[1:])
    if profile:
        profile.disable()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    done = len(ids) - 1
    print(f"round {round_}: {done} delivered ({delivered} done), "
          f"{1000 * cpu / done:.3f} ms CPU / {1000 * wall / done:.3f} ms wall a delivery, "
          f"{len(queries)} SQL statements")
    sys.stdout.flush()
sent = Notification.objects.filter(email_status="sent").count()
print(f"emails sent: {sent}")
if profile:
    pstats.Stats(profile).sort_stats("cumulative").print_stats(request["profile_lines"])
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--notices", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    bench_arguments(parser)
    args = parser.parse_args(argv)

    returncode, _ = bench_script_run(SCRIPT, args, title="deliver bench")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return returncode


if __name__ == "__main__":
    sys.exit(main())
