"""Legend of Zagor in real Chromium (Debian's /usr/bin/chromium; Playwright never downloads one).

1. Two players on phone-sized pages play the Quest for the Enchanted Orb on the real site (a
   `config.server` subprocess, HTTP and websockets): sign up, open a Zagor room, take the seats,
   launch, and play turns by tapping lit spaces and the legal actions' buttons. The d10 appears on
   screen, the voice's line repeats, the spoken voice is off until turned on (and remembered),
   the surrender setting is saved, the other page follows over its socket, and the second seat's
   page never carries the first seat's spell hand. A hero standing on a face-up tile leaves its
   face readable above the token.
2. A Zagor game played to its end through the API by the face's own bot (as
   tests/platform/test_platform_zagor.py does) replays in the browser and its dice check fair
   there; a changed d10 in the served replay fails the check.

Set ZAGOR_SCREENSHOTS to a folder to keep the pages' screenshots.
"""

from __future__ import annotations

import json
import os
import re
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from apps.games.zagor.scenarios import shipped
from apps.quests.services import quest_sync_shipped
from tests.platform.test_platform_zagor import play_through_the_api
from tests.play.conftest import client_for

from .test_play_in_browser import (  # noqa: F401  (fixtures: chromium, site, site_env)
    Player,
    api_view,
    caught_up,
    chromium,
    embedded_view,
    open_game,
    refuse_policy_violations,
    settle,
    sign_up,
    site,
    site_env,
    take_seat,
    wait_room_live,
)
from .test_replay_in_browser import Site, browser  # noqa: F401  (fixture: browser)

pytestmark = [pytest.mark.browser]

PHONE: Any = {"width": 390, "height": 844}
SHOTS = os.environ.get("ZAGOR_SCREENSHOTS")


# The page's own view, drawn on a board of its own with the first hero on a corridor space whose
# tile lies face up: where the face's words and the hero's token fall on the screen.
HERO_ON_A_FACE_UP_TILE = """async () => {
  const { drawBoard } = await import('/static/js/games/zagor/draw.js');
  const { viewBoxOf } = await import('/static/js/games/zagor/model.js');
  const view = JSON.parse(document.getElementById('seat-view').textContent);
  const hero = view.heroes[0];
  const space = Object.keys(view.spaces).find((id) => 'tile' in view.spaces[id]);
  view.spaces[space] = { ...view.spaces[space], tile: { face: 'Secret Passage' } };
  hero.space = space;
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('class', 'board');
  svg.style.width = '1200px';
  document.body.append(svg);
  svg.setAttribute('viewBox', viewBoxOf(drawBoard(svg, view, {}).boxes).join(' '));
  const box = (el) => {
    const b = el.getBoundingClientRect();
    return { top: b.top, bottom: b.bottom };
  };
  const words = [...svg.querySelectorAll(`[data-space="${space}"] text`)].map(box);
  const token = box(svg.querySelector(`[data-hero="${hero.hero}"] .hero-token`));
  svg.remove();
  return [{ top: Math.min(...words.map((w) => w.top)),
            bottom: Math.max(...words.map((w) => w.bottom)) }, token];
}"""


def shot(page: Any, name: str, full: bool = False) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=full)


# ---- Choosing a tap -------------------------------------------------------------------------


def distances_to_monsters(view: dict[str, Any]) -> dict[str, int]:
    """Every space's distance (in links) to the nearest room that still holds a monster."""
    links: dict[str, set[str]] = {}
    for a, b in view["layout"]["links"]:
        links.setdefault(a, set()).add(b)
        links.setdefault(b, set()).add(a)
    rooms = [s for s, v in view["spaces"].items() if v.get("monster")]
    far = {s: 0 for s in rooms}
    queue = deque(rooms)
    while queue:
        here = queue.popleft()
        for there in links.get(here, ()):
            if there in view["spaces"] and there not in far:
                far[there] = far[here] + 1
                queue.append(there)
    return far


