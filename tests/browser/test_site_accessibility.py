"""Every page of the site through axe-core (installed by pyproject: axe-playwright-python), at
desktop and phone sizes, against a real `config.server`: no serious or critical violation. Also the
things around the game a phone user meets first: a one-row header, the skip link, the menu.

Screenshots of the logged-in phone pages are saved under var/screenshots/ (not committed).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import sync_playwright

from tests.browser.test_play_in_browser import (  # noqa: F401 (fixtures)
    CHROMIUM_ARGS,
    Player,
    chromium,
    open_game,
    sign_up,
    site,
    site_env,
    take_seat,
)
from tests.servers import ROOT

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = ROOT / "var" / "screenshots"
# The rules: the list of games, each game's rules for players and its complete reference.
RULES = (
    "/rules/",
    "/rules/heroquest/",
    "/rules/zagor/",
    "/rules/heroquest/reference/",
    "/rules/zagor/reference/",
)
SIZES: dict[str, Any] = {
    "desktop": {"width": 1366, "height": 900},
    "phone": {"width": 390, "height": 844},
}


def serious_violations(page: Any) -> list[str]:
    results = Axe().run(page)
    return [
        f"{page.url} {v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v.get("impact") in ("serious", "critical")
    ]


def check(page: Any, url: str, found: list[str]) -> None:
    response = page.goto(url)
    assert response is not None
    found.extend(serious_violations(page))


def test_axe_finds_no_serious_violation_on_any_page(chromium: str, site: str) -> None:  # noqa: F811

    found: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            players = {}
            for name, size in (("ada", "desktop"), ("bo", "phone")):
                phone = size == "phone"
                context = browser.new_context(
                    viewport=SIZES[size], is_mobile=phone, has_touch=phone
                )
                context.set_default_timeout(15000)
                players[name] = Player(name=name, page=context.new_page())
            ada, bo = players["ada"], players["bo"]

            # Visitors: the welcome page, logging in, signing up, the rules, a missing page.
            for path in ("/", "/accounts/login/", "/accounts/signup/", *RULES, "/no/such/"):
                check(ada.page, f"{site}{path}", found)
                check(bo.page, f"{site}{path}", found)
            for player in (ada, bo):
                sign_up(player, site)

            # Ada opens a two-seat room; Bo joins by the invite link on his phone.
            ada.page.goto(f"{site}/rooms/new")
            found.extend(serious_violations(ada.page))
            ada.page.fill("#id_name", "Axe table")
            ada.page.select_option("#id_seats", "2")
            ada.page.click("form[action$='/rooms/new'] button[type=submit]")
            ada.page.wait_for_load_state()
            room_url = ada.page.url
            take_seat(ada, 1)
            found.extend(serious_violations(ada.page))
            bo.page.goto(ada.page.input_value("#invite-url"))
            take_seat(bo, 2)
            found.extend(serious_violations(bo.page))
            for path in ("/", "/accounts/profile/", "/campaigns/", "/notifications/", "/rules/"):
                check(ada.page, f"{site}{path}", found)
                check(bo.page, f"{site}{path}", found)

            # The skip link is the first stop of the keyboard and leads to the content.
            ada.page.goto(f"{site}/")
            ada.page.keyboard.press("Tab")
            assert ada.page.evaluate("document.activeElement.className") == "skip-link"
            ada.page.keyboard.press("Enter")
            assert ada.page.evaluate("document.activeElement.id") == "main"

            # The phone header is one row: a bell and a menu instead of every link.
            bo.page.goto(f"{site}/")
            header = bo.page.locator(".site-header").bounding_box()
            assert header and header["height"] <= 60
            bo.page.click(".nav-menu summary")
            assert bo.page.get_by_role("link", name="Campaigns").is_visible()
            found.extend(serious_violations(bo.page))

            # The game page, for both seats.
            ada.page.goto(room_url)
            ada.page.get_by_role("button", name="Launch").click()
            ada.page.wait_for_url(re.compile(r"/games/\d+/$"))
            game_url = ada.page.url
            for player in (ada, bo):
                open_game(player, game_url)
                found.extend(serious_violations(player.page))
            SHOTS.mkdir(parents=True, exist_ok=True)
            bo.page.screenshot(path=str(SHOTS / "site-game-phone.png"))
            bo.page.click("#start-begin")
            bo.page.screenshot(path=str(SHOTS / "site-game-phone-begun.png"))
            found.extend(serious_violations(bo.page))
        finally:
            browser.close()
    assert found == [], "\n".join(found)
