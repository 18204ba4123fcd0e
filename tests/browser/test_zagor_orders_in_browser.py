"""Legend of Zagor's standing orders in real Chromium: the hero who plays second queues his next
turn on the page (walk toward a space he taps on the board: it is ringed there) and leaves; the
first player ends his turn; the orders play at once, live on the first player's page: the hero
walks two spaces and turns a tile up, and there the orders stop and leave the rest of the turn to
their owner. When he comes back the recap shows him what his seat saw, the panel says why his
orders stopped, and the board shows his hero where the orders took him.

The site runs in a real `config.server` subprocess whose Celery tasks run eagerly
(tests/browser/test_orders_in_browser.py's `eager_site`), so the orders task runs in the site as
the worker would run it.
"""

import re
from typing import Any

import pytest
from playwright.sync_api import sync_playwright

from apps.games.zagor.scenarios import shipped

from .test_orders_in_browser import eager_site  # noqa: F401 (a fixture)
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


def two_links_on(view: dict[str, Any], start: str) -> str:
    """A corridor two links from `start` through a corridor (a move's reach): face down now."""
    links: dict[str, set[str]] = {}
    for a, b in view["layout"]["links"]:
        links.setdefault(a, set()).add(b)
        links.setdefault(b, set()).add(a)
    corridor = {s for s, v in view["spaces"].items() if "tile" in v}
    for first in sorted(links[start] & corridor):
        for second in sorted(links[first] & corridor):
            if second != start:
                return second
    raise AssertionError("no corridor two links on")


def token_at(player: Player, hero: str) -> tuple[str | None, str | None]:
    token = f'#board [data-hero="{hero}"] circle.hero-token'
    return player.page.get_attribute(token, "cx"), player.page.get_attribute(token, "cy")


def test_a_queued_zagor_turn_plays_live_when_the_turn_comes(
    chromium: str,  # noqa: F811
    eager_site: str,  # noqa: F811
) -> None:
    site = eager_site
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            people: list[tuple[Player, list[str]]] = []
            for name in ("ilse", "joris"):
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                context.set_default_timeout(20000)
                person = Player(name=name, page=context.new_page())
                errors: list[str] = []
                person.page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
                refuse_policy_violations(person.page, errors)
                person.record_frames()
                sign_up(person, site)
                people.append((person, errors))
            (ilse, ilse_errors), (joris, joris_errors) = people

            ilse.page.goto(f"{site}/rooms/new?game=zagor")
            ilse.page.fill("#id_name", "Orders at the Orb")
            ilse.page.select_option("#id_seats", "2")
            ilse.page.select_option("#id_quest", label=shipped("enchanted_orb").name)
            ilse.page.click("form[action$='/rooms/new'] button[type=submit]")
            ilse.page.wait_for_load_state()
            take_seat(ilse, 1)
            invite = ilse.page.input_value("#invite-url")
            wait_room_live(ilse)
            joris.page.goto(invite)
            take_seat(joris, 2)
            launch = ilse.page.get_by_role("button", name="Launch")
            launch.wait_for()
            launch.click()
            ilse.page.wait_for_url(re.compile(r"/games/\d+/$"))
            game_url = ilse.page.url
            for player in (ilse, joris):
                open_game(player, game_url)

            view = api_view(ilse, game_url)
            first = view["turn"]["seat"]
            mover, waiter = (ilse, joris) if first == 1 else (joris, ilse)
            waiter_errors = joris_errors if waiter is joris else ilse_errors
            mine = api_view(waiter, game_url)
            hero = mine["me"]["hero"]
            start = next(h["space"] for h in mine["heroes"] if h["hero"] == hero)
            goal = two_links_on(mine, start)

            # The waiting player queues his hero's next turn: a space tapped on the board.
            waiter.page.get_by_role("button", name="Queue orders").click()
            waiter.page.get_by_role("button", name="Pick a space").click()
            waiter.page.click(f'#board [data-space="{goal}"] .hit')
            label = waiter.page.locator(".orders-to").text_content() or ""
            assert label.startswith("corridor "), label
            waiter.page.get_by_role("button", name="Queue", exact=True).click()
            waiter.page.wait_for_function(
                "() => document.getElementById('orders-queued').textContent.includes('walk toward')"
            )
            items = waiter.page.locator("#orders-queued li")
            queued = [t.strip() for t in items.all_text_contents()]
            name = next(h["name"] for h in mine["heroes"] if h["hero"] == hero).split()[0]
            assert queued == [f"{name}: walk toward {label}, then end the turn."]
            ring = f'#board .order-target[data-queued="{goal}"]'
            waiter.page.wait_for_selector(ring, state="attached")
            # Nobody else sees them: not on the other page, not in its view.
            assert mover.page.locator("#board .order-target").count() == 0
            before = token_at(mover, hero)
            waiter.page.goto(f"{site}/")  # and he goes away

            # The first player ends his turn: the orders play at once, live on his page.
            version = api_view(mover, game_url)["version"]
            mover.page.get_by_role("button", name="End turn", exact=True).click()
            for _ in range(100):
                final = api_view(mover, game_url)
                moved = next(h["space"] for h in final["heroes"] if h["hero"] == hero) != start
                if moved and final["version"] >= version + 2:
                    break
                mover.page.wait_for_timeout(200)
            assert moved, "the orders did not play"
            caught_up(mover, final["version"])
            assert token_at(mover, hero) != before
            assert final["turn"]["hero"] == hero  # stopped at the tile: the rest is his

            # He comes back: the recap of what his seat saw, then the board as it is now.
            waiter.page.goto(game_url)
            waiter.page.wait_for_selector("#recap[open]")
            lines = waiter.page.locator("#recap-lines li").all_text_contents()
            assert f"{name} moved 2 spaces." in lines, lines
            assert waiter.page.locator("#recap-board [data-hero]").count() == 2
            waiter.page.get_by_role("button", name="Skip to now").click()
            waiter.page.wait_for_selector("#recap", state="hidden")
            waiter.page.wait_for_selector("#connection[data-state=live]")
            assert token_at(waiter, hero) == token_at(mover, hero)
            note = waiter.page.locator("#orders-note")
            note.wait_for()
            assert (note.text_content() or "").startswith(
                "Your last orders stopped: A tile was turned up"
            ), note.text_content()
            assert items.first.text_content() == "Nothing queued."
            assert waiter.page.locator("#board .order-target").count() == 0
            assert not waiter_errors and not ilse_errors and not joris_errors
        finally:
            browser.close()
