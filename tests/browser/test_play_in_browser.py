"""Three players at one table in real Chromium: sign up, open a room, take seats, launch, play
hero turns and a Zargon phase by clicking the board, reload mid-turn, and check that nothing
hidden reaches a hero seat (page source, DOM, websocket frames).

The site runs in a real `config.server` subprocess (HTTP and websockets) against the test database:
PostgreSQL's test database when DATABASE_URL points there (the test is transactional, so its rows
are visible to the subprocess), otherwise a throwaway SQLite file migrated for this test.
Chromium is Debian's /usr/bin/chromium; Playwright never downloads a browser.
"""

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from playwright.sync_api import sync_playwright

from apps.quests.services import quest_sync_shipped
from tests.servers import ROOT, server_env, shared_database_url, web_server

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
IN_CI = os.environ.get("CI", "").lower() == "true"
PASSWORD = "cinder-stair-4417"
# Zargon's ids for pieces the heroes have not seen start with these; a hero seat never sees them.
HIDDEN_ID = re.compile(r"\bz-[a-z]-[\w-]+")
# The heroes walk to the stair door, then to the Guard Room door, to wake some monsters.
GOALS = [((2, 14), ((2, 14), (2, 13))), ((3, 12), ((3, 12), (3, 11)))]

Square = tuple[int, int]


def skip_or_fail(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"{reason}, but CI=true: CI must run the browser tests")
    pytest.skip(reason)


@pytest.fixture
def chromium() -> str:
    if not CHROMIUM.exists():
        skip_or_fail("needs Debian's Chromium at /usr/bin/chromium (make browser installs it)")
    return str(CHROMIUM)


@pytest.fixture
def site_env(transactional_db: None, tmp_path: Path) -> dict[str, str]:
    """The site's environment, its database ready (a test may run setup scripts in it too)."""
    env = server_env(
        DEBUG="true",  # static files through WhiteNoise's finders, no collectstatic
        ALLOWED_HOSTS="127.0.0.1,localhost",
        CELERY_BROKER_URL="memory://",  # notifications are queued, never run, no files
    )
    if connection.vendor == "sqlite":
        env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'site.sqlite3'}"
        for command in (["migrate", "--noinput"], ["load_quests"]):
            subprocess.run(
                [sys.executable, "manage.py", *command],
                cwd=ROOT,
                env=env,
                check=True,
                capture_output=True,
            )
    else:
        quest_sync_shipped()
        env["DATABASE_URL"] = shared_database_url()
    return env


@pytest.fixture
def site(site_env: dict[str, str], tmp_path: Path) -> Iterator[str]:
    """A web server process (`config.server`) serving the whole site; yields its base URL."""
    with web_server(site_env, tmp_path) as base:
        yield base


@dataclass
class Player:
    name: str
    page: Any
    frames: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    # Each socket's frames, by the socket's URL (a game socket's carries its page's id).
    socket_frames: dict[str, list[str]] = field(default_factory=dict)
    # The versions each page's accepted actions answered with, by the page's socket id.
    answered: dict[str, set[int]] = field(default_factory=dict)

    def record_frames(self) -> None:
        def on_socket(ws: Any) -> None:
            frames = self.socket_frames.setdefault(ws.url, [])

            def on_frame(data: str) -> None:
                self.frames.append(data)
                frames.append(data)

            ws.on("framereceived", on_frame)

        def on_response(response: Any) -> None:
            request = response.request
            if request.method != "POST" or not re.search(r"/api/games/\d+/actions$", response.url):
                return
            if response.ok:
                socket = request.headers.get("x-socket-id", "")
                self.answered.setdefault(socket, set()).add(response.json()["version"])

        self.page.on("websocket", on_socket)
        self.page.on("response", on_response)


# ---- Helpers over the page ---------------------------------------------------------------


def refuse_policy_violations(page: Any, errors: list[str]) -> None:
    """Anything the Content-Security-Policy blocked (an inline script, a style attribute, a
    socket to elsewhere) lands in `errors`: Chromium reports it as a console error."""

    def on_console(message: Any) -> None:
        if message.type == "error" and "Content Security Policy" in message.text:
            errors.append(message.text)

    page.on("console", on_console)


def sign_up(player: Player, base: str) -> None:
    page = player.page
    page.goto(f"{base}/accounts/signup/")
    page.fill("#id_username", player.name)
    page.fill("#id_email", f"{player.name}@example.com")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_load_state()
    assert "/signup" not in page.url, page.content()
    # These players know what they do: no "are you sure?" before far moves or ending a turn
    # (tests/browser/test_play_table.py covers the confirmations).
    page.goto(f"{base}/accounts/profile/")
    page.uncheck("#id_confirm_actions")
    page.click("form[action$='/profile/'] button[type=submit]")
    page.wait_for_load_state()


