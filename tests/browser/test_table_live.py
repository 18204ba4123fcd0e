"""The table live, in real Chromium against the real site (issue 21): the host's pause and resume
reach the other player's open page, a notice about the game on screen is read as it arrives and
covers nothing, and the end of the quest reaches both pages with its story, the revealed seed and
the replay link, all without a reload.

The site runs in a `config.server` subprocess (the fixtures of test_play_in_browser.py); set-up
and the worker's jobs run in the site's environment through tests/browser/table_setup.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from playwright.sync_api import sync_playwright

from tests.browser.test_play_in_browser import (  # noqa: F401 (fixtures)
    CHROMIUM_ARGS,
    Player,
    chromium,
    open_game,
    settle,
    site,
    site_env,
)
from tests.conftest import PASSWORD
from tests.servers import ROOT

from .test_play_table import SHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def setup(env: dict[str, str], *args: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "tests.browser.table_setup", *args],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


def log_in(player: Player, base: str) -> None:
    page = player.page
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", player.name)
    page.fill("#id_password", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_load_state()
    assert "/login" not in page.url, page.content()


def unreloaded(page: Any) -> None:
    """Mark the page: the mark is gone if it reloads."""
    page.evaluate("window.__sameDocument = true")


def still_the_same_page(page: Any) -> bool:
    return bool(page.evaluate("window.__sameDocument === true"))


def uncovered(page: Any, selector: str) -> bool:
    """Nothing is drawn over the middle of the element (a toast, say)."""
    return bool(
        page.evaluate(
            """s => { const e = document.querySelector(s); const r = e.getBoundingClientRect();
                const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
                return top === e || e.contains(top); }""",
            selector,
        )
    )


def test_pause_notices_and_the_end_reach_open_pages_live(
    chromium: str,  # noqa: F811
    site: str,  # noqa: F811
    site_env: dict[str, str],  # noqa: F811
) -> None:
    game = setup(site_env, "start")["game"]
    url = f"{site}/games/{game}/"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            players: dict[str, Player] = {}
            errors: list[str] = []
            for name in ("ada", "bo"):
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                context.set_default_timeout(15000)
                players[name] = Player(name=name, page=context.new_page())
                players[name].page.on("pageerror", lambda e: errors.append(str(e)))
                log_in(players[name], site)
                open_game(players[name], url)
            ada, bo = players["ada"], players["bo"]
            unreloaded(bo.page)
            assert bo.page.locator("#clock-deadline").is_visible()

            # The host pauses: bo's open page says so, and what it means, without a reload.
            ada.page.get_by_role("button", name="Pause the game").click()
            ada.page.wait_for_load_state()
            paused = bo.page.locator("#clock-paused")
            paused.wait_for()
            assert "You can still play" in (paused.text_content() or "")
            assert bo.page.locator("#clock-deadline").count() == 0
            bo.page.screenshot(path=str(SHOTS / "live-paused.png"))
            # ... and resumes: the deadline comes back.
            open_game(ada, url)
            ada.page.get_by_role("button", name="Resume the game").click()
            ada.page.wait_for_load_state()
            bo.page.locator("#clock-deadline").wait_for()
            assert bo.page.locator("#clock-paused").count() == 0
            assert still_the_same_page(bo.page)

            # A turn notice about the game reaches bo's open page read, and covers nothing.
            delivered = setup(site_env, "notify", "bo", str(game))
            assert delivered["read"].get("bo") is True, delivered  # read on arrival
            bo.page.wait_for_timeout(1500)  # the push has arrived (or never will)
            assert bo.page.locator("#notif-count").is_hidden()
            assert bo.page.locator(".toast").count() == 0
            assert uncovered(bo.page, '#actions-panel button[data-action="end_turn"]')
            assert uncovered(bo.page, "#turn-panel")
            bo.page.screenshot(path=str(SHOTS / "live-notice-read.png"))
            # The same notice reaches no other page either while the game is open on one
            # (issue 23's router: nothing on any channel while the game is open on any device).
            lobby = bo.page.context.new_page()
            lobby.goto(f"{site}/")
            lobby.wait_for_timeout(1000)  # its notifications socket is open
            setup(site_env, "notify", "bo", str(game))
            lobby.wait_for_timeout(1500)
            assert lobby.locator(".toast").count() == 0
            assert lobby.locator("#notif-count").is_hidden()
            lobby.close()

            # The last hero escapes: both pages show the end, live.
            unreloaded(ada.page)
            unreloaded(bo.page)
            assert setup(site_env, "win", str(game))["outcome"] == "heroes"
            for player in (ada, bo):
                page = player.page
                page.locator("#outcome-banner #end-replay").wait_for()
                assert page.locator("#outcome-title").text_content() == "The heroes have won!"
                seed = page.locator("#outcome-banner #end-seed").text_content()
                assert seed == "7"
                assert page.locator("#seed-revealed").text_content() == "7"
                assert page.locator("#replay-link").is_visible()
                assert page.locator("#end-replay").get_attribute("href") == f"/games/{game}/replay/"
                stories = page.locator("#outcome-banner .result-story")
                assert stories.count() == 4
                assert "Lost no Body" in (stories.first.text_content() or "")
                assert page.locator("#clock-bar").count() == 0
                assert still_the_same_page(page)
                page.screenshot(path=str(SHOTS / f"live-end-{player.name}.png"))
            assert not errors, errors
        finally:
            browser.close()
