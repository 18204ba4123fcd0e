"""The table a player sits at (issue 10), in real Chromium at desktop and phone sizes against the
real rules engine (tests/browser/harness.py): the drawn board, a phone that opens fitted, no
costly slips (far moves and ending a turn ask first), the whole story paged back to its start,
help at the table (spell, monster and treasure cards, labelled dice), and axe-core finding no
serious or critical accessibility violation.

Screenshots of the board at both sizes are saved under var/screenshots/ (not committed).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import sync_playwright

from apps.games.heroquest.engine import State, apply, load_quest, new_game

from .harness import CHROMIUM_ARGS, ROOT, ZARGON, EngineTable, legal, seat_on_turn, wait_idle

pytestmark = [pytest.mark.browser]

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = ROOT / "var" / "screenshots"
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
SIZES = {"desktop": DESKTOP, "phone": PHONE}
COORDINATES = re.compile(r"\(\d+, \d+\)")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip("needs Debian's Chromium at /usr/bin/chromium")

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


def open_page(browser: Any, size: str) -> Any:
    phone = size == "phone"
    context = browser.new_context(
        viewport=SIZES[size],
        is_mobile=phone,
        has_touch=phone,
        device_scale_factor=2 if phone else 1,
    )
    context.set_default_timeout(10000)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


@pytest.fixture(params=["desktop", "phone"])
def page(browser: Any, request: Any) -> Iterator[Any]:
    page = open_page(browser, request.param)
    page.size = request.param
    yield page
    errors = page.errors
    page.context.close()
    assert not errors, errors


# ---- Scenarios ---------------------------------------------------------------------------------


def rolled_barbarian() -> State:
    """The first turn: the Barbarian has rolled 12 and stands on the Cinder Stair."""
    state = new_game(load_quest("ashen_vault"), 2, 7)
    return apply(state, 2, {"type": "roll_movement", "hero": "barbarian"}, dice=[6, 6]).state


def long_story(min_events: int = 160, seed: int = 4) -> tuple[State, list[dict[str, Any]]]:
    """Heroes explore (rolling 12, opening doors) for many rounds, Zargon passes; every event kept.
    Stops in a monster phase of a round in which a hero opened a door."""
    state = new_game(load_quest("ashen_vault"), 2, 7)
    events = list(state.log)
    rng = random.Random(seed)
    visited: set[tuple[int, int]] = set()
    opened = False
    for _ in range(4000):
        if state.phase == "monsters":
            if opened and len(events) >= min_events:
                return state, events
            opened = False
            transition = apply(state, ZARGON, {"type": "end_phase"})
        else:
            seat = seat_on_turn(state)
            actions = legal(state, seat)
            hero = state.turn.hero
            doors = [a for a in actions if a["type"] == "open_door"]
            attacks = [a for a in actions if a["type"] == "attack"]
            moves = [a for a in actions if a["type"] == "move"]
            fresh = [a for a in moves if tuple(a["to"]) not in visited]
            if attacks:
                transition = apply(state, seat, rng.choice(attacks))
            elif any(a["type"] == "roll_movement" for a in actions):
                transition = apply(
                    state, seat, {"type": "roll_movement", "hero": hero}, dice=[6, 6]
                )
            elif doors:
                opened = True
                transition = apply(state, seat, rng.choice(doors))
            elif moves and rng.random() < 0.9:
                step = rng.choice(fresh or moves)
                visited.add(tuple(step["to"]))
                transition = apply(state, seat, step)
            else:
                transition = apply(state, seat, {"type": "end_turn", "hero": hero})
        state = transition.state
        events.extend(transition.events)
    raise AssertionError("the story never got long enough")


def far_square(page: Any) -> str:
    """A square the acting hero can reach only in several steps (a board 'reach' highlight)."""
    squares = page.eval_on_selector_all("#board .hl-reach", "els => els.map(e => e.dataset.square)")
    assert squares, "no far square to walk to"
    return squares[-1]


def click_square(page: Any, key: str) -> None:
    """Tap (phone) or click (desktop) the middle of a board square, scrolled into view."""
    marked = page.locator(f'#board [data-square="{key}"]')
    if marked.count():
        marked.first.scroll_into_view_if_needed()
    x, y = (int(n) for n in key.split(","))
    point = page.evaluate(
        """([x, y]) => {
            const p = new DOMPoint(x + 0.5, y + 0.5).matrixTransform(
                document.getElementById('board').getScreenCTM());
            return [p.x, p.y];
        }""",
        [x, y],
    )
    if page.size == "phone":
        page.touchscreen.tap(point[0], point[1])
    else:
        page.mouse.click(point[0], point[1])


def square_px(page: Any) -> float:
    """How wide a square of the map is drawn, in CSS pixels."""
    size: float = page.evaluate(
        "(() => { const svg = document.getElementById('board');"
        " return svg.getBoundingClientRect().width / svg.viewBox.baseVal.width; })()"
    )
    return size


def in_viewport(page: Any, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    view = page.viewport_size
    return bool(
        box
        and box["y"] >= 0
        and box["y"] + box["height"] <= view["height"]
        and box["x"] >= 0
        and box["x"] + box["width"] <= view["width"] + 1
    )


def page_back_to_the_start(page: Any) -> None:
    """Press "Show earlier entries" until the story reaches its first entry."""
    older = page.locator("#log-older")
    for _ in range(30):
        if older.is_hidden():
            return
        shown = page.locator("#game-log li").count()
        older.click()
        page.wait_for_function(
            "n => document.querySelectorAll('#game-log li').length > n"
            " || document.getElementById('log-older').hidden",
            arg=shown,
        )
    raise AssertionError("the story never reached its first entry")


def serious_violations(page: Any) -> list[str]:
    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v.get("impact") in ("serious", "critical")
    ]


# ---- The board ---------------------------------------------------------------------------------


def test_the_board_draws_figures_furniture_doors_and_rooms_and_is_saved_as_screenshots(
    page: Any,
) -> None:
    state, events = long_story()
    table = EngineTable(state, events)
    table.open(page, ZARGON)  # Zargon's board shows the whole dungeon
    view = table.view(ZARGON)
    # Every figure is a drawing of its kind (a <use> of the kind's symbol), never a text label.
    for m in view["monsters"]:
        use = page.locator(f'#board [data-monster="{m["id"]}"] use')
        assert use.get_attribute("href") == f"#fig-{m['kind']}"
        body = page.locator(f'#board [data-monster="{m["id"]}"] .body-text').text_content()
        assert body == str(m["body"])
    for h in view["heroes"]:
        if h["status"] == "playing":
            use = page.locator(f'#board [data-hero="{h["hero"]}"] use')
            assert use.get_attribute("href") == f"#fig-{h['hero']}"
    # Furniture is drawn as furniture, each piece titled with its kind.
    kinds = {f["kind"] for f in view["map"]["furniture"]}
    for kind in kinds:
        piece = page.locator(f"#board .furn-{kind}").first
        assert piece.locator(".furn-art *").count() >= 2, kind
    # Room names stand on the board; doors are open or closed to the eye.
    names = page.eval_on_selector_all("#board .room-name", "els => els.map(e => e.textContent)")
    rooms = {a["name"] for a in view["map"]["areas"] if a["kind"] == "room"}
    assert set(names) == rooms
    # A name is drawn over the doors and furniture along its room's top edge (none cut by a
    # door), and under the figures; a crowded room's over them.
    layers = page.eval_on_selector_all("#board > g", "els => els.map(e => e.getAttribute('class'))")
    assert layers.index("furniture") < layers.index("doors") < layers.index("room-names")
    assert layers.index("room-names") < layers.index("figures") < layers.index("room-names raised")
    assert page.locator("#board .door-open .door-gap").count() >= 1
    assert page.locator("#board .door-closed .door-panel").count() >= 1
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#board").screenshot(path=str(SHOTS / f"board-zargon-{page.size}.png"))
    table.open(page, 2)
    page.locator("#board").screenshot(path=str(SHOTS / f"board-heroes-{page.size}.png"))
    page.screenshot(path=str(SHOTS / f"play-page-{page.size}.png"))


def test_searched_rooms_are_marked_on_the_board(page: Any) -> None:
    state = new_game(load_quest("ashen_vault"), 2, 7)
    state = apply(state, 2, {"type": "search_treasure", "hero": "barbarian"}).state
    table = EngineTable(state)
    table.open(page, 2)
    mark = page.locator("#board .searched-mark")
    assert mark.count() == 1
    assert "searched for treasure by the Barbarian" in (mark.locator("title").text_content() or "")


def test_the_quest_opens_on_its_parchment_until_the_seat_begins(page: Any) -> None:
    table = EngineTable(new_game(load_quest("ashen_vault"), 2, 7))
    table.open(page, 2)
    start = page.locator("#start-screen")
    assert start.is_visible()
    assert "Ashen Vault" in (start.text_content() or "")
    page.click("#start-begin")
    assert start.is_hidden()
    table.open(page, 2)  # begun stays begun for this seat
    assert page.locator("#start-screen").is_hidden()


# ---- Phone first -------------------------------------------------------------------------------


def test_the_phone_opens_at_a_playable_size_with_the_turn_card_and_end_turn_in_view(
    browser: Any,
) -> None:
    page = open_page(browser, "phone")
    page.size = "phone"
    state, events = long_story()
    state = apply(state, ZARGON, {"type": "end_phase"}).state  # a hero's turn
    table = EngineTable(state, events)
    table.open(page, 2)
    # No sideways scrolling of the page; the map's box is no wider than the screen, and the map
    # in it opens at a size a finger can play (issue 21: about 18 px squares when fitted).
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    board = page.locator("#board-scroll").bounding_box()
    assert board and board["width"] <= PHONE["width"]
    assert square_px(page) >= 36
    # The header is one row; whose turn it is and the controls show without scrolling.
    header = page.locator(".site-header").bounding_box()
    assert header and header["height"] <= 60
    assert in_viewport(page, "#turn-panel")
    assert "Your turn" in (page.text_content("#turn-panel") or "")
    assert in_viewport(page, '#actions-panel button[data-action="end_turn"]')
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "phone-opens.png"))
    # "Fit" shows the whole map; the fitted board does not scroll, so a swipe scrolls the page.
    page.click("#zoom-fit")
    overflow = page.evaluate(
        "(() => { const s = document.getElementById('board-scroll');"
        " return [s.scrollWidth - s.clientWidth, s.scrollHeight - s.clientHeight]; })()"
    )
    assert max(overflow) <= 2
    page.screenshot(path=str(SHOTS / "phone-fitted.png"))
    errors = page.errors
    page.context.close()
    assert not errors, errors


# ---- No costly slips ---------------------------------------------------------------------------


def test_a_far_move_shows_its_path_and_cost_and_needs_a_second_tap(page: Any) -> None:
    table = EngineTable(rolled_barbarian())
    table.open(page, 2)
    target = far_square(page)
    before = table.version
    click_square(page, target)
    bar = page.locator("#move-confirm")
    bar.wait_for(state="visible")
    steps = page.locator("#board .path-preview .path-dot").count() + 1
    assert steps >= 2
    assert page.text_content("#board .path-cost") == str(steps)
    assert f"Move {steps} squares" in (bar.text_content() or "")
    assert not COORDINATES.search(bar.text_content() or "")
    assert table.version == before, "a far move was taken without a confirmation"
    click_square(page, target)  # the second tap walks
    wait_idle(page, before + steps)
    assert table.version == before + steps
    walked = [a for _, a in table.posted[-steps:]]
    assert f"{walked[-1]['to'][0]},{walked[-1]['to'][1]}" == target
    assert bar.is_hidden()


def test_enter_confirms_a_far_move_and_escape_cancels_one(page: Any) -> None:
    table = EngineTable(rolled_barbarian())
    table.open(page, 2)
    before = table.version
    click_square(page, far_square(page))
    page.locator("#move-confirm").wait_for(state="visible")
    page.keyboard.press("Escape")
    assert page.locator("#move-confirm").is_hidden()
    assert page.locator("#board .path-preview").count() == 0
    click_square(page, far_square(page))
    page.locator("#move-confirm").wait_for(state="visible")
    page.keyboard.press("Enter")
    wait_idle(page, before + 2)
    assert table.version >= before + 2
    assert all(a["type"] == "move" for _, a in table.posted)


def test_end_turn_with_the_action_unused_asks_first(page: Any) -> None:
    table = EngineTable(rolled_barbarian())
    table.open(page, 2)
    before = table.version
    page.click('#actions-panel button[data-action="end_turn"]')
    dialog = page.locator("#confirm-dialog")
    dialog.wait_for(state="visible")
    assert "action" in (dialog.text_content() or "").lower()
    page.click("#confirm-no")
    assert dialog.is_hidden()
    assert table.version == before
    page.click('#actions-panel button[data-action="end_turn"]')
    page.click("#confirm-yes")
    wait_idle(page, before + 1)
    assert table.posted[-1][1] == {"type": "end_turn", "hero": "barbarian"}


def test_enter_ends_the_turn_only_from_the_map(page: Any) -> None:
    table = EngineTable(rolled_barbarian())
    table.open(page, 2)
    before = table.version
    page.locator("#log-order").focus()
    page.locator("#log-order").evaluate("b => b.blur()")  # focus on the page body
    page.keyboard.press("Enter")
    assert page.locator("#confirm-dialog").is_hidden()
    assert table.version == before
    page.locator("#board-scroll").focus()
    page.keyboard.press("Enter")
    page.locator("#confirm-dialog").wait_for(state="visible")
    page.click("#confirm-yes")
    wait_idle(page, before + 1)
    assert table.posted[-1][1]["type"] == "end_turn"


def test_the_setting_turns_confirmations_off(page: Any) -> None:
    table = EngineTable(rolled_barbarian())
    table.confirm = False
    table.open(page, 2)
    before = table.version
    click_square(page, far_square(page))
    wait_idle(page, before + 2)
    assert table.version >= before + 2, "the far move should be taken at once"
    now = table.version
    page.click('#actions-panel button[data-action="end_turn"]')
    wait_idle(page, now + 1)
    assert page.locator("#confirm-dialog").is_hidden()
    assert table.posted[-1][1]["type"] == "end_turn"


# ---- The story ---------------------------------------------------------------------------------


@pytest.mark.parametrize("keyset", [True, False], ids=["before", "after-only"])
def test_the_story_pages_back_to_the_first_entry_in_either_order(page: Any, keyset: bool) -> None:
    state, events = long_story()
    table = EngineTable(state, events)
    table.keyset = keyset  # the events API pages back by `before`, or (older servers) only forward
    table.open(page, 2)
    assert len(events) > 120
    assert page.locator("#log-older").is_visible()
    page_back_to_the_start(page)
    texts = page.eval_on_selector_all("#game-log .log-text", "els => els.map(e => e.textContent)")
    # Newest first: the quest's first entry is at the bottom, and every entry is there once.
    assert texts[-1].startswith("The quest begins")
    seqs = page.eval_on_selector_all(
        "#game-log li[data-seq]", "els => els.map(e => +e.dataset.seq)"
    )
    assert len(seqs) == len(set(seqs)) and min(seqs) == 1
    # Entries name rooms and figures, never coordinates.
    assert not [t for t in texts if COORDINATES.search(t)]
    assert any(re.search(r"moves \d+ squares?, .*to the ", t) for t in texts)
    page.click("#log-order")
    first = page.locator("#game-log .log-text").first.text_content() or ""
    assert first.startswith("The quest begins")
    # Entries cite the rule that applied, linked to the rules page.
    rule = page.locator("#game-log .log-rule").first
    assert re.match(r"rules \d+b?: ", rule.text_content() or "")
    assert re.search(r"/rules/heroquest/#rules-\d+", rule.get_attribute("href") or "")


def test_clicking_an_entry_highlights_its_squares(page: Any) -> None:
    state, events = long_story()
    table = EngineTable(state, events)
    table.open(page, 2)
    entry = page.locator("#game-log .log-move .log-show").first
    entry.click()
    assert entry.get_attribute("aria-pressed") == "true"
    assert page.locator("#board .hl-story").count() >= 1


def test_since_your_last_turn_is_marked_and_summarised(page: Any) -> None:
    state, events = long_story()
    table = EngineTable(state, events)
    table.open(page, ZARGON)  # back for the monster phase, after a round of heroes' turns
    away = page.locator("#log-away")
    away.wait_for(state="visible")
    text = away.text_content() or ""
    assert text.startswith("While you were away: ")
    assert "opened the door" in text
    assert not COORDINATES.search(text)
    assert page.locator("#log-since").count() == 1
    assert page.locator("#game-log .log-away-entry").count() >= 1


# ---- Around the quest --------------------------------------------------------------------------


def test_the_quest_end_screen_tells_who_won_what_each_hero_found_and_where_to_go(
    page: Any,
) -> None:
    state = new_game(load_quest("ashen_vault"), 3, 7)
    state.heroes["barbarian"].gold = 75
    state.heroes["barbarian"].artifacts.append("The Warden's Hoard")
    state.heroes["elf"].gold = 40  # seat 3's: seat 2 must not learn it
    state.heroes["dwarf"].status = "fallen"
    state.heroes["dwarf"].position = None
    for hero in ("barbarian", "elf", "wizard"):
        state.heroes[hero].status = "escaped"
        state.heroes[hero].position = None
    state.outcome = "heroes"
    table = EngineTable(state)
    table.armory_url = "/campaigns/1/"
    table.open(page, 2)
    screen = page.locator("#outcome-banner")
    assert screen.is_visible()
    assert page.text_content("#outcome-title") == "The heroes have won!"
    barbarian = screen.locator('.result-hero[data-hero="barbarian"]').text_content() or ""
    assert "escaped" in barbarian and "75 gold" in barbarian and "Warden's Hoard" in barbarian
    assert "fell" in (screen.locator('.result-hero[data-hero="dwarf"]').text_content() or "")
    assert "40" not in (screen.locator('.result-hero[data-hero="elf"]').text_content() or "")
    links = screen.locator("a")
    assert links.nth(0).get_attribute("href") == "/campaigns/1/"
    assert links.nth(1).get_attribute("href") == "/"


# ---- Help at the table -------------------------------------------------------------------------


def test_a_spell_shows_its_card_before_it_is_cast(page: Any) -> None:
    state = new_game(load_quest("ashen_vault"), 2, 7)
    while state.turn.hero != "elf":
        state = apply(state, 2, {"type": "end_turn", "hero": state.turn.hero}).state
    table = EngineTable(state)
    table.open(page, 2)
    page.click('#actions-panel [data-spell="heal_body"]')
    card = page.locator('#actions-panel .spell-card[data-spell="heal_body"]')
    assert "Restores up to 4 Body" in (card.text_content() or "")
    assert "Earth" in (card.text_content() or "")
    assert page.locator('#actions-panel [data-spell="rock_skin"]').get_attribute("title")


def test_a_monster_shows_its_stat_card_and_a_find_its_treasure_card(page: Any) -> None:
    state, events = long_story()
    table = EngineTable(state, events)
    table.open(page, ZARGON)
    monster = table.view(ZARGON)["monsters"][0]
    x, y = monster["position"]
    click_square(page, f"{x},{y}")
    card = page.locator("#monster-card")
    card.wait_for(state="visible")
    text = card.text_content() or ""
    for label in ("Move", "Attack", "Defend", "Body", "Mind"):
        assert label in text
    assert f"{monster['body']}/{monster['body_max']}" in text

    # The Barbarian searches the Cinder Stair and draws 25 gold: his seat sees the card.
    state = new_game(load_quest("ashen_vault"), 2, 7)
    state.deck.insert(0, "gold_25")
    table = EngineTable(state)
    table.open(page, 2)
    before = table.version
    page.click('#actions-panel button[data-action="search_treasure"]')
    wait_idle(page, before + 1)
    find = page.locator("#find-card")
    find.wait_for(state="visible")
    assert "25 gold crowns" in (find.text_content() or "")


def test_combat_dice_are_labelled_attacker_and_defender(page: Any) -> None:
    state, events = long_story()
    attacks = [e for e in events if e["type"] == "attack"]
    assert attacks, "the heroes fought no one"
    table = EngineTable(state, events)
    table.open(page, 2)
    page_back_to_the_start(page)
    labels = page.eval_on_selector_all(
        "#game-log .dice-label", "els => els.map(e => e.textContent)"
    )
    assert any(label.startswith("Attacker") for label in labels)
    assert any(label.startswith("Defender") for label in labels)


# ---- Accessibility -----------------------------------------------------------------------------


def test_axe_finds_no_serious_violation_on_the_game_page(page: Any) -> None:
    state, events = long_story()
    table = EngineTable(state, events)
    table.open(page, 2)
    assert serious_violations(page) == []
    table.open(page, ZARGON)
    assert serious_violations(page) == []
