"""Fault: a web process killed (SIGKILL) while players are sending actions loses and doubles
nothing. Each client retries an action that got no answer, with the same idempotency key, on the
other web process: every action is applied exactly once, and the game's log replays from its
seed (apps/play/verify.py)."""

import http.client
import json
import threading
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any

import pytest

from apps.accounts.services import token_issue
from apps.play.models import Game, GameEvent
from apps.play.verify import game_verify
from tests.servers import server_env, shared_database_url, web_server_process

from .bot import Bot
from .conftest import GameMaker

ACTIONS_EACH = 6  # accepted actions each client aims for
KILL_AFTER = 4  # accepted actions (all clients) before the first web process is killed


def call(base: str, method: str, path: str, token: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        f"{base}{path}",
        data=data,
        method=method,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


class Client(threading.Thread):
    """One seat's player: asks its view, sends what the bot chooses; on a lost connection it
    sends the same request (same key) to the next web process until it gets an answer."""

    def __init__(
        self, sites: list[str], game: int, token: str, seed: int, progress: Any, sending: Any
    ) -> None:
        super().__init__(daemon=True)
        self.sites, self.game, self.token, self.progress = sites, game, token, progress
        self.sending = sending  # set while an action is on its way
        self.bot = Bot(seed)
        self.answers: dict[str, int] = {}  # idempotency key -> the final status
        self.retried = 0
        self.failure: str | None = None

    def send(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        for _ in range(20):
            try:
                return call(self.sites[0], method, path, self.token, body)
            # Refused, reset, cut mid-answer (the headers sent, the body not: IncompleteRead, an
            # HTTPException): this process is gone.
            except (OSError, http.client.HTTPException):
                self.retried += 1
                self.sites.append(self.sites.pop(0))
        raise AssertionError("no web process answered")

    def run(self) -> None:
        try:
            self.play()
        except Exception as exc:
            self.failure = repr(exc)

    def play(self) -> None:
        path = f"/api/games/{self.game}"
        for _ in range(ACTIONS_EACH * 30):
            if sum(status == 200 for status in self.answers.values()) >= ACTIONS_EACH:
                return
            status, view = self.send("GET", f"{path}/view")
            if status != 200 or view.get("finished"):
                return
            action = self.bot.choose(view)
            if action is None:
                threading.Event().wait(0.05)  # not this seat's turn
                continue
            key = uuid.uuid4().hex
            body = {"action": action, "expected_version": view["version"], "idempotency_key": key}
            self.sending.set()
            self.answers[key], _ = self.send("POST", f"{path}/actions", body)
            self.sending.clear()
            if self.answers[key] == 200:
                self.progress.release()


@pytest.mark.faults
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_web_process_killed_mid_stream_loses_and_doubles_nothing(
    postgres: None, make_game: GameMaker, tmp_path: Path
) -> None:
    games = [make_game(2, seed=seed) for seed in (3, 4)]
    env = server_env(DATABASE_URL=shared_database_url())
    with (
        web_server_process(env, tmp_path) as (first, doomed),
        web_server_process(env, tmp_path) as (
            second,
            _,
        ),
    ):
        progress, sending = threading.Semaphore(0), threading.Event()
        clients = [
            Client([first, second], game.pk, token_issue(user=user), seat, progress, sending)
            for game, users in games
            for seat, user in users.items()
        ]
        for client in clients:
            client.start()
        for _ in range(KILL_AFTER):
            assert progress.acquire(timeout=120), "the players made no progress"
        sending.clear()
        assert sending.wait(timeout=120)  # an action is on its way: kill the process under it
        doomed.kill()  # SIGKILL: no graceful shutdown, requests in flight are cut
        for client in clients:
            client.join(timeout=300)

    assert [c.failure for c in clients] == [None] * len(clients)
    assert all(not c.is_alive() for c in clients)
    assert sum(c.retried for c in clients) > 0  # some requests did hit the dead process
    for game, _users in games:
        stored = Game.objects.get(pk=game.pk)
        mine = [c for c in clients if c.game == game.pk]
        accepted = {k for c in mine for k, status in c.answers.items() if status == 200}
        actions = GameEvent.objects.filter(game=stored, kind=GameEvent.Kind.ACTION)
        keys = [str(k) for k in actions.filter(seat__isnull=False).values_list("key", flat=True)]
        # Nothing lost: every answered action is logged; nothing doubled: each once.
        assert sorted(keys) == sorted(accepted)
        assert actions.count() == stored.version == len(accepted)
        report = game_verify(game_id=game.pk)
        assert report.ok, report.problem
