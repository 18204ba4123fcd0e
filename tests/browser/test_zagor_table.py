"""Legend of Zagor's play page against the real engine, without a server
(tests/browser/zagor_harness.py): the positions a played game takes a long while to reach.

Runs Debian's Chromium at /usr/bin/chromium through Playwright; needs no server or database.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from apps.games.zagor import GAME

from .test_play_harness import browser  # noqa: F401  (the module's Chromium)
from .zagor_harness import ZagorTable

pytestmark = [pytest.mark.browser]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def open_page(browser: Any) -> Iterator[Callable[..., Any]]:  # noqa: F811
    """A new page at `viewport` (`touch`: a phone's touch screen); no script error may occur."""
    contexts: list[Any] = []
    errors: list[str] = []

    def opened(viewport: dict[str, int], *, touch: bool = False) -> Any:
        context = browser.new_context(viewport=viewport, is_mobile=touch, has_touch=touch)
        context.set_default_timeout(10000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        return page

    yield opened
    for context in contexts:
        context.close()
    assert not errors, errors


def seat_to_move(table: ZagorTable) -> int:
    (seat,) = GAME.seats_to_move(table.state)
    return int(seat)


def seqs_seen(table: ZagorTable, seat: int, kind: Callable[[dict[str, Any]], bool]) -> list[int]:
    return [e["seq"] for e in table.story(seat, 0, 10**6, None) if kind(e)]


def rolled(entry: dict[str, Any]) -> bool:
    return any(d["kind"] == "d10" for d in entry.get("dice") or [])


def turn_began(entry: dict[str, Any]) -> bool:
    return bool(entry["type"] == "turn")


def roll_then_turn(table: ZagorTable) -> bool:
    """A d10 was rolled, then another hero's turn began: the seat to move sees an old roll."""
    seat = seat_to_move(table)
    rolls, turns = seqs_seen(table, seat, rolled), seqs_seen(table, seat, turn_began)
    return bool(rolls) and turns[-1] > rolls[-1]


def roll_in_this_turn(table: ZagorTable) -> bool:
    seat = seat_to_move(table)
    rolls, turns = seqs_seen(table, seat, rolled), seqs_seen(table, seat, turn_began)
    return bool(rolls) and rolls[-1] > turns[-1]


@pytest.mark.parametrize(
    ("position", "viewport", "earlier"),
    [(roll_then_turn, PHONE, True), (roll_in_this_turn, DESKTOP, False)],
    ids=["rolled-in-an-earlier-turn", "rolled-this-turn"],
)
def test_the_tray_shows_the_last_roll_and_says_when_it_was_made_before_this_turn(
    open_page: Any, position: Callable[[ZagorTable], bool], viewport: dict[str, int], earlier: bool
) -> None:
    table = ZagorTable(heroes=2)
    table.bot_until(position)
    page = open_page(viewport)
    table.open(page, seat_to_move(table))
    tray = page.locator("#dice-tray")
    assert tray.is_visible()
    assert tray.locator("svg.die-d10").count() >= 1
    text = tray.text_content() or ""
    assert "The last roll" in text
    assert ("Rolled before this turn began." in text) is earlier
    assert ("earlier" in (tray.get_attribute("class") or "").split()) is earlier


def board_width(page: Any) -> float:
    return float(page.evaluate("document.getElementById('board').getBoundingClientRect().width"))


def space_px(page: Any) -> float:
    """How far apart spaces are drawn (a board unit), in CSS pixels."""
    return float(
        page.evaluate(
            "(() => { const svg = document.getElementById('board');"
            " return svg.getBoundingClientRect().width / svg.viewBox.baseVal.width; })()"
        )
    )


def room_name_px(page: Any) -> float:
    """How tall a room's name is drawn on screen, in CSS pixels."""
    return float(
        page.evaluate("document.querySelector('#board .room-name').getBoundingClientRect().height")
    )


def test_on_a_phone_the_board_opens_fitted_and_zooms_until_the_names_are_readable(
    open_page: Any,
) -> None:
    table = ZagorTable(heroes=2)  # level 1 in play, its rooms named on the board
    page = open_page(PHONE, touch=True)
    table.open(page, seat_to_move(table))
    # It opens with a space wide enough for a finger; Fit shows the whole level in its box.
    scroller = page.locator("#board-scroll").bounding_box()
    assert scroller and scroller["width"] <= PHONE["width"]
    assert space_px(page) >= 36
    page.click("#zoom-fit")
    fitted = board_width(page)
    assert fitted <= scroller["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    small = room_name_px(page)
    for _ in range(4):
        page.click("#zoom-in")
    assert board_width(page) >= fitted * 2.3  # 1.25 to the fourth: 2.44
    assert room_name_px(page) >= small * 2.3 and room_name_px(page) >= 11
    overflow = page.evaluate(
        "(() => { const s = document.getElementById('board-scroll');"
        " return s.scrollWidth - s.clientWidth; })()"
    )
    assert overflow > 0, "a zoomed board scrolls in its box"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.click("#zoom-fit")
    assert abs(board_width(page) - fitted) <= 1
