"""A finished quest's replay in real Chromium: it plays to the end, and the page checks every die
against the revealed seed in the browser (static/js/fairness.js: splitmix64 in BigInt, SHA-256
through crypto.subtle); a die changed in the data the page is served fails the check.

The quest is finished through the real services (the bot plays the Ambush Hall to the end). The
page and the replay API are the real views, answered by Django's test client as the page's user
(fetched ahead) and served by Playwright's request routing (no web server), with the site's own
headers (its CSP too), on an https origin so that crypto.subtle is there, as on the real site.
"""

from __future__ import annotations

import json
import mimetypes
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlparse

import pytest
from django.test import Client
from playwright.sync_api import sync_playwright

from apps.play.models import Game
from tests.play.conftest import client_for
from tests.play.finished import finished_game

from .harness import CHROMIUM_ARGS, ROOT

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

CHROMIUM = Path("/usr/bin/chromium")
ORIGIN = "https://replay.test"
SHOTS = ROOT / "var" / "screenshots"
SEED = 4  # the bot's heroes win the Ambush Hall in 89 actions
PASSED_ON = ("Content-Type", "Content-Security-Policy", "Cache-Control")

Tamper = Callable[[dict[str, Any]], None]


@pytest.fixture(scope="module")
def browser(django_db_setup: None) -> Iterator[Any]:
    """Chromium, started once the test database exists. Playwright's sync API then runs an
    event loop in this thread; the routed requests reach the database from its callbacks, one at
    a time, in this same thread, so Django's guard against async callers is lifted meanwhile."""
    if not CHROMIUM.exists():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("needs Debian's Chromium at /usr/bin/chromium, but CI=true")
        pytest.skip("needs Debian's Chromium at /usr/bin/chromium")
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as pw:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


class Site:
    """The site as one Django test client sees it, served to Chromium by request routing.

    The answers are fetched ahead, in the test's own thread and transaction: Playwright calls
    its route handlers from another greenlet, whose database connection would be another.
    """

    def __init__(self, client: Client, tamper: Tamper | None = None) -> None:
        self.client = client
        self.tamper = tamper
        self.answers: dict[str, tuple[int, bytes, dict[str, str]]] = {}

    def fetch(self, path: str, query: dict[str, str] | None = None) -> Any:
        response = self.client.get(path, query or {}, secure=True)
        body = response.content
        if self.tamper is not None and path.endswith("/replay") and response.status_code == 200:
            data = json.loads(body)
            self.tamper(data)
            body = json.dumps(data).encode()
        headers = {name: response[name] for name in PASSED_ON if response.has_header(name)}
        self.answers[self.key(path, query or {})] = (response.status_code, body, headers)
        return response

    @staticmethod
    def key(path: str, query: dict[str, str]) -> str:
        return f"{path}?{sorted(query.items())}"

    def fetch_replay(self, game: Game, page_path: str, query: dict[str, str], api: str) -> None:
        """The page and every page of its replay data, as the replay's script asks for them."""
        assert self.fetch(page_path, query).status_code == 200
        start, total = 0, None
        while total is None or start < total:
            page = {"start": str(start), "count": "200"}
            total = self.fetch(api, page).json()["total"]
            start += 200

    def route(self, route: Any) -> None:
        url = urlparse(route.request.url)
        if route.request.method != "GET":  # the header's own posts (the browser's time zone)
            route.fulfill(status=204, body="")
            return
        if url.path.startswith("/static/"):
            file = (ROOT / "static" / url.path.removeprefix("/static/")).resolve()
            if (ROOT / "static") not in file.parents or not file.is_file():
                route.fulfill(status=404, body="not found")
                return
            kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
            kind = "text/javascript" if file.suffix == ".js" else kind
            route.fulfill(status=200, body=file.read_bytes(), headers={"Content-Type": kind})
            return
        answer = self.answers.get(self.key(url.path, dict(parse_qsl(url.query))))
        if answer is None:
            route.fulfill(status=404, body=f"not fetched ahead: {url.path}?{url.query}")
            return
        status, body, headers = answer
        route.fulfill(status=status, body=body, headers=headers)

    def open(
        self, page: Any, game: Game, query: dict[str, str] | None = None, *, public: bool = False
    ) -> None:
        """The players' replay page, or (`public`) the one of the host's public link."""
        path, api = f"/games/{game.pk}/replay/", f"/api/games/{game.pk}/replay"
        if public:
            path, api = f"/replays/{game.replay_token}/", f"/api/games/replays/{game.replay_token}"
        self.fetch_replay(game, path, query or {}, api)
        page.route(f"{ORIGIN}/**", self.route)
        page.goto(f"{ORIGIN}{path}" + (f"?{urlencode(query)}" if query else ""))
        page.wait_for_function("() => document.getElementById('replay')?.dataset.loaded === 'true'")


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    context.set_default_timeout(20000)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("response", lambda r: problems.append(f"{r.status} {r.url}") if not r.ok else None)
    # (The header's notifications socket finds no server here: not the replay's concern.)
    page.on(
        "console",
        lambda m: (
            problems.append(m.text)
            if m.type == "error"
            and "WebSocket connection" not in m.text
            and not m.text.startswith("Failed to load resource")  # the answer is recorded above
            else None
        ),
    )
    yield page
    context.close()
    assert not problems, problems  # no script error, no CSP violation