def take_seat(player: Player, number: int) -> None:
    player.page.click(f"#seat-{number} button")
    player.page.wait_for_load_state()
    assert "(you)" in player.page.text_content(f"#seat-{number}")


def wait_room_live(player: Player) -> None:
    """The room page's live socket is open (it joined the room's updates before opening)."""
    player.page.wait_for_selector("[data-live-socket][data-live-state=live]", state="attached")


def open_game(player: Player, url: str) -> None:
    response = player.page.goto(url)
    assert response is not None and response.ok
    player.sources.append(response.text())
    wait_live(player)


def wait_live(player: Player) -> None:
    player.page.wait_for_selector("#connection[data-state=live]", timeout=15000)
    settle(player)


def api_view(player: Player, game_url: str) -> dict[str, Any]:
    game_id = re.search(r"/games/(\d+)/", game_url)
    assert game_id is not None
    base = game_url.split("/games/")[0]
    response = player.page.request.get(f"{base}/api/games/{game_id[1]}/view")
    assert response.ok, response.text()
    view: dict[str, Any] = response.json()
    return view


def settle(player: Player) -> None:
    """Wait until the page is idle (no post in flight, no multi-square walk)."""
    player.page.wait_for_function(
        """() => {
            const r = document.getElementById('play');
            return r && r.getAttribute('aria-busy') !== 'true' && r.dataset.walking !== '1';
        }""",
        timeout=20000,
    )


def caught_up(player: Player, version: int) -> None:
    player.page.wait_for_function(
        "v => Number(document.getElementById('play').dataset.version) >= v",
        arg=version,
        timeout=15000,
    )


def focus_board(player: Player) -> None:
    """Enter ends the turn only from the map."""
    player.page.locator("#board-scroll").focus()


def square_of(hero: str, view: dict[str, Any]) -> Square | None:
    for h in view["heroes"]:
        if h["hero"] == hero and h["position"]:
            return (h["position"][0], h["position"][1])
    return None


def door_id(view: dict[str, Any], edge: tuple[Square, Square]) -> str | None:
    for d in view["map"]["doors"]:
        a, b = (tuple(d["between"][0]), tuple(d["between"][1]))
        if {a, b} == set(edge):
            return str(d["id"])
    return None


def door_open(view: dict[str, Any], edge: tuple[Square, Square]) -> bool:
    return any(
        {tuple(d["between"][0]), tuple(d["between"][1])} == set(edge) and d["open"]
        for d in view["map"]["doors"]
    )


def highlighted(player: Player) -> list[Square]:
    keys: list[str] = player.page.eval_on_selector_all(
        "#board .hl-move, #board .hl-reach", "els => els.map(e => e.dataset.square)"
    )
    return [(int(k.split(",")[0]), int(k.split(",")[1])) for k in keys]


def distance(a: Square, b: Square) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def act_and_wait(player: Player, game_url: str, do: Any) -> dict[str, Any]:
    before = api_view(player, game_url)["version"]
    do()
    settle(player)
    view = api_view(player, game_url)
    assert view["version"] > before, "the click posted nothing"
    caught_up(player, view["version"])
    return view


# ---- One hero turn, one Zargon phase -----------------------------------------------------


def play_hero_turn(player: Player, game_url: str, reload_midway: bool = False) -> None:
    """Roll, walk towards the next closed goal door and open it, then end the turn with Enter."""
    page = player.page
    view = api_view(player, game_url)
    hero = view["turn"]["hero"]
    if any(a["type"] == "roll_movement" for a in view["legal_actions"]):
        view = act_and_wait(
            player, game_url, lambda: page.get_by_role("button", name="Roll for movement").click()
        )
        # The roll is drawn as red dice in the tray and the log.
        assert page.locator("#dice-tray svg.die-red").count() >= 1
    for _ in range(12):
        goal = next(((sq, edge) for sq, edge in GOALS if not door_open(view, edge)), None)
        if goal is None:
            break
        target, edge = goal
        door = door_id(view, edge)
        opening = [
            a for a in view["legal_actions"] if a["type"] == "open_door" and a["door"] == door
        ]
        if opening:
            view = act_and_wait(
                player,
                game_url,
                lambda d=door: page.locator(f'#board [data-door="{d}"] .door-hit').click(
                    force=True
                ),
            )
            continue
        here = square_of(hero, view)
        squares = highlighted(player)
        if here is None or not squares:
            break
        best = min(squares, key=lambda s: distance(s, target))
        if distance(best, target) >= distance(here, target):
            break
        key = f"{best[0]},{best[1]}"
        view = act_and_wait(
            player,
            game_url,
            lambda k=key: page.locator(
                f'#board .hl-move[data-square="{k}"], #board .hl-reach[data-square="{k}"]'
            ).first.click(force=True),
        )
        if reload_midway:
            reload_midway = False
            check_reload_keeps_state(player, hero)
    focus_board(player)
    act_and_wait(player, game_url, lambda: page.keyboard.press("Enter"))


