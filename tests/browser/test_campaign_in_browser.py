"""A campaign moves on from the Ashen Vault to the Smoke Warrens in real Chromium.

The first quest is won through the real services (tests/browser/campaign_setup.py, run in the
site's environment); then, in the browser: the campaign page shows the saga (done, next, locked),
the owner buys a helmet at the armory, starts the next quest from the campaign page, the party
takes its seats and the game of the Smoke Warrens starts with the helmet on the Barbarian.
The campaign and armory pages also go through axe-core.
"""

import json
import re
import subprocess
import sys

import pytest
from playwright.sync_api import expect, sync_playwright

from tests.browser.test_play_in_browser import (  # noqa: F401 (fixtures)
    CHROMIUM_ARGS,
    Player,
    api_view,
    chromium,
    open_game,
    sign_up,
    site,
    site_env,
    take_seat,
    wait_room_live,
)
from tests.browser.test_site_accessibility import SHOTS, serious_violations
from tests.servers import ROOT

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def win_the_first_quest(env: dict[str, str]) -> int:
    done = subprocess.run(
        [sys.executable, "-m", "tests.browser.campaign_setup", "ada", "bo"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    campaign: int = json.loads(done.stdout.strip().splitlines()[-1])["campaign"]
    return campaign


def test_a_campaign_goes_from_the_ashen_vault_to_the_next_quest_through_the_armory(
    chromium: str,  # noqa: F811
    site: str,  # noqa: F811
    site_env: dict[str, str],  # noqa: F811
) -> None:
    found: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            players = {}
            for name in ("ada", "bo"):
                context = browser.new_context()
                context.set_default_timeout(15000)
                players[name] = Player(name=name, page=context.new_page())
                sign_up(players[name], site)
            ada, bo = players["ada"], players["bo"]
            campaign = win_the_first_quest(site_env)

            # The campaign page: the saga in order, the first quest done.
            page = ada.page
            page.goto(f"{site}/campaigns/{campaign}/")
            expect(page.locator("#quest-ashen_vault .status")).to_have_text("done")
            expect(page.locator("#quest-smoke_warrens .status")).to_have_text("next")
            expect(page.locator("#quest-sealed_forge .status")).to_have_text("locked")
            expect(page.locator("#quest-cinder_throne .status")).to_have_text("locked")
            expect(page.locator("#sheet-barbarian td").nth(3)).to_have_text("150")
            found.extend(serious_violations(page))

            # The armory: the Barbarian buys a helmet with his share and the gold he found.
            page.locator("#sheet-barbarian").get_by_role("link", name="Armory").click()
            page.locator("#item-helmet").get_by_role("button", name="Buy").click()
            expect(page.locator("#gold")).to_have_text("25")
            expect(page.get_by_role("button", name="Sell helmet")).to_be_visible()
            found.extend(serious_violations(page))

            # Back on the campaign page, the owner starts the next quest: the Smoke Warrens.
            page.get_by_role("link", name=re.compile("The Ember Road")).click()
            expect(page.locator("#sheet-barbarian")).to_contain_text("helmet")
            # The owner bought it for Bo's hero: the ledger says so, first, by name (issue 21).
            expect(page.locator(".owner-powers")).to_contain_text(
                "As the campaign's owner, ada (you) can buy, sell and give for any hero"
            )
            newest = page.locator("#ledger tbody tr").first
            expect(newest).to_contain_text("Bought the helmet for 125 gold (worn)")
            expect(newest.locator("td").nth(1)).to_have_text("ada")
            expect(newest.locator("td").nth(2)).to_have_text("Brakka the Barbarian")
            expect(page.locator("#ledger tbody tr").nth(1)).to_contain_text(
                "Came back from the Ashen Vault (won)"
            )
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.locator("#ledger").screenshot(path=str(SHOTS / "campaign-ledger.png"))
            page.fill("#id_name", "Into the smoke")
            page.select_option("#id_seats", "2")
            page.get_by_role("button", name="Start next quest").click()
            page.wait_for_url(re.compile(r"/rooms/\d+/$"))
            room_url = page.url
            expect(page.locator(".facts")).to_contain_text("The Smoke Warrens")

            # The party sits down and the quest starts: a campaign room is joined by its invite.
            take_seat(ada, 1)
            bo.page.goto(page.input_value("#invite-url"))
            take_seat(bo, 2)
            wait_room_live(bo)
            page.goto(room_url)
            page.get_by_role("button", name="Launch").click()
            page.wait_for_url(re.compile(r"/games/\d+/$"))
            # Bo's room page takes him to the game by itself (a goto of ours would race it).
            bo.page.wait_for_url(page.url)
            open_game(bo, page.url)
            view = api_view(bo, page.url)
            barbarian = next(h for h in view["heroes"] if h["hero"] == "barbarian")
            assert (barbarian["armour"], barbarian["gold"]) == (["helmet"], 25)

            # The campaign page now sends the party to its game.
            page.goto(f"{site}/campaigns/{campaign}/")
            expect(page.locator("#quest-smoke_warrens")).to_contain_text("Go to Into the smoke")
        finally:
            browser.close()
    assert found == [], "\n".join(found)
