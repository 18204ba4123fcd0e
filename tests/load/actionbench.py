"""The action path alone, in one process, on PostgreSQL and Redis: where an action's time goes.

    python -m tests.load.actionbench [--game zagor] [--games 10] [--actions 600] [--profile]
        [--root DIR]

`make loadtest` measures the whole stack under load; this measures what one accepted action
costs the web process that serves it, without the noise of the other processes: bots play
`--games` games of `--game` (HeroQuest by default) round-robin through the public API (Django's
test client: middleware, Bearer token, the action service, the JSON answer) and it prints the
milliseconds and SQL statements per action (all of them, turn changes included), plus what a
watching socket pays to rebuild seat 1's view (HeroQuest's Zargon) of each new version.
`--profile` adds cProfile's top functions. `--root` runs another checkout (an older commit) with
the same bots, for a before/after comparison in one go:

    python -m tests.load.actionbench --root /tmp/old && python -m tests.load.actionbench

`--instructions` counts instead of timing: the bench runs twice under valgrind's callgrind, with
`--actions` and with `--more-actions` more, and the difference gives the instructions one action
costs this process (the client, Django, the service, the engine; not PostgreSQL's or Redis's own).
The same code gives the same count to within about half a percent, however busy the machine (its
timings swing by a third on a shared host), so two commits compare in one go:

    python -m tests.load.actionbench --instructions --games 5 --actions 60 [--root /tmp/old]

The database (`--database-url`, default LOADTEST_DATABASE_URL) is dropped and created; the Celery
tasks the actions queue (turn notices) are purged from `--redis-url` afterwards. Not part of
`make test`.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.load.benchrun import bench_arguments, bench_script_run
from tests.load.bots import GAMES

SCRIPT = r"""
import cProfile, json, pstats, statistics, sys, time, uuid
import django
django.setup()
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from apps.accounts.models import User
from apps.accounts.services import token_issue
from apps.play import services
from apps.play.selectors import game_seat_view_encoded
from apps.play.view_cache import seat_view_forget
from apps.rooms import services as rooms

request = json.loads(sys.argv[1])
GAME = request.get("game", "heroquest")
try:
    from tests.load.bots import load_bot
except ImportError:  # an older checkout: HeroQuest's bots alone
    from tests.play.bot import Bot
    load_bot = lambda game, seed: Bot(seed=seed, randomness=0.1)
kind = {} if GAME == "heroquest" else {"game": GAME}


def view_of(client, game_id):
    answer = client.get(f"/api/games/{game_id}/view")
    assert answer.status_code == 200, (answer.status_code, answer.content[:300])
    return answer.json()


games = []
for n in range(request["games"]):
    users = {}
    for seat in range(1, request["seats"] + 1):
        name = f"bench{n}_{seat}"
        users[seat] = User.objects.create_user(username=name, email=f"{name}@example.com")
    room = rooms.room_create(host=users[1], name=f"bench {n}", seat_count=request["seats"],
                             **kind)
    for seat, user in users.items():
        rooms.room_seat_take(room_id=room.pk, user=user, number=seat)
    game = services.game_launch(room_id=room.pk, user=users[1], seed=500 + n)
    clients = {}
    for seat, user in users.items():
        clients[seat] = Client(HTTP_AUTHORIZATION=f"Bearer {token_issue(user=user)}")
    bots = {seat: load_bot(GAME, seed=n * 10 + seat) for seat in users}
    view = view_of(clients[1], game.pk)
    games.append({"id": game.pk, "clients": clients, "bots": bots, "view": view, "seat": 1})


def next_view(g):
    seat = g["view"]["turn"]["seat"]
    if seat and seat != g["seat"]:
        g["seat"] = seat
        g["view"] = view_of(g["clients"][seat], g["id"])