def best_move(view: dict[str, Any]) -> str | None:
    moves = [a["to"] for a in view["legal_actions"] if a["type"] == "move"]
    if not moves:
        return None
    far = distances_to_monsters(view)
    return min(moves, key=lambda to: far.get(to, 99))


def act_and_wait(player: Player, game_url: str, do: Any) -> dict[str, Any]:
    before = api_view(player, game_url)["version"]
    do()
    settle(player)
    view = api_view(player, game_url)
    assert view["version"] > before, "the tap posted nothing"
    caught_up(player, view["version"])
    return view


def play_turn(player: Player, game_url: str) -> bool:
    """Tap a lit space towards a monster, strike until the fight is over, end the turn. Returns
    whether a fight was fought."""
    page = player.page
    view = api_view(player, game_url)
    fought = False
    to = best_move(view)
    if to is not None:
        lit = page.locator(f'#board .hl-move[data-space="{to}"] .hit')
        if lit.count() == 0:  # another level's space: its tab first (a phone shows one level)
            levels = view["layout"]["levels"]
            level = next(lv["level"] for lv in levels for s in lv["spaces"] if s["id"] == to)
            page.click(f'#level-tabs [data-level="{level}"]')
        view = act_and_wait(player, game_url, lambda: lit.click())
    for _ in range(20):
        strikes = [a for a in view["legal_actions"] if a["type"] == "strike" and a["by"] == "hero"]
        if not strikes:
            break
        fought = True
        assert page.locator("#monster-card").is_visible()
        view = act_and_wait(
            player, game_url, lambda: page.get_by_role("button", name="Strike", exact=True).click()
        )
        # Every exchange's d10s are on screen: the monster's call and the hero's roll.
        assert page.locator("#dice-tray svg.die-d10").count() >= 1
    if any(a["type"] == "end_turn" for a in view["legal_actions"]):
        act_and_wait(
            player,
            game_url,
            lambda: page.get_by_role("button", name="End turn", exact=True).click(),
        )
    return fought


