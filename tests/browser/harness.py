"""A play-page harness: the real template, the real static files and the real rules engine,
served to Chromium through Playwright's request routing (no web server, no database).

`EngineTable` holds one engine state; the page of a seat is the game's page
(`games/heroquest/game.html`, extending `play/game.html`) rendered with that seat's view (live
updates off). Its GET view and POST action URLs are answered from the engine,
so clicking the page plays the game. Scenario builders drive the engine with legal actions only
(dice forced where it matters, as tests/games/heroquest/engine do).
"""

from __future__ import annotations

import json
import mimetypes
import random
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import parse_qs, urlparse

from django.template.loader import render_to_string

from apps.games.heroquest import GAME as HEROQUEST
from apps.games.heroquest.engine import (
    IllegalAction,
    State,
    action_to_json,
    apply,
    event_for_seat,
    legal_actions,
    load_quest,
    new_game,
    seat_view,
    seats_to_move,
)

ROOT = Path(__file__).resolve().parents[2]
ORIGIN = "http://harness.test"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
ZARGON = 1


def legal(state: State, seat: int) -> list[dict[str, Any]]:
    return [action_to_json(a) for a in legal_actions(state, seat)]


def seat_on_turn(state: State) -> int:
    return int(seats_to_move(state)[0])


class EngineTable:
    """One game held in memory; answers the play page's requests for any seat."""

    def __init__(self, state: State, events: list[dict[str, Any]] | None = None) -> None:
        self.state = state
        self.version = 1
        self.posted: list[tuple[int, dict[str, Any]]] = []
        # The whole story for the events API (the state keeps only the last entries).
        self.events: list[dict[str, Any]] = list(events if events is not None else state.log)
        self.confirm = True  # the player's "ask before costly moves" setting
        self.armory_url = ""  # a campaign quest links on to its campaign's armory
        self.keyset = True  # the events API pages back with `before` (False: only `after`)

    def view(self, seat: int) -> dict[str, Any]:
        view = dict(seat_view(self.state, seat))
        view["version"] = self.version
        view["game_id"] = 1
        return view

    def act(self, seat: int, payload: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if payload.get("expected_version") != self.version:
            return 409, {"detail": "The game moved on.", "version": self.version}
        action = payload.get("action")
        if not isinstance(action, dict):
            return 400, {"detail": "No action."}
        try:
            transition = apply(self.state, seat, action)
        except IllegalAction as exc:
            return 400, {"detail": exc.reason}
        self.state = transition.state
        self.events.extend(transition.events)
        self.version += 1
        self.posted.append((seat, action))
        return 200, {"version": self.version, "entries": []}

    def story(
        self, seat: int, after: int, limit: int, before: int | None = None
    ) -> list[dict[str, Any]]:
        """The events API: the seat's entries after `after`, or the newest before `before`;
        oldest first, at most `limit`."""
        seen = [
            entry
            for event in self.events
            if event["seq"] > after and (before is None or event["seq"] < before)
            for entry in [event_for_seat(event, seat)]
            if entry is not None
        ]
        return seen[-limit:] if before is not None else seen[:limit]

    # ---- the page -----------------------------------------------------------------------

    def page_html(self, seat: int) -> str:
        context = {
            "game": SimpleNamespace(id=1, room=SimpleNamespace(name="Harness table")),
            "seat": seat,
            "assets": HEROQUEST.assets,  # the game's own board, as the game page loads it
            "narrator_seat": HEROQUEST.narrator_seat,
            "view_json": self.view(seat),
            "api_view_url": f"/api/{seat}/view",
            "api_actions_url": f"/api/{seat}/actions",
            "api_events_url": f"/api/{seat}/events",
            "ws_url": "/ws/none/",
            "rules_url": "/rules/heroquest/",
            "lobby_url": "/",
            "armory_url": self.armory_url,
            "seat_names": {1: "zora", 2: "alba", 3: "bran"},
            "confirm": self.confirm,
        }
        html = render_to_string(HEROQUEST.assets.template, context)
        # No websocket here: the page refreshes from the GET view after each action.
        return html.replace('id="play"', 'id="play" data-live="off"', 1)

    def route(self, route: Any) -> None:
        request = route.request
        path = urlparse(request.url).path
        if path.startswith("/static/"):
            file = (ROOT / "static" / path.removeprefix("/static/")).resolve()
            if (ROOT / "static") not in file.parents or not file.is_file():
                route.fulfill(status=404, body="not found")
                return
            kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
            if file.suffix == ".js":
                kind = "text/javascript"
            route.fulfill(status=200, body=file.read_bytes(), headers={"Content-Type": kind})
            return
        match = re.fullmatch(r"/play/(\d)/", path)
        if match:
            html = self.page_html(int(match[1]))
            route.fulfill(status=200, body=html, headers={"Content-Type": "text/html"})
            return
        match = re.fullmatch(r"/api/(\d)/events", path)
        if match:
            query = parse_qs(urlparse(request.url).query)
            after = int(query.get("after", ["0"])[0])
            limit = int(query.get("limit", ["1000"])[0])
            before = int(query["before"][0]) if self.keyset and "before" in query else None
            story = json.dumps(self.story(int(match[1]), after, limit, before))
            route.fulfill(status=200, body=story, headers={"Content-Type": "application/json"})
            return
        match = re.fullmatch(r"/api/(\d)/(view|actions)", path)
        if match:
            seat = int(match[1])
            if match[2] == "view":
                status, body = 200, self.view(seat)
            else:
                status, body = self.act(seat, json.loads(request.post_data or "{}"))
            route.fulfill(
                status=status,
                body=json.dumps(body),
                headers={"Content-Type": "application/json"},
            )
            return
        route.fulfill(status=404, body="not found")

    def open(self, page: Any, seat: int) -> None:
        """Route the harness origin to this table and load seat `seat`'s play page."""
        page.unroute(f"{ORIGIN}/**")
        page.route(f"{ORIGIN}/**", self.route)
        page.goto(f"{ORIGIN}/play/{seat}/")
        wait_idle(page, self.version)


def wait_idle(page: Any, version: int) -> None:
    """Wait until the page shows `version` and has nothing in flight."""
    page.wait_for_function(
        """v => {
            const r = document.getElementById('play');
            return r && Number(r.dataset.version) >= v && r.getAttribute('aria-busy') !== 'true'
                && r.dataset.walking !== '1';
        }""",
        arg=version,
        timeout=10000,
    )


# ---- Scenarios from the real Ashen Vault ----------------------------------------------------


def explore_until(state: State, done: Any, seed: int = 1, limit: int = 3000) -> State:
    """Play legal actions (heroes roll 12, open doors, wander to new squares; Zargon ends his
    phase at once) until `done(state)` holds for the hero whose turn it is."""
    rng = random.Random(seed)
    visited: set[tuple[int, int]] = set()
    for _ in range(limit):
        if state.phase == "monsters":
            state = apply(state, ZARGON, {"type": "end_phase"}).state
            continue
        if done(state):
            return state
        seat = seat_on_turn(state)
        actions = legal(state, seat)
        hero = state.turn.hero
        if any(a["type"] == "roll_movement" for a in actions):
            roll = {"type": "roll_movement", "hero": hero}
            state = apply(state, seat, roll, dice=[6, 6]).state
            continue
        doors = [a for a in actions if a["type"] == "open_door"]
        moves = [a for a in actions if a["type"] == "move"]
        fresh = [a for a in moves if tuple(a["to"]) not in visited]
        if doors:
            state = apply(state, seat, rng.choice(doors)).state
        elif moves:
            step = rng.choice(fresh or moves)
            visited.add(tuple(step["to"]))
            state = apply(state, seat, step).state
        else:
            state = apply(state, seat, {"type": "end_turn", "hero": hero}).state
    raise AssertionError("the scenario never came about")


def throw_scenario() -> State:
    """A hero with a handaxe and a spear to throw (and the Wizard his dagger) sees a monster."""
    options = {"heroes": {"dwarf": {"items": ["handaxe", "spear"], "potions": 1}}}
    state = new_game(load_quest("ashen_vault"), 2, 7, options)

    def can_throw(s: State) -> bool:
        return any(a["type"] == "throw" for a in legal(s, seat_on_turn(s)))

    return explore_until(state, can_throw)


def unknown_moves(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Legal moves onto squares the seat's board does not draw."""
    drawn = {(s["x"], s["y"]) for s in view["map"]["squares"]}
    return [
        a
        for a in view["legal_actions"]
        if a["type"] == "move" and (a["to"][0], a["to"][1]) not in drawn
    ]


def pass_through_rock_scenario() -> State:
    """The Elf under her own Pass Through Rock at the east wall of the stair room, moves left."""
    state = new_game(load_quest("ashen_vault"), 2, 7)
    while state.turn.hero != "elf":
        state = apply(state, 2, {"type": "end_turn", "hero": state.turn.hero}).state
    cast = {"type": "cast", "hero": "elf", "spell": "pass_through_rock", "target": "elf"}
    state = apply(state, 2, cast).state
    state = apply(state, 2, {"type": "roll_movement", "hero": "elf"}, dice=[6, 6]).state
    # Walk (legal single steps, breadth first) to a square with a move the board cannot draw.
    frontier = [state]
    seen = {state.heroes["elf"].position}
    while frontier:
        s = frontier.pop(0)
        if unknown_moves(seat_view(s, 2)):
            return s
        for a in legal(s, 2):
            if a["type"] == "move" and tuple(a["to"]) not in seen:
                seen.add(tuple(a["to"]))
                frontier.append(apply(s, 2, a).state)
    raise AssertionError("no move behind a wall")
