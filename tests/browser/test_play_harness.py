"""The play page against the real rules engine (tests/browser/harness.py): thrown weapons, moves
onto squares the board does not draw (Pass Through Rock), and a control for every action type.

Runs Debian's Chromium at /usr/bin/chromium through Playwright; needs no server or database.
"""

from __future__ import annotations

import json
import os
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import sync_playwright

from apps.games.heroquest.engine import seats_to_move

from .harness import (
    CHROMIUM_ARGS,
    ROOT,
    EngineTable,
    pass_through_rock_scenario,
    throw_scenario,
    unknown_moves,
    wait_idle,
)

pytestmark = [pytest.mark.browser]

CHROMIUM = Path("/usr/bin/chromium")
IN_CI = os.environ.get("CI", "").lower() == "true"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        reason = "needs Debian's Chromium at /usr/bin/chromium"
        if IN_CI:
            pytest.fail(f"{reason}, but CI=true: CI must run the browser tests")
        pytest.skip(reason)

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    context.close()
    assert not errors, errors


def act_key(action: dict[str, Any]) -> str:
    """The page's `data-act`: JSON.stringify of the action with sorted keys."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def key_of(square: list[int]) -> str:
    return f"{square[0]},{square[1]}"


def click_square(page: Any, square: list[int]) -> None:
    """Click the middle of a board square (highlights let clicks through to the board)."""
    page.locator(f'#board [data-square="{key_of(square)}"]').first.scroll_into_view_if_needed()
    box = page.evaluate(
        """([x, y]) => {
            const p = new DOMPoint(x + 0.5, y + 0.5).matrixTransform(
                document.getElementById('board').getScreenCTM());
            return [p.x, p.y];
        }""",
        square,
    )
    page.mouse.click(box[0], box[1])


def panel_button(page: Any, action: dict[str, Any]) -> Any | None:
    """The action panel's button for exactly this action, if there is one."""
    index = page.evaluate(
        """k => [...document.querySelectorAll('#actions-panel button')]
            .findIndex(b => b.dataset.act === k)""",
        act_key(action),
    )
    return None if index < 0 else page.locator("#actions-panel button").nth(index)


def posted(table: EngineTable, before: int, page: Any) -> dict[str, Any]:
    wait_idle(page, before + 1)
    assert table.version == before + 1, "the page posted nothing"
    return table.posted[-1][1]


# ---- Thrown weapons --------------------------------------------------------------------------


def test_throw_picks_a_weapon_then_a_target_on_the_board_and_escape_cancels(page: Any) -> None:
    table = EngineTable(throw_scenario())
    seat = seats_to_move(table.state)[0]
    table.open(page, seat)
    view = table.view(seat)
    throws = [a for a in view["legal_actions"] if a["type"] == "throw"]
    weapons = sorted({a["weapon"] for a in throws})
    shown = page.eval_on_selector_all(
        "#actions-panel [data-throw]", "els => els.map(e => e.textContent)"
    )
    assert sorted(shown) == sorted(f"Throw {w}" for w in weapons)

    weapon = weapons[0]
    chosen = [a for a in throws if a["weapon"] == weapon]
    page.click(f'#actions-panel [data-throw="{weapon}"]')
    assert page.get_attribute(f'#actions-panel [data-throw="{weapon}"]', "aria-pressed") == "true"
    where = {m["id"]: key_of(m["position"]) for m in view["monsters"]}
    rings = page.eval_on_selector_all("#board .ring-throw", "els => els.map(e => e.dataset.square)")
    assert sorted(rings) == sorted(where[a["target"]] for a in chosen)
    assert page.locator("#board .hl-move, #board .hl-reach").count() == 0
    buttons = page.locator('#actions-panel button[data-action="throw"]')
    assert buttons.count() == len(chosen)
    assert buttons.first.text_content().startswith(f"Throw the {weapon} at ")
    assert re.search(r"Esc cancels", page.text_content("#actions-panel") or "")

    page.keyboard.press("Escape")
    assert page.locator("#board .ring-throw").count() == 0
    assert page.locator('#actions-panel button[data-action="throw"]').count() == 0
    assert page.get_attribute(f'#actions-panel [data-throw="{weapon}"]', "aria-pressed") == "false"

    page.click(f'#actions-panel [data-throw="{weapon}"]')
    target = chosen[0]
    before = table.version
    monster = next(m for m in view["monsters"] if m["id"] == target["target"])
    click_square(page, monster["position"])
    assert posted(table, before, page) == target
    assert f"throws a {weapon}" in (page.text_content("#game-log") or "")
    assert page.locator("#board .ring-throw").count() == 0
    assert page.locator("#actions-panel [data-throw]").count() == 0  # the main action is spent


# ---- Pass Through Rock: moves onto squares the board does not draw ----------------------------


def test_moves_onto_undrawn_squares_show_an_outline_and_nothing_else(page: Any) -> None:
    table = EngineTable(pass_through_rock_scenario())
    table.open(page, 2)
    view = table.view(2)
    unknown = unknown_moves(view)
    assert unknown
    outlines = page.eval_on_selector_all(
        "#board .hl-unknown", "els => els.map(e => e.dataset.square)"
    )
    assert sorted(outlines) == sorted(key_of(a["to"]) for a in unknown)
    # The board draws exactly the view's squares; the outline carries only its coordinates.
    assert page.locator("#board rect.sq").count() == len(view["map"]["squares"])
    for node in page.query_selector_all("#board .hl-unknown"):
        assert node.evaluate("e => [...e.children].map(c => c.tagName)") == ["title"]
        x, y = node.get_attribute("data-square").split(",")
        assert node.text_content() == f"Unknown square {x}, {y}: try to move there"

    before = table.version
    click_square(page, unknown[0]["to"])
    assert posted(table, before, page) == unknown[0]