@pytest.fixture
def finished() -> tuple[Game, dict[int, Any]]:
    return finished_game(3, SEED)


def step_of(page: Any) -> int:
    return int(page.locator("#replay").get_attribute("data-step"))


def test_a_finished_quest_replays_to_the_end_and_its_dice_check_out(
    page: Any, finished: Any
) -> None:
    game, users = finished
    Site(client_for(users[2])).open(page, game)

    page.wait_for_function("() => document.getElementById('replay').dataset.verified")
    assert page.locator("#replay").get_attribute("data-verified") == "ok"
    result = page.locator("#verify-result").inner_text()
    assert result.startswith("✓ Fair") and "draws" in result
    assert page.locator("#seed-commitment").inner_text() == game.seed_commitment
    assert page.locator("#seed-revealed").inner_text() == str(game.seed)

    assert step_of(page) == 0
    page.click("#replay-forward")
    page.click("#replay-forward")
    assert step_of(page) == 2 and page.url.endswith("?step=2")
    page.click("#replay-back")
    assert step_of(page) == 1

    page.select_option("#replay-speed", "30")
    page.click("#replay-play")
    page.wait_for_function(  # (a shared test machine may draw slowly: no speed is tested)
        "n => document.getElementById('replay').dataset.step === n",
        arg=str(game.version),
        timeout=120_000,
    )
    assert page.locator("#replay-play").inner_text() == "Play"  # it stopped at the end
    assert page.locator("#replay-step").inner_text() == f"{game.version} / {game.version}"
    assert page.locator("#game-log li").count() > 0
    assert page.locator("#board [data-hero], #board .figure, #board g").count() > 0


def test_a_link_opens_the_replay_at_its_step_and_rounds_can_be_chosen(
    page: Any, finished: Any
) -> None:
    game, users = finished
    Site(client_for(users[1])).open(page, game, {"step": "7"})
    assert step_of(page) == 7
    rounds = page.locator("#replay-round option")
    assert rounds.count() >= 2
    target = rounds.nth(1)
    page.select_option("#replay-round", target.get_attribute("value"))
    assert step_of(page) == int(target.get_attribute("data-step"))