def check_reload_keeps_state(player: Player, hero: str) -> None:
    page = player.page
    token = f'#board [data-hero="{hero}"] circle.hero-token'
    before = (
        page.text_content("#turn-panel"),
        page.get_attribute(token, "cx"),
        page.get_attribute(token, "cy"),
    )
    response = page.reload()
    assert response is not None and response.ok
    player.sources.append(response.text())
    wait_live(player)
    after = (
        page.text_content("#turn-panel"),
        page.get_attribute(token, "cx"),
        page.get_attribute(token, "cy"),
    )
    assert after == before


def play_zargon_phase(player: Player, game_url: str) -> bool:
    """Activate one monster by clicking it, move or attack by clicking, end it and the phase."""
    page = player.page
    view = api_view(player, game_url)
    monsters = [a["monster"] for a in view["legal_actions"] if a["type"] == "monster_move"]
    monsters += [a["monster"] for a in view["legal_actions"] if a["type"] == "monster_attack"]
    acted = False
    if monsters:
        monster = monsters[0]
        page.locator(f'#board [data-monster="{monster}"]').click(force=True)
        page.wait_for_selector(f'#board [data-monster="{monster}"].selected')
        attack = [
            a
            for a in view["legal_actions"]
            if a["type"] == "monster_attack" and a["monster"] == monster
        ]
        if attack:
            hero = attack[0]["target"]
            view = act_and_wait(
                player,
                game_url,
                lambda: page.locator(f'#board [data-hero="{hero}"]').click(force=True),
            )
            assert page.locator("#game-log svg.die-combat").count() >= 1
        else:
            squares = [s for s in highlighted(player)]
            assert squares, "a monster that may move shows no green squares"
            heroes = [tuple(h["position"]) for h in view["heroes"] if h["position"]]
            best = min(squares, key=lambda s: min(distance(s, h) for h in heroes))
            key = f"{best[0]},{best[1]}"
            view = act_and_wait(
                player,
                game_url,
                lambda: page.locator(
                    f'#board .hl-move[data-square="{key}"], #board .hl-reach[data-square="{key}"]'
                ).first.click(force=True),
            )
        acted = True
        ends = page.get_by_role("button", name=re.compile("^End activation"))
        if ends.count():
            view = act_and_wait(player, game_url, lambda: ends.first.click())
    focus_board(player)
    act_and_wait(player, game_url, lambda: page.keyboard.press("Enter"))
    return acted


# ---- What a hero seat must never see -----------------------------------------------------


def hidden_facts(zargon_view: dict[str, Any]) -> tuple[set[Square], set[Square], set[Square]]:
    """Squares of unrevealed monsters, undetected traps and unrevealed areas (Zargon's view)."""
    monsters = {
        (m["position"][0], m["position"][1])
        for m in zargon_view["monsters"]
        if m.get("revealed") is False and m["position"]
    }
    traps = {
        (t["square"][0], t["square"][1])
        for t in zargon_view["map"]["traps"]
        if not t["detected"] and t["square"]
    }
    squares = {(s["x"], s["y"]) for s in zargon_view["map"]["squares"] if not s["revealed"]}
    return monsters, traps, squares


def assert_view_hides(view: dict[str, Any], hidden: tuple[set[Square], ...], where: str) -> None:
    monsters, traps, squares = hidden
    text = json.dumps(view)
    assert not HIDDEN_ID.search(text), f"{where}: Zargon's id {HIDDEN_ID.search(text)}"
    seen_monsters = {
        (m["position"][0], m["position"][1]) for m in view["monsters"] if m["position"]
    }
    leaked = seen_monsters & monsters
    assert not leaked, f"{where}: unrevealed monsters at {leaked}"
    seen_traps = {(t["square"][0], t["square"][1]) for t in view["map"]["traps"] if t["square"]}
    assert not seen_traps & traps, f"{where}: undetected traps at {seen_traps & traps}"
    seen_squares = {(s["x"], s["y"]) for s in view["map"]["squares"]}
    assert not seen_squares & squares, f"{where}: unrevealed squares {seen_squares & squares}"


