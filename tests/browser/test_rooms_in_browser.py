"""The new-room form in Chromium against a real `config.server`: a time bank's amounts show only
while the bank clock is chosen, and the form fits a phone (every choice readable, nothing
scrolling sideways).

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

WIDEST_CHOICE_FITS = """select => {
  const style = getComputedStyle(select);
  const pen = document.createElement("canvas").getContext("2d");
  pen.font = `${style.fontSize} ${style.fontFamily}`;
  const widest = Math.max(...[...select.options].map((o) => pen.measureText(o.text).width));
  const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return widest <= room - 20;
}"""
BANK_FIELDS = ("Time bank to start with", "Added after each turn", "Bank at most")


def test_the_time_bank_amounts_show_only_for_the_bank_clock(
    chromium: str,  # noqa: F811
    site: str,  # noqa: F811
    site_env: dict[str, str],  # noqa: F811
) -> None:
    setup(site_env, "start")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            page: Any = browser.new_context(viewport=SIZES["phone"]).new_page()
            log_in(Player(name="ada", page=page), site)
            page.goto(f"{site}/rooms/new?game=zagor")
            for label in BANK_FIELDS:
                assert page.get_by_label(label).is_hidden(), f"{label} shows with a fixed clock"

            page.get_by_label("A time bank per player").check()
            for label in BANK_FIELDS:
                assert page.get_by_label(label).is_visible(), f"{label} hidden for a time bank"
            page.get_by_label("The same limit for every turn").check()
            assert page.get_by_label(BANK_FIELDS[0]).is_hidden()

            sideways = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            assert sideways <= 0, "the new-room form scrolls sideways on a phone"
            rounds = page.get_by_label("Round limit")
            # A select shows its choice on one line: every choice's text fits beside the arrow.
            assert rounds.evaluate(WIDEST_CHOICE_FITS), "a round limit choice is cut off"
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / "room-create-zagor-phone.png"), full_page=True)
        finally:
            browser.close()