def test_a_changed_die_in_the_served_log_fails_the_check(page: Any, finished: Any) -> None:
    game, users = finished
    changed: dict[str, int] = {}

    def change_one_die(data: dict[str, Any]) -> None:
        """Turn the first die of the page's log into another face, as a lying server would."""
        if changed:
            return
        for step in data["steps"]:
            for entry in step["entries"]:
                for roll in entry["dice"]:
                    if roll["kind"] == "red":
                        roll["values"][0] = roll["values"][0] % 6 + 1
                    else:
                        face = roll["faces"][0]
                        roll["faces"][0] = "black_shield" if face != "black_shield" else "skull"
                    changed["step"] = step["step"]
                    return

    Site(client_for(users[2]), tamper=change_one_die).open(page, game)
    page.wait_for_function("() => document.getElementById('replay').dataset.verified")
    assert changed
    assert page.locator("#replay").get_attribute("data-verified") == "failed"
    result = page.locator("#verify-result").inner_text()
    assert result.startswith(f"✗ Step {changed['step']}: the log shows")
    assert step_of(page) == changed["step"]  # the page shows where it went wrong


def test_the_replay_zooms_in_steps_and_fits_again(page: Any, finished: Any) -> None:
    game, users = finished
    Site(client_for(users[2])).open(page, game, {"step": "3"})
    width = "() => document.getElementById('board').getBoundingClientRect().width"
    fitted = page.evaluate(width)
    page.click("#zoom-in")
    page.click("#zoom-in")
    assert page.evaluate(width) > 1.5 * fitted
    page.click("#replay-forward")  # a step drawn keeps the reader's zoom
    assert page.evaluate(width) > 1.5 * fitted
    page.click("#zoom-out")
    page.click("#zoom-fit")
    assert page.evaluate(width) == pytest.approx(fitted, abs=1)


def test_a_public_replay_plays_for_a_visitor(page: Any, finished: Any) -> None:
    game, _ = finished
    Game.objects.filter(pk=game.pk).update(replay_public=True)
    Site(Client()).open(page, game, public=True)  # by the host's link: the id leads nowhere
    page.wait_for_function("() => document.getElementById('replay').dataset.verified === 'ok'")


def test_the_replay_has_drawn_icons_steps_by_keyboard_and_says_how_it_ended(
    page: Any, finished: Any
) -> None:
    game, users = finished
    site = Site(client_for(users[2]))
    # The check is slowed so that its status can be seen while it runs.
    page.add_init_script(
        "(() => { const digest = crypto.subtle.digest.bind(crypto.subtle);"
        " crypto.subtle.digest = (...a) =>"
        " new Promise(r => setTimeout(() => r(digest(...a)), 1500)); })()"
    )
    site.open(page, game)
    status = page.locator("#replay-status")
    assert "Checking the dice" in (status.inner_text() or "")
    assert page.locator("#replay").get_attribute("data-checking") == "true"
    page.wait_for_function("() => document.getElementById('replay').dataset.verified === 'ok'")
    text = status.inner_text()
    assert "the quest ended" not in text
    ending = r"^\d+ actions over \d+ rounds?, and (the heroes|Zargon) .*\. The dice are fair\.$"
    assert re.search(ending, text), text
    # First and last are drawn (inline SVG), not font glyphs that Debian's fonts may lack.
    for button in ("#replay-first", "#replay-back", "#replay-forward", "#replay-last"):
        icon = page.locator(f"{button} svg path")
        assert icon.count() == 1
        box = page.locator(f"{button} svg").bounding_box()
        assert box and box["width"] >= 12 and box["height"] >= 12
        assert (page.locator(button).inner_text() or "").strip() == ""
    # The turn card tells the step, never "Waiting for the next player".
    assert "Waiting" not in (page.locator("#turn-panel").inner_text() or "")
    assert "Step 0" in (page.locator("#turn-panel").inner_text() or "")
    page.locator("#board-scroll").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert step_of(page) == 2
    assert "Step 2:" in (page.locator("#turn-panel").inner_text() or "")
    page.keyboard.press("ArrowLeft")
    assert step_of(page) == 1
    page.keyboard.press("End")
    assert step_of(page) == game.version
    page.keyboard.press("Home")
    assert step_of(page) == 0
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(".replay-controls").screenshot(path=str(SHOTS / "replay-controls.png"))
    page.screenshot(path=str(SHOTS / "replay.png"))
