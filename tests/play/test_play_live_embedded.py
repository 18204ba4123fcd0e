"""The embedded default (`make run`: SQLite, no Redis) as separate processes: what the Celery
worker does reaches websockets held by the web process, and the web process, the worker and
several players writing at once lose nothing and never fail (docs/design.md, "Live updates").

Everything runs on the embedded profile's own settings (tests/embedded.py), never on Redis or
PostgreSQL, whatever this test run uses.
"""

import asyncio
import json
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.asyncio.client import connect

from tests.embedded import Embedded, embedded_site

from .bot import Bot

WAIT = 30  # seconds a frame may take before the test gives up (a frame, not a speed, is checked)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Embedded]:
    with embedded_site(tmp_path_factory.mktemp("embedded")) as running:
        yield running


def call(
    site: Embedded, method: str, path: str, token: str, body: dict[str, Any] | None = None
) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(
        f"{site.base}{path}",
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
        method=method,
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        text = error.read()
        try:
            return error.code, json.loads(text)
        except ValueError:
            return error.code, {"body": text.decode(errors="replace")}


async def next_frame(ws: Any, kind: str) -> dict[str, Any]:
    """The next frame of `kind` (pongs and the like are skipped)."""
    while True:
        frame: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
        if frame["type"] == kind:
            return frame


def socket(site: Embedded, path: str, session: str) -> Any:
    return connect(
        f"ws://127.0.0.1:{site.port}{path}",
        origin=f"http://127.0.0.1:{site.port}",  # type: ignore[arg-type]
        additional_headers={"Cookie": f"sessionid={session}"},
        open_timeout=WAIT,
    )


def test_the_workers_turn_notification_reaches_the_players_open_page(site: Embedded) -> None:
    table = site.script("table", seats=3, launch=False)
    host, first_hero = table["players"]["1"], table["players"]["2"]

    async def scenario() -> tuple[int, dict[str, Any]]:
        async with socket(site, "/ws/notifications/", first_hero["session"]) as ws:
            await ws.send(json.dumps({"type": "ping"}))
            await next_frame(ws, "pong")  # the socket has joined its group
            # The web process launches; its worker tells the first hero it is their turn.
            status, _ = await asyncio.to_thread(
                call, site, "POST", f"/api/rooms/{table['room']}/launch", host["token"]
            )
            return status, await next_frame(ws, "notification")

    status, frame = asyncio.run(scenario())

    assert status == 200
    assert frame["title"].startswith("Your turn in Embedded table")
    assert frame["url"].startswith("/games/")
    assert frame["title"] in site.script("notifications_of", user=first_hero["user"])


def test_a_turn_the_worker_times_out_reaches_the_players_game_socket(site: Embedded) -> None:
    table = site.script("table", seats=3, turn_minutes=60)
    game, second_hero = table["game"], table["players"]["3"]

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with socket(site, f"/ws/games/{game}/", second_hero["session"]) as ws:
            first = await next_frame(ws, "view")
            # An hour and a minute pass; the worker's sweep ends the first hero's turn.
            await asyncio.to_thread(site.script, "sweep_when_overdue", game=game)
            return first, await next_frame(ws, "view")

    first, pushed = asyncio.run(scenario())

    assert first["version"] == 0 and first["view"]["legal_actions"] == []
    assert pushed["version"] > 0
    # The timed-out hero's turn is over: the second hero (this socket's seat) may now move.
    assert pushed["view"]["legal_actions"], pushed["view"]["turn"]


class Player(threading.Thread):
    """One client playing its seat through the HTTP API as fast as it can, for `moves` moves:
    each accepted action is replayed once with the same idempotency key and must get the same
    answer."""

    def __init__(self, site: Embedded, game: int, token: str, moves: int, seed: int) -> None:
        super().__init__()
        self.site, self.game, self.token, self.moves = site, game, token, moves
        self.bot = Bot(seed)
        self.accepted: dict[str, int] = {}
        self.statuses: list[int] = []
        self.replays_differing: list[str] = []
        self.failure: str | None = None

    def run(self) -> None:
        try:
            self._play()
        except Exception as exc:  # reported by the test, with the status codes seen
            self.failure = repr(exc)

    def _play(self) -> None:
        path = f"/api/games/{self.game}"
        for _ in range(self.moves * 20):
            if len(self.accepted) >= self.moves:
                return
            status, view = call(self.site, "GET", f"{path}/view", self.token)
            self.statuses.append(status)
            if status != 200 or view.get("finished"):
                return
            action = self.bot.choose(view)
            if action is None:
                time.sleep(0.1)  # not this seat's turn
                continue
            body = {
                "action": action,
                "expected_version": view["version"],
                "idempotency_key": uuid.uuid4().hex,
            }
            status, answer = call(self.site, "POST", f"{path}/actions", self.token, body)
            self.statuses.append(status)
            if status != 200:
                continue  # 409: another seat moved first; 422: the bot guessed wrong
            self.accepted[body["idempotency_key"]] = answer["version"]
            again, replay = call(self.site, "POST", f"{path}/actions", self.token, body)
            self.statuses.append(again)
            # The first answer again; only the seat's view is as of now (docs/web-contract.md).
            first = (status, answer["version"], answer["entries"])
            if (again, replay.get("version"), replay.get("entries")) != first:
                self.replays_differing.append(f"{again} {replay}")


def test_the_worker_and_several_players_at_once_lose_nothing_and_never_fail(
    site: Embedded,
) -> None:
    tables = [site.script("table", seats=3) for _ in range(2)]
    players = [
        Player(site, table["game"], player["token"], moves=6, seed=seat)
        for table in tables
        for seat, player in table["players"].items()
        for _tab in range(2)  # every player has the game open twice: their tabs race too
    ]

    for player in players:
        player.start()
    for player in players:
        player.join(timeout=240)

    assert not [p.failure for p in players if p.failure]
    statuses = sorted({s for p in players for s in p.statuses})
    assert all(status < 500 for status in statuses), statuses
    assert not [r for p in players for r in p.replays_differing]
    for table in tables:
        record = site.script("game_record", game=table["game"])
        accepted = {k: v for p in players if p.game == table["game"] for k, v in p.accepted.items()}
        assert accepted, "nobody got an action in"
        # Every action a client was told was accepted is in the game, at the version it was told,
        # and every version of the game is an action some client sent (or the worker's).
        assert {k: record["keys"][k] for k in accepted} == accepted
        assert sorted(accepted.values()) == list(range(1, len(accepted) + 1))
        assert record["version"] == len(accepted)
        assert record["verified"]
    assert "database is locked" not in site.logs()
    assert "Traceback" not in site.logs()


def all_at_once(jobs: list[Any]) -> list[Any]:
    """Run the calls in threads released together; their results in order."""
    barrier = threading.Barrier(len(jobs))
    results: list[Any] = [None] * len(jobs)

    def run(i: int) -> None:
        barrier.wait()
        results[i] = jobs[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return results


def test_one_key_sent_by_several_requests_at_once_is_applied_once(site: Embedded) -> None:
    table = site.script("table", seats=3)
    game, hero = table["game"], table["players"]["2"]
    body = {
        "action": {"type": "roll_movement", "hero": "barbarian"},
        "expected_version": 0,
        "idempotency_key": "the-same-roll",
    }
    path = f"/api/games/{game}/actions"

    answers = all_at_once([lambda: call(site, "POST", path, hero["token"], body)] * 6)

    assert {status for status, _ in answers} == {200}
    assert all(answer == answers[0][1] for _, answer in answers)
    assert site.script("game_record", game=game)["version"] == 1


def test_many_players_racing_for_the_last_seat_get_it_once(site: Embedded) -> None:
    room = site.script("open_room", visitors=6)
    path = f"/api/rooms/{room['room']}/seats/2"

    answers = all_at_once(
        [lambda t=token: call(site, "POST", path, t) for token in room["visitors"].values()]
    )

    statuses = sorted(status for status, _ in answers)
    assert statuses[0] == 200 and statuses.count(200) == 1, statuses
    assert all(400 <= status < 500 for status in statuses[1:]), statuses
    winner = next(
        user for (status, _), user in zip(answers, room["visitors"], strict=True) if status == 200
    )
    assert site.script("seat_holders", room=room["room"])["2"] == int(winner)