def test_moves_onto_undrawn_squares_by_arrow_key_and_by_direction_button(page: Any) -> None:
    state = pass_through_rock_scenario()
    elf = state.heroes["elf"].position
    assert elf is not None
    for how in ("key", "button"):
        table = EngineTable(state)
        table.open(page, 2)
        move = unknown_moves(table.view(2))[0]
        dx, dy = move["to"][0] - elf[0], move["to"][1] - elf[1]
        side = {(0, -1): "N", (1, 0): "E", (0, 1): "S", (-1, 0): "W"}[(dx, dy)]
        before = table.version
        if how == "key":
            page.evaluate("document.activeElement && document.activeElement.blur()")
            key = {"N": "ArrowUp", "E": "ArrowRight", "S": "ArrowDown", "W": "ArrowLeft"}[side]
            page.keyboard.press(key)
        else:
            pad = page.locator(f'#actions-panel .step-pad button[data-side="{side}"]')
            name = {"N": "north", "E": "east", "S": "south", "W": "west"}[side]
            # The square is not drawn: the label names no place and no coordinates.
            assert pad.get_attribute("aria-label") == f"Step {name}"
            pad.click()
        assert posted(table, before, page) == move


# ---- Every action type has a control -----------------------------------------------------------


def documented_action_types() -> set[str]:
    text = (ROOT / "docs" / "engine-api.md").read_text()
    section = text.split("## Actions", 1)[1].split("## Seat view", 1)[0]
    return set(re.findall(r'"type":\s*"(\w+)"', section))


def perform_through_the_page(page: Any, action: dict[str, Any]) -> None:
    """Do `action` by the controls a player would use; fail if the page offers none."""
    t = action["type"]
    selectors = {"cast": ("spell", "spell"), "throw": ("throw", "weapon")}
    if t in selectors:
        attr, field = selectors[t]
        picker = page.locator(f'#actions-panel [data-{attr}="{action[field]}"]')
        assert picker.count() == 1, f"no {attr} button for {action}"
        if picker.get_attribute("aria-pressed") != "true":
            picker.click()
    if t.startswith("monster_") or t == "end_activation":
        picker = page.locator(f'#actions-panel button[data-monster="{action["monster"]}"]')
        assert picker.count() == 1, f"no monster button for {action}"
        if picker.get_attribute("aria-pressed") != "true":
            picker.click()
    if t in ("move", "monster_move"):
        k = key_of(action["to"])
        drawn = page.locator(
            f'#board .hl-move[data-square="{k}"], #board .hl-unknown[data-square="{k}"]'
        )
        assert drawn.count() >= 1, f"no board square for {action}"
        click_square(page, action["to"])
        return
    button = panel_button(page, action)
    assert button is not None, f"no control for {action}"
    button.click()


# Explore: open doors and fight rather than end the turn at once.
WEIGHTS = {
    "open_door": 4,
    "move": 3,
    "attack": 3,
    "throw": 3,
    "cast": 2,
    "monster_move": 3,
    "monster_attack": 3,
    "end_turn": 0.15,
    "end_phase": 0.15,
    "end_activation": 0.3,
}


def test_every_action_type_has_a_control_and_a_playout_through_the_page(page: Any) -> None:
    # From the throw scenario: monsters in sight, so Zargon has a phase to play too.
    table = EngineTable(throw_scenario())
    table.confirm = False  # the player's setting: no "end the turn anyway?" questions here
    table.open(page, seats_to_move(table.state)[0])
    controls = page.evaluate("import('/static/js/games/heroquest/panel.js').then(m => m.CONTROLS)")
    # The standing orders' panel holds the controls of the standing rules (its orders.js).
    controls |= page.evaluate(
        "import('/static/js/games/heroquest/orders.js').then(m => m.CONTROLS)"
    )
    missing = documented_action_types() - set(controls)
    assert not missing, f"action types without a control: {missing}"

    # set_auto_drink is never in legal_actions: the owner's hero sheet has a switch.
    toggle = page.locator('#heroes-panel input[data-action="set_auto_drink"][data-hero="dwarf"]')
    assert toggle.is_checked()
    before = table.version
    toggle.uncheck()
    assert posted(table, before, page) == {"type": "set_auto_drink", "hero": "dwarf", "on": False}
    assert not page.locator('#heroes-panel input[data-hero="dwarf"]').is_checked()

    # Random legal actions, each done through the page only (board clicks, buttons).
    rng = random.Random(5)
    seen: set[str] = set()
    shown_seat = 2
    for _ in range(160):
        if table.state.outcome:
            break
        seat = seats_to_move(table.state)[0]
        if seat != shown_seat:
            table.open(page, seat)
            shown_seat = seat
        legal = table.view(seat)["legal_actions"]
        types = sorted({a["type"] for a in legal})
        weights = [WEIGHTS.get(t, 1) for t in types]
        chosen_type = rng.choices(types, weights)[0]
        action = rng.choice([a for a in legal if a["type"] == chosen_type])
        before = table.version
        perform_through_the_page(page, action)
        assert posted(table, before, page) == action
        seen.add(chosen_type)
    assert {"move", "roll_movement", "end_turn", "end_phase"} <= seen, seen
