"""A spectator in real Chromium: the host opens a room that allows spectators, two players launch
the quest, and a third person finds it in the lobby, watches the board, and sees a player's move
appear without reloading. The spectator is offered no action and no chat box, and nothing in
their page source, DOM, API answers or websocket frames names a hidden thing or a seat's secret.

The site runs in a real `config.server` subprocess (the fixtures of test_play_in_browser.py).
"""

import json
import re

import pytest
from playwright.sync_api import sync_playwright

from tests.servers import ROOT

from .test_play_in_browser import (  # noqa: F401 (chromium and site are fixtures)
    CHROMIUM_ARGS,
    Player,
    act_and_wait,
    api_view,
    assert_hero_seat_clean,
    caught_up,
    chromium,
    highlighted,
    open_game,
    refuse_policy_violations,
    sign_up,
    site,
    site_env,
    take_seat,
    wait_room_live,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PRIVATE = ('"spells"', '"potions"', '"gold"', '"artifacts"', '"auto_drink"', '"notes"')


def token_at(player: Player, hero: str) -> tuple[str | None, str | None]:
    token = f'#board [data-hero="{hero}"] circle.hero-token'
    return player.page.get_attribute(token, "cx"), player.page.get_attribute(token, "cy")


def test_a_spectator_watches_a_move_live_and_sees_nothing_hidden(
    chromium: str,  # noqa: F811
    site: str,  # noqa: F811
) -> None:
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            people: list[tuple[Player, list[str]]] = []
            for name in ("hana", "piet", "sven"):
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                context.set_default_timeout(15000)
                person = Player(name=name, page=context.new_page())
                errors: list[str] = []
                person.page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
                refuse_policy_violations(person.page, errors)
                person.record_frames()
                sign_up(person, site)
                people.append((person, errors))
            (host, _), (piet, _), (sven, sven_errors) = people

            # The host opens a two-seat room that lets spectators watch.
            host.page.goto(f"{site}/rooms/new")
            host.page.fill("#id_name", "Open table")
            host.page.select_option("#id_seats", "2")
            host.page.check("#id_allow_spectators")
            host.page.click("form[action$='/rooms/new'] button[type=submit]")
            host.page.wait_for_load_state()
            take_seat(host, 1)
            invite = host.page.input_value("#invite-url")
            wait_room_live(host)
            piet.page.goto(invite)
            take_seat(piet, 2)
            launch = host.page.get_by_role("button", name="Launch")
            launch.wait_for()
            launch.click()
            host.page.wait_for_url(re.compile(r"/games/\d+/$"))
            game_url = host.page.url
            open_game(host, game_url)
            piet.page.wait_for_url(game_url)
            open_game(piet, game_url)

            # Sven has no seat: the lobby offers the quest to watch.
            sven.page.goto(f"{site}/")
            sven.page.locator("#watch-games").get_by_role("link", name=re.compile("^Watch")).click()
            sven.page.wait_for_url(game_url)
            response = sven.page.reload()
            assert response is not None and response.ok
            sven.sources.append(response.text())
            sven.page.wait_for_selector("#connection[data-state=live]")
            sven.page.evaluate("window.__not_reloaded = true")

            # He sees the board, no action and no chat box.
            assert sven.page.locator("#board [data-hero]").count() == 4
            assert sven.page.locator("#actions-panel button").count() == 0
            assert "spectators" in (sven.page.text_content("#actions-panel") or "")
            assert sven.page.locator("#chat-form").count() == 0
            assert sven.page.locator("#chat-readonly").is_visible()
            assert sven.page.locator("#spectators-form").count() == 0

            # Piet rolls and moves the Barbarian; Sven's board follows without a reload.
            before = token_at(sven, "barbarian")
            view = act_and_wait(
                piet,
                game_url,
                lambda: piet.page.get_by_role("button", name="Roll for movement").click(),
            )
            square = highlighted(piet)[0]
            key = f"{square[0]},{square[1]}"
            view = act_and_wait(
                piet,
                game_url,
                lambda: piet.page.locator(
                    f'#board .hl-move[data-square="{key}"], #board .hl-reach[data-square="{key}"]'
                ).first.click(force=True),
            )
            caught_up(sven, view["version"])
            assert token_at(sven, "barbarian") != before
            assert sven.page.evaluate("window.__not_reloaded") is True
            assert sven.page.locator("#actions-panel button").count() == 0

            # Nothing hidden and nothing private reached him, by any road.
            zargon_view = api_view(host, game_url)
            assert_hero_seat_clean(sven, zargon_view, game_url)
            spectator_view = api_view(sven, game_url)
            assert spectator_view["role"] == "spectator"
            texts = [*sven.sources, sven.page.content(), json.dumps(spectator_view), *sven.frames]
            for text in texts:
                assert not [p for p in PRIVATE if p in text], text[:200]
            frames = [json.loads(f) for f in sven.frames]
            versions = [f["version"] for f in frames if f.get("type") == "view"]
            assert versions and max(versions) == view["version"]
            assert not sven_errors, sven_errors

            # The host stops spectators: Sven's socket closes and the game is gone for him.
            host.page.get_by_role("button", name="Stop spectators watching").click()
            host.page.wait_for_load_state()
            # He is told the host closed the table, not "Offline, retrying" forever (issue 21).
            sven.page.wait_for_selector("#connection[data-state=closed]")
            told = sven.page.text_content("#play-error-text") or ""
            assert "The host closed this table to spectators" in told
            assert "Offline" not in (sven.page.text_content("#connection") or "")
            sven.page.screenshot(path=str(ROOT / "var" / "screenshots" / "spectator-closed.png"))
            gone = sven.page.request.get(game_url)
            assert gone.status == 404
        finally:
            browser.close()
