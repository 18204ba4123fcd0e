"""The load harness counts whatever the site answers under its status and goes on.

A busy stack behind a proxy answers some requests with an HTML 502/503 page; the bots must count
it as that status (not as an accepted action, not as a crash of the bot's thread).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from tests.load import loadtest
from tests.load.loadtest import Api, NotJSON, Run, drive_game

HTML_502 = b"<html><body><h1>502 Bad Gateway</h1></body></html>"
VIEW = {"version": 3, "turn": {"seat": 1}, "outcome": None}


class Site(BaseHTTPRequestHandler):
    """GET .../view answers a view (or 502 HTML when `broken`); every POST answers 503 HTML."""

    broken = False

    def do_GET(self) -> None:
        if self.broken:
            self._answer(502, HTML_502, "text/html")
        else:
            self._answer(200, json.dumps(VIEW).encode(), "application/json")

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        self._answer(503, b"<html>Service Unavailable</html>", "text/html")

    def _answer(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def site() -> Iterator[tuple[str, type[Site]]]:
    handler = type("TestSite", (Site,), {})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"127.0.0.1:{server.server_address[1]}", handler
    server.shutdown()
    server.server_close()


class EndTurnBot:
    def __init__(self, game: str, seed: int) -> None:
        pass

    def choose(self, view: dict[str, Any]) -> dict[str, Any]:
        return {"type": "end_phase"}


GAME = {"game": 1, "tokens": {"1": "t"}}


def test_an_html_error_page_is_an_answer_with_its_status_not_json(
    site: tuple[str, type[Site]],
) -> None:
    base, handler = site
    handler.broken = True

    status, answer = Api(base, "t").call("GET", "/api/games/1/view")

    assert status == 502
    assert isinstance(answer, NotJSON)


def test_posts_answered_with_an_html_503_are_counted_as_503_not_accepted(
    site: tuple[str, type[Site]], monkeypatch: pytest.MonkeyPatch
) -> None:
    base, _ = site
    monkeypatch.setattr(loadtest, "load_bot", EndTurnBot)
    run = Run()

    drive_game(GAME, base, run, until=time.monotonic() + 0.5, pace=0)

    assert run.accepted == 0
    assert run.statuses["503 (not JSON)"] >= 1
    assert set(run.statuses) == {"503 (not JSON)"}
    assert run.posted_at == {}


def test_a_view_answered_with_an_html_502_is_counted_and_asked_again(
    site: tuple[str, type[Site]], monkeypatch: pytest.MonkeyPatch
) -> None:
    base, handler = site
    handler.broken = True
    monkeypatch.setattr(loadtest, "load_bot", EndTurnBot)
    run = Run()

    drive_game(GAME, base, run, until=time.monotonic() + 0.5, pace=0)

    assert run.statuses["GET view 502 (not JSON)"] >= 2
    assert run.accepted == 0 and run.post_seconds == []


def test_an_action_shown_only_in_a_later_frame_counts_from_that_frame() -> None:
    run = Run(posted_at={(1, 5): 10.0, (1, 6): 10.2, (1, 7): 10.4})
    run.frames[1] = [(4, 9.0), (6, 10.5), (7, 10.9)]  # version 5 was sent as part of 6

    assert sorted(round(s, 3) for s in run.screen_latencies()) == [0.3, 0.5, 0.5]
    assert run.frame_counts() == {"own frame": 2, "in a newer frame": 1}
