"""The quest workshop's map preview in real Chromium: a staff member opens it from the quest list
and the play page's own board code draws Zargon's view of the quest's start (every square, every
monster), with nothing blocked by the Content-Security-Policy and no script error.

The screenshot is saved as var/screenshots/quest-preview.png (not committed).
"""

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import sync_playwright

from apps.games.heroquest.engine.questfile import QUESTS_DIR, parse_quest_file
from tests.browser.test_play_in_browser import (  # noqa: F401 (fixtures)
    CHROMIUM_ARGS,
    PASSWORD,
    chromium,
    refuse_policy_violations,
    site_env,
)
from tests.servers import ROOT, web_server

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = ROOT / "var" / "screenshots"
SUPERUSER = ("--username=root", "--email=root@example.com")


@pytest.fixture
def workshop_site(site_env: dict[str, str], tmp_path: Path) -> Iterator[str]:  # noqa: F811
    """The site (shipped quests loaded) with a superuser `root`; yields its base URL."""
    env = {**site_env, "DJANGO_SUPERUSER_PASSWORD": PASSWORD}
    subprocess.run(
        [sys.executable, "manage.py", "createsuperuser", "--noinput", *SUPERUSER],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    with web_server(env, tmp_path) as base:
        yield base


def test_the_preview_draws_zargons_start_board(chromium: str, workshop_site: str) -> None:  # noqa: F811
    quest = parse_quest_file(QUESTS_DIR / "ashen_vault.yaml")
    problems: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            page: Any = browser.new_page(viewport={"width": 1366, "height": 900})
            page.set_default_timeout(15000)
            refuse_policy_violations(page, problems)
            page.on("pageerror", lambda error: problems.append(str(error)))
            page.goto(f"{workshop_site}/admin/login/")
            page.fill("#id_username", "root")
            page.fill("#id_password", PASSWORD)
            page.click("input[type=submit]")
            page.goto(f"{workshop_site}/admin/quests/questdefinition/")
            page.get_by_role("row", name="The Ashen Vault").get_by_role(
                "link", name="Map preview"
            ).click()

            page.wait_for_selector("svg#board[data-drawn=true]", state="attached")
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / "quest-preview.png"), full_page=True)
            squares = page.locator("svg#board .squares rect.sq").count()
            monsters = page.locator("svg#board .figure.monster").count()
            heroes = page.locator("svg#board .figure.hero").count()

            # A broken file uploaded from the add page: its problems, by line, under the upload.
            page.goto(f"{workshop_site}/admin/quests/questdefinition/add/")
            broken = b"name: Broken Keep\nslug: broken_keep\nmap: 7\n"
            page.set_input_files(
                "#id_upload",
                {"name": "broken_keep.yaml", "mimeType": "application/yaml", "buffer": broken},
            )
            page.click("input[name=_save]")
            page.wait_for_selector(".errorlist")
            page.screenshot(path=str(SHOTS / "quest-upload-problems.png"), full_page=True)
            listed = page.locator(".errorlist li").all_text_contents()
        finally:
            browser.close()

    assert squares == len(quest.square_area)
    assert monsters == len(quest.monsters)  # Zargon's view: the unrevealed ones too
    assert heroes == 4
    assert "broken_keep.yaml line 3, map: should be a valid string, got 7" in listed
    assert problems == []
