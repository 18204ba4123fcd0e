"""Standing orders in real Chromium: Sven queues his heroes' turn on the page (the Elf walks to a
square he picks on the map and searches for traps; the Wizard ends the turn where he stands),
sets the Elf's standing rules (drink at Body 3, search for secret doors on a timeout) and
leaves; Piet ends the Barbarian's and the Dwarf's turns; the orders play at once, step by step,
live on Piet's and Hana's pages; when Sven comes back the recap shows him what his seat saw, and
the board shows the result.

The site runs in a real `config.server` subprocess (the fixtures of test_play_in_browser.py) whose
Celery tasks run eagerly, so the orders task runs in the site as the worker would run it.
"""

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from tests.servers import web_server

from .test_play_in_browser import (  # noqa: F401 (chromium and site_env are fixtures)
    CHROMIUM_ARGS,
    Player,
    api_view,
    caught_up,
    chromium,
    open_game,
    refuse_policy_violations,
    sign_up,
    site_env,
    take_seat,
    wait_room_live,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ELF_GOAL = (1, 16)


@pytest.fixture
def eager_site(site_env: dict[str, str], tmp_path: Path) -> Iterator[str]:  # noqa: F811
    """The site with its Celery tasks run in-process: the orders play as a worker plays them."""
    env = {**site_env, "CELERY_TASK_ALWAYS_EAGER": "true", "AI_STEP_SECONDS": "0.3"}
    with web_server(env, tmp_path) as base:
        yield base


def token_at(player: Player, hero: str) -> tuple[str | None, str | None]:
    token = f'#board [data-hero="{hero}"] circle.hero-token'
    return player.page.get_attribute(token, "cx"), player.page.get_attribute(token, "cy")


def click_square(player: Player, square: tuple[int, int]) -> None:
    """Click the middle of a map square (through the board's own drawing transform)."""
    x, y = player.page.evaluate(
        """([x, y]) => {
            const svg = document.getElementById('board');
            const p = new DOMPoint(x + 0.5, y + 0.5).matrixTransform(svg.getScreenCTM());
            return [p.x, p.y];
        }""",
        list(square),
    )
    player.page.mouse.click(x, y)


def end_turn(player: Player, game_url: str) -> None:
    before = api_view(player, game_url)["version"]
    player.page.get_by_role("button", name="End turn").click()
    player.page.wait_for_function(
        "v => Number(document.getElementById('play').dataset.version) > v", arg=before
    )


def test_a_queued_turn_plays_live_when_the_turn_comes(
    chromium: str,  # noqa: F811
    eager_site: str,
) -> None:
    site = eager_site
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            people: list[tuple[Player, list[str]]] = []
            for name in ("hana", "piet", "sven"):
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                context.set_default_timeout(20000)
                person = Player(name=name, page=context.new_page())
                errors: list[str] = []
                person.page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
                refuse_policy_violations(person.page, errors)
                person.record_frames()
                sign_up(person, site)
                people.append((person, errors))
            (hana, hana_errors), (piet, _), (sven, sven_errors) = people

            hana.page.goto(f"{site}/rooms/new")
            hana.page.fill("#id_name", "Standing table")
            hana.page.select_option("#id_seats", "3")
            hana.page.click("form[action$='/rooms/new'] button[type=submit]")
            hana.page.wait_for_load_state()
            take_seat(hana, 1)
            invite = hana.page.input_value("#invite-url")
            wait_room_live(hana)
            for player, seat in ((piet, 2), (sven, 3)):
                player.page.goto(invite)
                take_seat(player, seat)
            launch = hana.page.get_by_role("button", name="Launch")
            launch.wait_for()
            launch.click()
            hana.page.wait_for_url(re.compile(r"/games/\d+/$"))
            game_url = hana.page.url
            for player in (hana, piet, sven):
                open_game(player, game_url)

            # Sven queues his heroes' next turn while the Barbarian and the Dwarf play.
            sven.page.get_by_role("button", name="Queue orders").click()
            elf = sven.page.locator('.orders-hero[data-hero="elf"]')
            elf.get_by_role("button", name="Pick a square").click()
            click_square(sven, ELF_GOAL)
            assert elf.locator(".orders-to").text_content() == "1,16"
            elf.get_by_label("What the elf does then").select_option("search_traps")
            elf.locator(".orders-drink").fill("3")  # and the standing rules beside the queue
            elf.get_by_label("What the elf does when its turn runs out").select_option(
                "search_secret_doors"
            )
            sven.page.get_by_role("button", name="Queue", exact=True).click()
            queued = sven.page.locator("#orders-queued li")
            sven.page.wait_for_function(
                "() => document.getElementById('orders-queued').textContent.includes('The Elf')"
            )
            assert [t.strip() for t in queued.all_text_contents()] == [
                "The Elf: walk to 1,16, then search for traps, then end the turn.",
                "The Wizard: end the turn where the hero stands.",
            ]
            mine = next(h for h in api_view(sven, game_url)["heroes"] if h["hero"] == "elf")
            assert mine["drink_at"] == 3 and mine["on_timeout"] == "search_secret_doors"
            before_elf = token_at(piet, "elf")
            sven.page.goto(f"{site}/")  # and he goes away

            # Piet ends his heroes' turns: Sven's orders play at once, live on the other pages.
            end_turn(piet, game_url)
            end_turn(piet, game_url)
            for _ in range(100):  # the last step: the Wizard's turn ends, the seat is done
                final = api_view(hana, game_url)
                if final["turn"]["seat"] != 3 and final["version"] > 2:
                    break
                hana.page.wait_for_timeout(200)
            caught_up(piet, final["version"])
            assert token_at(piet, "elf") != before_elf
            assert final["turn"]["seat"] != 3
            elf_square = next(h["position"] for h in final["heroes"] if h["hero"] == "elf")
            assert elf_square == list(ELF_GOAL)
            # Each step reached Hana's page as its own version, not one jump at the end.
            versions = {int(v) for v in re.findall(r'"version":\s*(\d+)', "".join(hana.frames))}
            caught_up(hana, final["version"])
            assert len([v for v in versions if v > 2]) >= 4, (versions, final["version"])

            # Sven comes back: the recap of what his seat saw, then the board as it is now.
            sven.page.goto(game_url)
            sven.page.wait_for_selector("#recap[open]")
            lines = sven.page.locator("#recap-lines li").all_text_contents()
            assert "The Elf moved 2 squares." in lines, lines
            assert sven.page.locator("#recap-board [data-hero]").count() == 4
            sven.page.get_by_role("button", name="Skip to now").click()
            sven.page.wait_for_selector("#recap", state="hidden")
            sven.page.wait_for_selector("#connection[data-state=live]")
            assert token_at(sven, "elf") == token_at(piet, "elf")
            assert sven.page.locator("#orders-queued li").first.text_content() == "Nothing queued."
            # The next visit has nothing to recap.
            sven.page.wait_for_timeout(500)
            sven.page.reload()
            sven.page.wait_for_selector("#connection[data-state=live]")
            sven.page.wait_for_timeout(1000)
            assert sven.page.locator("#recap[open]").count() == 0
            assert not sven_errors and not hana_errors, (sven_errors, hana_errors)
        finally:
            browser.close()