times, statements, rebuilds, refused = [], [], [], 0
profiler = cProfile.Profile() if request["profile"] else None
done = 0
while done < request["actions"]:
    if all(g["view"].get("outcome") for g in games):
        break  # every game is over: what was played is the bench (it used to loop for ever)
    for g in games:
        next_view(g)
        if g["view"].get("outcome"):
            continue
        action = g["bots"][g["seat"]].choose(g["view"])
        body = {"action": action, "expected_version": g["view"]["version"],
                "idempotency_key": uuid.uuid4().hex}
        client = g["clients"][g["seat"]]
        with CaptureQueriesContext(connection) as queries:
            if profiler:
                profiler.enable()
            started = time.perf_counter()
            answer = client.post(f"/api/games/{g['id']}/actions", body,
                                 content_type="application/json")
            took = time.perf_counter() - started
            if profiler:
                profiler.disable()
        if answer.status_code != 200:
            refused += 1
            g["view"] = view_of(client, g["id"])
            continue
        times.append(took)
        statements.append(len([q for q in queries.captured_queries
                               if q["sql"].split(None, 1)[0].upper() not in ("BEGIN", "COMMIT",
                                                                            "SAVEPOINT",
                                                                            "RELEASE")]))
        g["view"] = answer.json()["view"]
        # What a socket on Zargon's seat pays for this version (in another process: no cache).
        seat_view_forget(g["id"], 1, g["view"]["version"])
        started = time.perf_counter()
        game_seat_view_encoded(game_id=g["id"], seat=1, state_needed=True)
        rebuilds.append(time.perf_counter() - started)
        done += 1
        if done >= request["actions"]:
            break

ms = lambda values, p: round(1000 * sorted(values)[int(p / 100 * (len(values) - 1))], 2)
print(json.dumps({
    "actions": len(times), "refused": refused,
    "ms_per_action_mean": round(1000 * statistics.mean(times), 2),
    "ms_per_action_p50": ms(times, 50), "ms_per_action_p95": ms(times, 95),
    "statements_mean": round(statistics.mean(statements), 2),
    "statements_max": max(statements),
    "statements_seen": dict(sorted(__import__("collections").Counter(statements).items())),
    "zargon_view_rebuild_ms_p50": ms(rebuilds, 50),
}))
if profiler:
    stats = pstats.Stats(profiler, stream=sys.stderr)
    stats.sort_stats("cumulative").print_stats(request["profile_lines"])
    stats.dump_stats("var/actionbench.prof")
    stats.sort_stats("tottime").print_stats(request["profile_lines"])
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--game", choices=GAMES, default="heroquest", help="the game played")
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--actions", type=int, default=600)
    parser.add_argument(
        "--instructions", action="store_true", help="count instructions an action (valgrind)"
    )
    parser.add_argument("--more-actions", type=int, default=200, help="with --instructions")
    bench_arguments(parser)
    args = parser.parse_args(argv)

    if args.instructions:
        returncode, env = instructions_an_action(args)
    else:
        returncode, env = bench_script_run(SCRIPT, args, title="action bench", quests=True)
    celery = str(Path(sys.executable).parent / "celery")
    subprocess.run(
        [celery, "-A", "config", "purge", "-f"], cwd=args.root, env=env, capture_output=True
    )
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return returncode


def instructions_an_action(args: argparse.Namespace) -> tuple[int, dict[str, str]]:
    """The bench under callgrind with `args.actions`, then with `args.more_actions` more: the
    instructions the extra actions cost, each (printed)."""
    if shutil.which("valgrind") is None:
        print("--instructions needs valgrind (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2, {}
    counts = []
    env: dict[str, str] = {}
    for actions in (args.actions, args.actions + args.more_actions):
        with tempfile.TemporaryDirectory() as folder:
            out = Path(folder) / "callgrind.out"
            valgrind = ["valgrind", "-q", "--tool=callgrind", "--cache-sim=no"]
            valgrind.append(f"--callgrind-out-file={out}")
            run_args = argparse.Namespace(**(vars(args) | {"actions": actions}))
            returncode, env = bench_script_run(
                SCRIPT,
                run_args,
                title=f"action bench under callgrind, {actions} actions",
                quests=True,
                under=valgrind,
            )
            if returncode:
                return returncode, env
            counts.append(callgrind_total(out.read_text()))
    each = (counts[1] - counts[0]) / args.more_actions
    print(
        f"instructions an action:    {each:,.0f} (the bench's process; {counts[0]:,} with "
        f"{args.actions} actions, {counts[1]:,} with {args.more_actions} more)"
    )
    return 0, env


def callgrind_total(report: str) -> int:
    """The instructions a callgrind output file counted in all (its `summary:` line)."""
    for line in report.splitlines():
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    raise ValueError("no summary line in callgrind's output")


if __name__ == "__main__":
    sys.exit(main())
