"""The lobby in Chromium against a real `config.server`: at desktop and phone widths every game's
Play button and every open room's Join button is on screen inside its card, and the page never
scrolls sideways (on a phone each row is a block, its values under their labels).

Screenshots go to var/screenshots/ (not committed).
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import sync_playwright

from tests.browser.test_play_in_browser import (  # noqa: F401 (fixtures)
    CHROMIUM_ARGS,
    Player,
    chromium,
    site,
    site_env,
)
from tests.browser.test_profile_in_browser import SHOTS, SIZES
from tests.browser.test_table_live import log_in, setup

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def inside(inner: dict[str, float], outer: dict[str, float]) -> bool:
    return inner["x"] >= outer["x"] and inner["x"] + inner["width"] <= outer["x"] + outer["width"]


def test_every_play_and_join_button_is_on_screen_at_every_width(
    chromium: str,  # noqa: F811
    site: str,  # noqa: F811
    site_env: dict[str, str],  # noqa: F811
) -> None:
    setup(site_env, "start")  # ada and bo play a game
    setup(site_env, "open_room", "bo")  # and bo waits for players in another
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            page: Any = browser.new_context(viewport=SIZES["desktop"]).new_page()
            ada = Player(name="ada", page=page)
            log_in(ada, site)
            SHOTS.mkdir(parents=True, exist_ok=True)
            for size, viewport in SIZES.items():
                page.set_viewport_size(viewport)
                page.goto(f"{site}/")
                for card_id, button in (("#my-games", "Play"), ("#open-rooms", "Join")):
                    card = page.locator(card_id)
                    link = card.get_by_role("link", name=button, exact=True)
                    assert link.count() == 1, f"no {button} button in {card_id} at {size}"
                    link.scroll_into_view_if_needed()
                    box, at = card.bounding_box(), link.bounding_box()
                    assert box and at and inside(at, box), (
                        f"{button} is outside its card at {size}: {at} in {box}"
                    )
                    assert at["x"] + at["width"] <= viewport["width"], f"{button} off screen"
                sideways = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
                assert sideways <= 0, f"the lobby scrolls sideways at {size}"
                page.screenshot(path=str(SHOTS / f"lobby-{size}.png"), full_page=True)
        finally:
            browser.close()
