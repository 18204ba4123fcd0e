"""The profile page in Chromium against a real `config.server` (issue 21): the API-token table
stays inside its card at desktop and phone widths (a row of its own on a wide screen, one block
per token on a phone), and the page never scrolls sideways.

Screenshots go to var/screenshots/ (not committed).
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import sync_playwright

from tests.browser.test_play_in_browser import (  # noqa: F401 (fixtures)
    CHROMIUM_ARGS,
    PASSWORD,
    Player,
    chromium,
    sign_up,
    site,
    site_env,
)
from tests.servers import ROOT

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = ROOT / "var" / "screenshots"
SIZES: dict[str, Any] = {
    "desktop": {"width": 1366, "height": 900},
    "tablet": {"width": 800, "height": 1000},
    "phone": {"width": 390, "height": 844},
}


def test_the_token_table_fits_its_card_at_every_width(chromium: str, site: str) -> None:  # noqa: F811
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport=SIZES["desktop"])
            player = Player(name="tokenbot", page=context.new_page())
            sign_up(player, site)
            for _ in range(3):  # as a bot gets them
                response = player.page.request.post(
                    f"{site}/api/auth/token",
                    data={"username": player.name, "password": PASSWORD},
                )
                assert response.ok, response.text()
            SHOTS.mkdir(parents=True, exist_ok=True)
            for size, viewport in SIZES.items():
                player.page.set_viewport_size(viewport)
                player.page.goto(f"{site}/accounts/profile/")
                card = player.page.locator("#api-tokens")
                card.scroll_into_view_if_needed()
                assert player.page.locator("#api-tokens tbody tr").count() == 3
                box, table = card.bounding_box(), player.page.locator(".token-table").bounding_box()
                assert box and table
                assert (
                    table["x"] >= box["x"]
                    and table["x"] + table["width"] <= box["x"] + box["width"]
                ), f"the token table overflows its card at {size}: {table} in {box}"
                sideways = player.page.evaluate(
                    "document.documentElement.scrollWidth - window.innerWidth"
                )
                assert sideways <= 0, f"the profile scrolls sideways at {size}"
                revoke = player.page.get_by_role("button", name="Revoke api").first
                assert revoke.is_visible()
                card.screenshot(path=str(SHOTS / f"profile-tokens-{size}.png"))
        finally:
            browser.close()
