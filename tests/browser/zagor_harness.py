"""Legend of Zagor's play page without a server: the real template, static files and engine,
served to Chromium through Playwright's request routing (as tests/browser/harness.py does for
HeroQuest). `ZagorTable` holds one engine state and answers the page's view, actions and events
requests for any seat from it (live updates off)."""

from __future__ import annotations

import json
import mimetypes
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import parse_qs, urlparse

from django.template.loader import render_to_string

from apps.games.port import Refusal
from apps.games.zagor import GAME
from apps.games.zagor.scenarios import shipped

ROOT = Path(__file__).resolve().parents[2]
ORIGIN = "http://zagor.test"


class ZagorTable:
    def __init__(self, tale: str = "enchanted_orb", heroes: int = 2, seed: int = 7) -> None:
        start = GAME.new_game(shipped(tale), heroes, seed, {}, commitment=None)
        self.state: Any = start.state
        self.events: list[dict[str, Any]] = list(start.events)
        self.versions: list[int] = [0] * len(self.events)
        self.version = 1
        self.settings: dict[str, dict[str, Any]] = {}

    def in_play(self) -> Any:
        return GAME.with_settings(self.state, self.settings) if self.settings else self.state

    def view(self, seat: int) -> dict[str, Any]:
        view = dict(GAME.seat_view(self.in_play(), seat))
        view["version"] = self.version
        view["game_id"] = 1
        return view

    def play(self, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        """Apply one action (the engine judges); returns the new events."""
        step = GAME.apply(self.in_play(), seat, action)
        self.state = step.state
        self.version += 1
        self.events.extend(step.events)
        self.versions.extend([self.version] * len(step.events))
        return step.events

    def bot_until(self, done: Any, limit: int = 2000) -> None:
        """Play the face's own bot moves until `done(table)` holds."""
        for _ in range(limit):
            if done(self) or GAME.outcome_of(self.state):
                return
            (seat,) = GAME.seats_to_move(self.state)
            action = GAME.ai_action(self.state, seat)
            assert action is not None, "a seat to move without a legal action"
            self.play(seat, action)
        raise AssertionError("the position never came about")

    def act(self, seat: int, payload: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        action = payload.get("action")
        if not isinstance(action, dict):
            return 400, {"detail": "No action."}
        setting = GAME.setting_of(self.state, seat, action)
        if setting is not None:
            self.settings.setdefault(setting.owner, {})[setting.name] = setting.value
            return 200, {"version": self.version, "entries": [], "view": self.view(seat)}
        if payload.get("expected_version") != self.version:
            return 409, {"detail": "The game moved on.", "version": self.version}
        try:
            self.play(seat, action)
        except Refusal as exc:
            return 422, {"detail": exc.reason}
        return 200, {"version": self.version, "entries": [], "view": self.view(seat)}

    def story(self, seat: int, after: int, limit: int, before: int | None) -> list[dict[str, Any]]:
        seen = []
        for event, version in zip(self.events, self.versions, strict=True):
            if event["seq"] <= after or (before is not None and event["seq"] >= before):
                continue
            entry = GAME.event_for_seat(event, seat)
            if entry is not None:
                seen.append({**entry, "version": version})
        return seen[-limit:] if before is not None else seen[:limit]

    def page_html(self, seat: int) -> str:
        context = {
            "game": SimpleNamespace(id=1, outcome=None, room=SimpleNamespace(name="Zagor table")),
            "seat": seat,
            "assets": GAME.assets,
            "narrator_seat": GAME.narrator_seat,
            "view_json": self.view(seat),
            "api_view_url": f"/api/{seat}/view",
            "api_actions_url": f"/api/{seat}/actions",
            "api_events_url": f"/api/{seat}/events",
            "ws_url": "/ws/none/",
            "rules_url": "/rules/zagor/",
            "lobby_url": "/",
            "seat_names": {1: "zora", 2: "alba", 3: "bran", 4: "odo"},
            "confirm": False,
            "rules_in_force": ["The Quest for the Enchanted Orb"],
        }
        html = render_to_string(GAME.assets.template, context)
        return html.replace('id="play"', 'id="play" data-live="off"', 1)

    def route(self, route: Any) -> None:
        request = route.request
        url = urlparse(request.url)
        path = url.path
        if path.startswith("/static/"):
            file = (ROOT / "static" / path.removeprefix("/static/")).resolve()
            if (ROOT / "static") not in file.parents or not file.is_file():
                route.fulfill(status=404, body="not found")
                return
            kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
            kind = "text/javascript" if file.suffix == ".js" else kind
            route.fulfill(status=200, body=file.read_bytes(), headers={"Content-Type": kind})
            return
        json_type = {"Content-Type": "application/json"}
        if match := re.fullmatch(r"/play/(\d)/", path):
            html = self.page_html(int(match[1]))
            route.fulfill(status=200, body=html, headers={"Content-Type": "text/html"})
        elif match := re.fullmatch(r"/api/(\d)/events", path):
            query = parse_qs(url.query)
            after = int(query.get("after", ["0"])[0])
            limit = int(query.get("limit", ["1000"])[0])
            before = int(query["before"][0]) if "before" in query else None
            body = json.dumps(self.story(int(match[1]), after, limit, before))
            route.fulfill(status=200, body=body, headers=json_type)
        elif match := re.fullmatch(r"/api/(\d)/(view|actions)", path):
            seat = int(match[1])
            if match[2] == "view":
                status, answer = 200, self.view(seat)
            else:
                status, answer = self.act(seat, json.loads(request.post_data or "{}"))
            route.fulfill(status=status, body=json.dumps(answer), headers=json_type)
        else:
            route.fulfill(status=404, body="not found")

    def open(self, page: Any, seat: int) -> None:
        page.unroute(f"{ORIGIN}/**")
        page.route(f"{ORIGIN}/**", self.route)
        page.goto(f"{ORIGIN}/play/{seat}/")
        wait_ready(page, self.version)


def wait_ready(page: Any, version: int) -> None:
    page.wait_for_function(
        """v => {
            const r = document.getElementById('play');
            return r && r.dataset.ready === 'true' && Number(r.dataset.version) >= v
                && r.getAttribute('aria-busy') !== 'true';
        }""",
        arg=version,
        timeout=15000,
    )
