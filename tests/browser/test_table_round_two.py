"""The table, round two (issue 21), against the real engine in Chromium (tests/browser/harness.py):
clicking an adjacent monster asks before attacking (as a far move does; the profile's setting
turns it off), a phone turn is played by taps on squares of a playable size, and monsters read
"Orc", "Orc 2" on the board, its cards and buttons, never by an id.

Screenshots go to var/screenshots/ (not committed).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from apps.games.heroquest.engine import State, load_quest, new_game

from .harness import ZARGON, EngineTable, explore_until, legal, seat_on_turn, wait_idle
from .test_play_table import (  # noqa: F401 (browser and page are fixtures)
    SHOTS,
    browser,
    click_square,
    in_viewport,
    open_page,
    page,
    square_px,
)

pytestmark = [pytest.mark.browser]


def next_to_a_monster() -> tuple[State, dict[str, Any]]:
    """A hero's turn with an attack on an adjacent monster among its legal actions."""

    def can_attack(state: State) -> bool:
        return any(a["type"] == "attack" for a in legal(state, seat_on_turn(state)))

    state = explore_until(new_game(load_quest("ashen_vault"), 2, 7), can_attack)
    attack = next(a for a in legal(state, 2) if a["type"] == "attack")
    return state, attack


def monster_square(table: EngineTable, monster: str) -> str:
    m = next(m for m in table.view(2)["monsters"] if m["id"] == monster)
    return f"{m['position'][0]},{m['position'][1]}"


def test_clicking_an_adjacent_monster_asks_before_attacking(page: Any) -> None:  # noqa: F811
    state, attack = next_to_a_monster()
    table = EngineTable(state)
    table.open(page, 2)
    before = table.version
    square = monster_square(table, attack["target"])
    click_square(page, square)
    bar = page.locator("#move-confirm")
    bar.wait_for(state="visible")
    assert table.version == before, "the click attacked without asking"
    assert "Attack the " in (bar.text_content() or "")
    assert page.locator("#monster-card").is_visible()  # the card can be read first
    page.screenshot(path=str(SHOTS / f"attack-confirm-{page.size}.png"))
    page.locator("#move-confirm-cancel").click()
    assert bar.is_hidden() and table.version == before
    click_square(page, square)
    bar.wait_for(state="visible")
    page.locator("#attack-confirm-go").click()
    wait_idle(page, before + 1)
    assert table.posted[-1] == (2, attack)


def test_the_setting_off_attacks_at_once(page: Any) -> None:  # noqa: F811
    state, attack = next_to_a_monster()
    table = EngineTable(state)
    table.confirm = False
    table.open(page, 2)
    before = table.version
    click_square(page, monster_square(table, attack["target"]))
    wait_idle(page, before + 1)
    assert table.posted[-1] == (2, attack)


def test_a_phone_turn_is_played_by_taps_on_playable_squares(browser: Any) -> None:  # noqa: F811
    phone = open_page(browser, "phone")
    phone.size = "phone"
    table = EngineTable(new_game(load_quest("ashen_vault"), 2, 7))
    table.confirm = False
    table.open(phone, 2)
    if phone.locator("#start-begin").count() and phone.locator("#start-begin").is_visible():
        phone.locator("#start-begin").tap()
    assert square_px(phone) >= 36, "squares too small to tap"
    assert phone.locator(".enter-hint").first.is_hidden()  # no "or Enter" on a touch screen
    title = phone.locator(".play-title").bounding_box()
    assert title and title["width"] >= 200  # the room's name is not cut to a few letters
    version = table.version
    phone.locator('#actions-panel button[data-action="roll_movement"]').tap()
    wait_idle(phone, version + 1)
    steps = phone.eval_on_selector_all(
        "#board .hl-move", "els => els.map(e => e.dataset.square).filter(Boolean)"
    )
    assert steps, "no square to step to"
    click_square(phone, steps[0])
    wait_idle(phone, version + 2)
    assert table.posted[-1][1]["type"] == "move"
    phone.screenshot(path=str(SHOTS / "phone-turn.png"))
    end = phone.locator('#actions-panel button[data-action="end_turn"]')
    end.scroll_into_view_if_needed()
    assert in_viewport(phone, '#actions-panel button[data-action="end_turn"]')
    end.tap()
    wait_idle(phone, version + 3)
    assert table.posted[-1][1]["type"] == "end_turn"
    errors = phone.errors
    phone.context.close()
    assert not errors, errors


# ---- Monsters read without ids ----------------------------------------------------------------

# A public id ("m2", "t1", "d3") or Zargon's handle of a hidden piece ("z-m-cook_goblin_1").
RAW_ID = re.compile(r"\b[mtdaf]\d+\b|\bz-[a-z]-")

READ_TEXT = """() => {
    const root = document.getElementById('play');
    for (const d of root.querySelectorAll('details')) d.open = true;
    const out = [root.innerText];
    for (const node of root.querySelectorAll('[aria-label], [title], title, [alt]')) {
        for (const name of ['aria-label', 'title', 'alt']) {
            if (node.getAttribute(name)) out.push(node.getAttribute(name));
        }
        if (node.tagName.toLowerCase() === 'title') out.push(node.textContent);
    }
    return out.join('\\n');
}"""


def two_orcs_in_sight() -> State:
    """The Ashen Vault once the heroes have seen two orcs (Zargon holds more, unrevealed)."""

    def two_orcs(state: State) -> bool:
        return sum(m.kind == "orc" and m.pub is not None for m in state.monsters.values()) >= 2

    return explore_until(new_game(load_quest("ashen_vault"), 2, 7), two_orcs)


@pytest.mark.parametrize("seat", [2, ZARGON])
def test_monsters_read_by_kind_and_number_never_by_id(page: Any, seat: int) -> None:  # noqa: F811
    table = EngineTable(two_orcs_in_sight())
    table.open(page, seat)
    orcs = [m for m in table.view(seat)["monsters"] if m["kind"] == "orc" and m["number"]]
    second = next(m for m in orcs if m["number"] == 2)
    token = page.locator(f'#board [data-monster="{second["id"]}"]')
    assert (token.locator("title").text_content() or "").startswith("Orc 2: Body ")
    token.scroll_into_view_if_needed()
    click_square(page, f"{second['position'][0]},{second['position'][1]}")
    card = page.locator("#monster-card .stat-card-title")
    card.wait_for(state="visible")
    assert card.text_content() == "Orc 2"
    text = page.evaluate(READ_TEXT)
    assert "Orc 2" in text
    assert not RAW_ID.findall(text), RAW_ID.findall(text)
    page.screenshot(path=str(SHOTS / f"monster-labels-seat{seat}-{page.size}.png"))