# ---- 1. Two players, phone-sized pages -------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_players_play_the_orb_tale_by_taps_on_phones(
    chromium: str,  # noqa: F811
    site: str,  # noqa: F811
    browser: Any,  # noqa: F811  (the module's Playwright: a second would not start beside it)
) -> None:
    orb = shipped("enchanted_orb").name
    players: list[tuple[Player, list[str]]] = []
    try:
        for name in ("anvar_p", "stubble_p"):
            context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
            context.set_default_timeout(15000)
            player = Player(name=name, page=context.new_page())
            errors: list[str] = []
            player.page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
            refuse_policy_violations(player.page, errors)
            player.record_frames()
            players.append((player, errors))
        one, two = (p for p, _ in players)
        for player in (one, two):
            sign_up(player, site)

        one.page.goto(f"{site}/rooms/new?game=zagor")
        one.page.fill("#id_name", "Orb at dusk")
        one.page.select_option("#id_seats", "2")
        one.page.select_option("#id_quest", label=orb)
        one.page.click("form[action$='/rooms/new'] button[type=submit]")
        one.page.wait_for_load_state()
        take_seat(one, 1)
        invite = one.page.input_value("#invite-url")
        wait_room_live(one)
        two.page.goto(invite)
        take_seat(two, 2)
        launch = one.page.get_by_role("button", name="Launch")
        launch.wait_for()
        launch.click()
        one.page.wait_for_url(re.compile(r"/games/\d+/$"))
        game_url = one.page.url
        open_game(one, game_url)
        two.page.wait_for_url(game_url)
        open_game(two, game_url)
        shot(one.page, "zagor-phone-start")

        # The board is drawn from the layout: level 1's spaces, both heroes on their starts.
        for player in (one, two):
            assert player.page.locator("#board [data-space]").count() == 41
            assert player.page.locator("#board [data-hero]").count() == 2
            assert "Enchanted Orb" not in player.page.text_content("#board")  # not a space
        face, token = one.page.evaluate(HERO_ON_A_FACE_UP_TILE)
        assert face["bottom"] <= token["top"], f"the hero hides the tile's face: {face}, {token}"
        # The voice: the last announcement, Repeat, and the spoken voice off by default.
        view = api_view(one, game_url)
        line = one.page.text_content("#voice-line")
        assert line == f"Zagor: {view['last_voice']}"
        one.page.click("#voice-repeat")
        assert one.page.get_attribute("#voice-line", "data-repeats") == "1"
        assert one.page.text_content("#voice-announcer") == line
        assert not one.page.is_checked("#voice-speak")
        one.page.check("#voice-speak")
        assert one.page.evaluate("localStorage.getItem('ashen-vault:zagor:speak')") == "on"

        # The surrender setting, saved from the sheet (a private setting, no version).
        one.page.select_option("#surrender-at", "3")
        one.page.click("#surrender-save")
        one.page.wait_for_function(
            "() => document.getElementById('surrender-saved').textContent.includes('Saved')"
        )
        assert api_view(one, game_url)["me"]["surrender_at"] == 3

        # Turns by taps on legal moves (and Strike, End turn) until a fight rolled the d10.
        seat_of = {1: one, 2: two}
        turns = fights = 0
        for _ in range(16):
            view = api_view(one, game_url)
            if view["over"] or (turns >= 4 and fights >= 1):
                break
            player = seat_of[view["turn"]["seat"]]
            caught_up(player, view["version"])
            assert player.page.locator("#turn-panel.your-turn").count() == 1
            legal = api_view(player, game_url)["legal_actions"]
            lit = {a["to"] for a in legal if a["type"] == "move"}
            drawn = set(
                player.page.eval_on_selector_all(
                    "#board .hl-move", "els => els.map(e => e.dataset.space)"
                )
            )
            assert drawn <= lit, "a lit space that is not a legal move"
            fights += play_turn(player, game_url)
            turns += 1
            if turns == 1:
                shot(player.page, "zagor-phone-turn")
        assert turns >= 4, "fewer than four turns were played"
        assert fights >= 1, "no fight: no d10 was rolled"

        # Both pages followed over their sockets, the story tells it with its dice.
        final = api_view(one, game_url)
        for player in (one, two):
            caught_up(player, final["version"])
            assert player.page.locator("#game-log li.log-voice").count() >= 3
            assert player.page.locator("#game-log svg.die-d10").count() >= 2
        shot(two.page, "zagor-phone-later")
        shot(two.page, "zagor-phone-later-full", full=True)

        # A reload keeps the spoken voice's choice and the surrender setting.
        one.page.reload()
        one.page.wait_for_selector("#connection[data-state=live]")
        assert one.page.is_checked("#voice-speak")
        assert one.page.input_value("#surrender-at") == "3"

        # The second seat's page never carries the first seat's spell hand.
        mine = {s["name"] for s in api_view(one, game_url)["me"]["spells"]}
        theirs = {s["name"] for s in api_view(two, game_url)["me"]["spells"]}
        dom = two.page.content()
        for raw in two.sources:
            assert embedded_view(raw)["me"]["hero"] == "dwarf"
        for frame in map(json.loads, two.frames):
            if frame.get("type") == "view":
                assert frame["view"]["me"]["hero"] == "dwarf"
                assert all(isinstance(h["spells"], int) for h in frame["view"]["heroes"])
        texts = {s["text"] for s in api_view(one, game_url)["me"]["spells"]} - {
            s["text"] for s in api_view(two, game_url)["me"]["spells"]
        }
        for text in texts:
            assert text not in dom, f"seat 2 shows a spell of seat 1's hand: {mine - theirs}"
        for player, errors in players:
            assert not errors, f"{player.name}: {errors}"
    finally:
        for player, _ in players:
            player.page.context.close()


