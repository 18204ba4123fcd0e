"""The embedded default (`make run`) as separate processes, for tests: a SQLite file migrated by
`manage.py`, the production web server (`config.server`), a real Celery worker on the filesystem
broker, and the SQLite channel layer between them. Nothing here uses Redis or PostgreSQL,
whatever the test run uses.

Rows are written by `script()`: a fresh Python process on the embedded settings that calls one
of the functions at the bottom of this module through the real services and prints its answer
as JSON (the test process's own database is another one).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from tests.servers import ROOT, server_env, web_server

CELERY = Path(sys.executable).parent / "celery"


@dataclass
class Embedded:
    env: dict[str, str]
    folder: Path
    base: str = ""

    @property
    def port(self) -> int:
        return int(self.base.rsplit(":", 1)[1])

    def script(self, function: str, **kwargs: Any) -> Any:
        """Run `function(**kwargs)` of this module in a new process on the embedded settings."""
        code = (
            "import django, json, sys; django.setup(); import tests.embedded as e; "
            f"print(json.dumps(e.{function}(**json.loads(sys.argv[1]))))"
        )
        done = subprocess.run(
            [sys.executable, "-c", code, json.dumps(kwargs)],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout.strip().splitlines()[-1])

    def logs(self) -> str:
        return "\n".join(p.read_text(errors="replace") for p in sorted(self.folder.glob("*.log")))


def embedded_env(folder: Path) -> dict[str, str]:
    return server_env(
        DEBUG="true",
        ALLOWED_HOSTS="127.0.0.1,localhost,testserver",
        DATABASE_URL=f"sqlite:///{folder / 'site.sqlite3'}",
        REDIS_URL="",
        CELERY_BROKER_URL="filesystem://",
        CELERY_FILESYSTEM_DIR=str(folder / "celery"),
        CELERY_TASK_ALWAYS_EAGER="false",
        CHANNEL_LAYER_FILE=str(folder / "channels.sqlite3"),
        LOG_LEVEL="INFO",
    )


@contextmanager
def worker(env: dict[str, str], folder: Path) -> Iterator[None]:
    """A real Celery worker process (as `make run` starts it, without beat)."""
    log = folder / "celery.log"
    process = subprocess.Popen(
        [str(CELERY), "-A", "config", "worker", "--pool=solo", "--loglevel=INFO"],
        cwd=ROOT,
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while "ready." not in log.read_text(errors="replace"):
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the worker did not start:\n{log.read_text()}")
            time.sleep(0.2)
        yield
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()


@contextmanager
def embedded_site(folder: Path) -> Iterator[Embedded]:
    """Migrate a fresh SQLite file, then run the web server and a worker on it."""
    site = Embedded(env=embedded_env(folder), folder=folder)
    for command in (["migrate", "--noinput"], ["load_quests"]):
        subprocess.run(
            [sys.executable, "manage.py", *command],
            cwd=ROOT,
            env=site.env,
            check=True,
            capture_output=True,
        )
    with web_server(site.env, folder) as base, worker(site.env, folder):
        site.base = base
        yield site


# --- run inside the embedded processes (through Embedded.script) -------------------------------


def table(*, seats: int, launch: bool = True, turn_minutes: int | None = None) -> dict[str, Any]:
    """A room with every seat taken, launched unless not `launch`; each player's session
    cookie and API token."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from apps.accounts.services import token_issue
    from apps.play.services import game_launch
    from apps.rooms import services as rooms

    users = []
    for number in range(1, seats + 1):
        name = f"p{number}-{os.urandom(3).hex()}"
        users.append(
            get_user_model().objects.create_user(
                username=name, email=f"{name}@example.com", password="lantern-crypt-7781"
            )
        )
    limit = timedelta(minutes=turn_minutes) if turn_minutes else None
    room = rooms.room_create(
        host=users[0], name="Embedded table", seat_count=seats, turn_time_limit=limit
    )
    players = {}
    for number, user in enumerate(users, start=1):
        rooms.room_seat_take(room_id=room.pk, user=user, number=number)
        client = Client()
        client.force_login(user)
        players[number] = {
            "user": user.pk,
            "session": client.cookies["sessionid"].value,
            "token": token_issue(user=user),
        }
    game = game_launch(room_id=room.pk, user=users[0]).pk if launch else None
    return {"room": room.pk, "game": game, "players": players}


def open_room(*, visitors: int) -> dict[str, Any]:
    """A two-seat room, its host in seat 1, and `visitors` more users (with API tokens) who have
    not sat down."""
    from django.contrib.auth import get_user_model

    from apps.accounts.services import token_issue
    from apps.rooms import services as rooms

    def user() -> Any:
        name = f"v-{os.urandom(4).hex()}"
        return get_user_model().objects.create_user(
            username=name, email=f"{name}@example.com", password="lantern-crypt-7781"
        )

    host = user()
    room = rooms.room_create(host=host, name="Race table", seat_count=2)
    rooms.room_seat_take(room_id=room.pk, user=host, number=1)
    tokens = {str(v.pk): token_issue(user=v) for v in (user() for _ in range(visitors))}
    return {"room": room.pk, "visitors": tokens}


def seat_holders(*, room: int) -> dict[str, int | None]:
    from apps.rooms.models import Seat

    return {str(n): u for n, u in Seat.objects.filter(room_id=room).values_list("number", "user")}


def sweep_when_overdue(*, game: int) -> int:
    """Move the clock of the seat to move back past its turn limit, then ask the worker for a
    sweep (through the embedded filesystem broker); the game's version before the sweep."""
    from apps.play.models import Game
    from config.celery import app

    row = Game.objects.select_related("room").get(pk=game)
    assert row.room.turn_time_limit is not None and row.turn_started is not None
    row.turn_started = row.turn_started - row.room.turn_time_limit - timedelta(minutes=1)
    row.save(update_fields=["turn_started"])
    app.send_task("play.sweep_turns")
    return row.version


def game_record(*, game: int) -> dict[str, Any]:
    """The game's version, its accepted keys by version, and whether its log replays."""
    from apps.play.models import Game, GameEvent
    from apps.play.verify import game_verify

    row = Game.objects.get(pk=game)
    actions = row.events.filter(kind=GameEvent.Kind.ACTION).exclude(key=None)
    return {
        "version": row.version,
        "keys": dict(actions.values_list("key", "version")),
        "verified": game_verify(game_id=row.pk).ok,
    }


def notifications_of(*, user: int) -> list[str]:
    from apps.notifications.models import Notification

    return list(Notification.objects.filter(user_id=user).values_list("title", flat=True))