def embedded_view(source: str) -> dict[str, Any]:
    match = re.search(r'<script id="seat-view"[^>]*>(.*?)</script>', source, re.S)
    assert match, "the page embeds no seat view"
    view: dict[str, Any] = json.loads(match[1])
    return view


def assert_hero_seat_clean(player: Player, zargon_view: dict[str, Any], game_url: str) -> None:
    hidden = hidden_facts(zargon_view)
    monsters = hidden[0]
    assert monsters, "the scenario needs monsters that are still hidden"
    for i, source in enumerate(player.sources):
        assert not HIDDEN_ID.search(source), f"{player.name} page source {i}"
        assert_view_hides(embedded_view(source), hidden, f"{player.name} page source {i}")
    dom = player.page.content()
    assert not HIDDEN_ID.search(dom), f"{player.name} DOM"
    drawn = player.page.eval_on_selector_all(
        "#board [data-monster] .monster-token",
        "els => els.map(e => [Math.floor(+e.getAttribute('x')), Math.floor(+e.getAttribute('y'))])",
    )
    assert not {tuple(p) for p in drawn} & monsters, f"{player.name} draws a hidden monster"
    assert_view_hides(api_view(player, game_url), hidden, f"{player.name} API view")
    views = 0
    for raw in player.frames:
        assert not HIDDEN_ID.search(raw), f"{player.name} websocket frame"
        frame = json.loads(raw)
        if frame.get("type") == "view":
            views += 1
            assert_view_hides(frame["view"], hidden, f"{player.name} frame v{frame['version']}")
    assert views >= 1, f"{player.name} received no websocket view frames"


def assert_own_views_not_sent_again(player: Player) -> int:
    """No game socket sent its page the view of a version that page's own action was answered
    with (the answer carried it). Returns how many actions the player's pages played."""
    played = 0
    for socket, versions in player.answered.items():
        assert socket, f"{player.name} posted an action without its page's socket id"
        played += len(versions)
        for url, frames in player.socket_frames.items():
            if f"socket={socket}" not in url:
                continue
            sent = {json.loads(f)["version"] for f in frames if json.loads(f)["type"] == "view"}
            assert not sent & versions, f"{player.name} was sent its own views {sent & versions}"
    return played


def say_in_chat(player: Player, text: str) -> None:
    player.page.fill("#chat-text", text)
    player.page.click("#chat-form button[type=submit]")
    player.page.locator("#chat-log li", has_text=text[-12:]).wait_for()  # shown to the speaker


# ---- The scenario ------------------------------------------------------------------------