# ---- 2. A finished game's replay checks fair -------------------------------------------------


@pytest.fixture
def finished_orb(celery_eager: None) -> Any:
    quest_sync_shipped()
    return play_through_the_api("enchanted_orb", 2)


@pytest.fixture
def replay_page(browser: Any) -> Iterator[Any]:  # noqa: F811
    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(30000)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on(
        "console",
        lambda m: (
            problems.append(m.text)
            if m.type == "error"
            and "WebSocket connection" not in m.text
            and not m.text.startswith("Failed to load resource")
            else None
        ),
    )
    yield page
    context.close()
    assert not problems, problems


@pytest.mark.django_db
def test_a_finished_zagor_game_replays_and_its_d10s_check_fair(
    replay_page: Any, finished_orb: Any
) -> None:
    game = finished_orb
    page = replay_page
    user = game.room.seats.get(number=2).user
    Site(client_for(user)).open(page, game)
    page.wait_for_function("() => document.getElementById('replay').dataset.verified")
    assert page.locator("#replay").get_attribute("data-verified") == "ok"
    result = page.locator("#verify-result").inner_text()
    assert result.startswith("✓ Fair") and "d10s" in result
    assert page.locator("#seed-revealed").inner_text() == str(game.seed)
    # The controls are drawn icons; the arrow keys step; ?step= follows.
    assert page.locator("#replay-forward svg.icon").count() == 1
    assert page.locator("#replay-first svg.icon").count() == 1
    assert page.locator("#replay").get_attribute("data-step") == "0"
    page.click("#replay-forward")
    page.keyboard.press("ArrowRight")
    assert page.locator("#replay").get_attribute("data-step") == "2"
    assert page.url.endswith("?step=2")
    page.keyboard.press("ArrowLeft")
    assert page.locator("#replay").get_attribute("data-step") == "1"
    page.click("#replay-last")
    assert page.locator("#replay").get_attribute("data-step") == str(game.version)
    assert page.locator("#board [data-space]").count() == 41
    assert page.locator("#game-log svg.die-d10").count() >= 1
    shot(page, "zagor-replay-phone")
    # + zooms about the board (a phone opens it big enough to tap), Fit shows every level again.
    width = "() => document.getElementById('board').getBoundingClientRect().width"
    page.click("#zoom-fit")
    fitted = page.evaluate(width)
    page.click("#zoom-in")
    assert page.evaluate(width) > 1.2 * fitted
    page.click("#zoom-fit")
    assert page.evaluate(width) == pytest.approx(fitted, abs=1)
    # A step that rolled shows its dice as that step's, not as a table's "last roll".
    page.click("#replay-first")
    for _ in range(game.version):
        if page.locator("#dice-tray").is_visible():
            break
        page.click("#replay-forward")
    assert page.locator("#dice-tray h2").inner_text() == "This step's roll"
    assert page.locator("#dice-tray svg.die-d10").count() >= 1


@pytest.mark.django_db
def test_a_changed_d10_in_a_zagor_replay_fails_the_check(
    replay_page: Any, finished_orb: Any
) -> None:
    game = finished_orb
    changed: dict[str, int] = {}

    def change_one_d10(data: dict[str, Any]) -> None:
        if changed:
            return
        for step in data["steps"]:
            for entry in step["entries"]:
                for roll in entry["dice"]:
                    if roll["kind"] == "d10":
                        roll["values"][0] = roll["values"][0] % 10 + 1
                        changed["step"] = step["step"]
                        return

    user = game.room.seats.get(number=1).user
    Site(client_for(user), tamper=change_one_d10).open(replay_page, game)
    replay_page.wait_for_function("() => document.getElementById('replay').dataset.verified")
    assert changed
    assert replay_page.locator("#replay").get_attribute("data-verified") == "failed"
    assert (
        replay_page.locator("#verify-result")
        .inner_text()
        .startswith(f"✗ Step {changed['step']}: the log shows")
    )