def test_three_players_play_by_clicking(chromium: str, site: str) -> None:
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            players = []
            for name in ("zara", "bram", "ilse", "oskar"):
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                context.set_default_timeout(15000)
                player = Player(name=name, page=context.new_page())
                errors: list[str] = []
                player.page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
                refuse_policy_violations(player.page, errors)
                player.record_frames()
                players.append((player, errors))
            zargon, bram, ilse, oskar = (p for p, _ in players)
            for player in (zargon, bram, ilse, oskar):
                sign_up(player, site)

            # The host opens a three-seat room (a name that would run script if not escaped).
            zargon.page.goto(f"{site}/rooms/new")
            zargon.page.fill("#id_name", "Ash <img src=x onerror=window.__xss=1> table")
            zargon.page.select_option("#id_seats", "3")
            zargon.page.click("form[action$='/rooms/new'] button[type=submit]")
            zargon.page.wait_for_load_state()
            take_seat(zargon, 1)
            invite = zargon.page.input_value("#invite-url")
            # The host's room page stays open (never reloaded) while the others sit down.
            wait_room_live(zargon)
            zargon.page.evaluate("window.__not_reloaded = true")
            assert zargon.page.get_by_role("button", name="Launch").count() == 0
            for player, number in ((bram, 2), (ilse, 3)):
                player.page.goto(invite)
                take_seat(player, number)
                wait_room_live(player)
                zargon.page.wait_for_function(
                    "([n, name]) => document.getElementById('seat-' + n).textContent"
                    ".includes(name)",
                    arg=[number, player.name],
                )
            # Oskar looks at the open room (from the lobby's link) without sitting down.
            oskar.page.goto(zargon.page.url)
            wait_room_live(oskar)
            launch = zargon.page.get_by_role("button", name="Launch")
            launch.wait_for()  # appeared by itself once every seat was taken
            assert zargon.page.evaluate("window.__not_reloaded") is True
            launch.click()
            zargon.page.wait_for_url(re.compile(r"/games/\d+/$"))
            game_url = zargon.page.url
            open_game(zargon, game_url)
            for player in (bram, ilse):
                # Seated players' room pages take them to the game by themselves.
                player.page.wait_for_url(game_url)
                open_game(player, game_url)
                # The embedded view came with the first navigation; record its source too.
                response = player.page.reload()
                assert response is not None
                player.sources.append(response.text())
                wait_live(player)
            # The onlooker is not taken anywhere: the page says the quest started without him,
            # and all his sockets ever got were content-free pokes.
            oskar.page.wait_for_selector("#live-gone")
            assert "/games/" not in oskar.page.url
            assert oskar.frames and all(json.loads(f)["type"] == "changed" for f in oskar.frames)

            assert zargon.page.evaluate("window.__xss") is None
            assert "<img src=x" in zargon.page.text_content(".play-title")
            assert zargon.page.text_content("#turn-panel .turn-who") == "The Barbarian's turn"
            assert bram.page.locator("#turn-panel.your-turn").count() == 1
            assert zargon.page.locator("#turn-panel.your-turn").count() == 0

            seat_of = {"barbarian": bram, "dwarf": bram, "elf": ilse, "wizard": ilse}
            phases = 0
            hero_turns = 0
            reloaded = False
            for _ in range(40):
                view = api_view(zargon, game_url)
                if view["outcome"] or (phases >= 1 and hero_turns >= 4):
                    break
                if view["turn"]["phase"] == "monsters":
                    caught_up(zargon, view["version"])
                    if play_zargon_phase(zargon, game_url):
                        phases += 1
                    continue
                player = seat_of[view["turn"]["hero"]]
                caught_up(player, view["version"])
                assert player.page.locator("#turn-panel.your-turn").count() == 1
                play_hero_turn(player, game_url, reload_midway=not reloaded)
                reloaded = True
                hero_turns += 1
            assert hero_turns >= 4, "fewer than four hero turns were played"
            assert phases >= 1, "Zargon never had a monster to activate"

            # Every page caught up through its websocket, and the log tells the story.
            final = api_view(zargon, game_url)
            for player in (zargon, bram, ilse):
                caught_up(player, final["version"])
                assert player.page.locator("#game-log li").count() >= 5
            assert zargon.page.locator("#monsters-panel").is_visible()
            # A hero seat's stat cards are those of the monsters its view shows, no more.
            cards = bram.page.locator("#monsters-panel .stat-card").count()
            assert cards == len(api_view(bram, game_url)["monsters"])
            assert "Quest notes" in zargon.page.text_content("#quest-panel summary")
            assert "parchment" in bram.page.text_content("#quest-panel summary")

            # Table talk: the parchment opened it, and a message reaches the other pages live, as
            # plain text (markup in it stays text); Zargon may speak as the narrator.
            for player in (zargon, bram, ilse):
                assert "Nine days and nine nights" in player.page.text_content("#chat-log")
            say_in_chat(ilse, "<b>Bram</b>, mind the pit!")
            for player in (bram, zargon):
                said = player.page.locator("#chat-log li", has_text="mind the pit")
                said.wait_for()
                assert said.locator(".chat-text").text_content() == "<b>Bram</b>, mind the pit!"
                assert player.page.locator("#chat-log b").count() == 0
            zargon.page.check("#chat-narrator")
            say_in_chat(zargon, "A cold wind blows out the torches.")
            narrated = bram.page.locator("#chat-log li.chat-narrator", has_text="cold wind")
            narrated.wait_for()
            assert narrated.locator(".chat-name").text_content() == "The narrator"
            assert bram.page.locator("#chat-narrator").count() == 0  # heroes cannot narrate

            for player in (bram, ilse):
                assert_hero_seat_clean(player, final, game_url)
            # Each page's own actions came back in their answers, not again over its socket; the
            # others' pages were sent those versions (the pages caught up above through them).
            played = [assert_own_views_not_sent_again(p) for p in (zargon, bram, ilse)]
            assert all(played), f"a seat played no action: {played}"
            for player, errors in players:
                assert not errors, f"{player.name}: {errors}"
        finally:
            browser.close()
