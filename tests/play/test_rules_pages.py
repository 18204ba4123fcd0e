"""The rules pages (issue 21): each game's rules for players (docs/players/<game>.md, served as
/rules/<game>/), the site's readings in "On this site" notes, the complete reference beside them
(docs/rules.md, docs/zagor/rules.md), /rules/ listing both, linked from the game page and the
lobby. Every data table a player reads is checked here against the engine's own tables, so the
page cannot drift from what the site plays."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.test import Client

from apps.games.heroquest.engine import data as hq
from apps.games.heroquest.engine.dice import COMBAT_FACES
from apps.games.heroquest.engine.hero_turn import movement_dice
from apps.games.heroquest.engine.options import ROOM_OPTIONS, stats_for_kind
from apps.games.heroquest.engine.traps import FALLING_BLOCK_DICE, TRAP_NAMES
from apps.games.zagor import data as zd
from apps.games.zagor.scenarios import SLUGS, shipped

from .conftest import GameMaker, client_for

ROOT = Path(__file__).resolve().parents[2]


# ---- reading the page's tables -------------------------------------------------------------


class _Tables(HTMLParser):
    """Every <table> of a page as rows of cell texts (the header row first)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def tables(page: str, first: str) -> list[list[dict[str, str]]]:
    """The page's tables whose first header is `first`, in page order, as rows by header."""
    parser = _Tables()
    parser.feed(page)
    found = [t for t in parser.tables if t and t[0] and t[0][0] == first]
    assert found, f"no table headed {first!r}"
    return [[dict(zip(t[0], row, strict=True)) for row in t[1:]] for t in found]


def table(page: str, first: str) -> list[dict[str, str]]:
    (only,) = tables(page, first)
    return only


def by(rows: list[dict[str, str]], column: str) -> dict[str, dict[str, str]]:
    """The rows by their `column`, written as `name` writes it (see `name`)."""
    return {norm(row[column]): row for row in rows}


def number(text: str) -> int:
    """The first whole number in a cell ("3 attack dice" -> 3, "+1 defend die" -> 1)."""
    found = re.search(r"\d+", text)
    assert found, f"no number in {text!r}"
    return int(found[0])


def norm(text: str) -> str:
    """An engine name or a table's name for it, in one form: "battle_axe", "Battle Axe" and
    "battle axe" are all "battle axe"."""
    return " ".join(text.replace("_", " ").split()).lower()


@pytest.fixture(scope="module")
def heroquest() -> str:
    response = Client().get("/rules/heroquest/")  # no login needed to read the rules
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture(scope="module")
def zagor() -> str:
    response = Client().get("/rules/zagor/")
    assert response.status_code == 200
    return response.content.decode()


# ---- the pages -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_rules_lists_each_game_with_its_players_page_and_its_reference() -> None:
    page = Client().get("/rules/").content.decode()
    for slug, name in (("heroquest", "HeroQuest"), ("zagor", "Legend of Zagor")):
        assert f'href="/rules/{slug}/"' in page and f'href="/rules/{slug}/reference/"' in page
        assert f"How to play {name}" in page
    assert Client().get("/rules/chess/").status_code == 404


@pytest.mark.django_db
def test_the_players_pages_speak_to_players_and_mark_the_sites_readings(
    heroquest: str, zagor: str
) -> None:
    for page in (heroquest, zagor):
        assert "code, tests" not in page and "cite its sections" not in page
        assert "docs/" not in page.split('<div class="rules-text">')[1]  # no file paths
        note = r'<div class="admonition site" role="note">\s*<p class="admonition-title">'
        notes = re.findall(note, page)
        assert len(notes) >= 8
        assert page.count(">On this site</p>") == len(notes)
    assert "<h1" in heroquest and "How to play HeroQuest" in heroquest
    assert 'href="/rules/heroquest/reference/"' in heroquest


@pytest.mark.django_db
def test_the_reference_stays_the_developers_text_with_an_anchor_per_section() -> None:
    page = Client().get("/rules/heroquest/reference/").content.decode()
    assert '<h2 id="rules-7">7. Traps</h2>' in page
    assert 'id="rules-8b"' in page and "Dread spells" in page
    assert 'href="/rules/heroquest/"' in page  # back to the players' page
    page = Client().get("/rules/zagor/reference/").content.decode()
    assert 'id="rules-7"' in page and "Fighting monsters" in page


def test_every_section_the_story_cites_is_a_section_of_the_players_page(heroquest: str) -> None:
    """The story's "rules 7: ..." links go to the game's rules page
    (static/js/games/heroquest/rules.js)."""
    rules_js = (ROOT / "static/js/games/heroquest/rules.js").read_text(encoding="utf-8")
    cited = set(re.findall(r'RULE\("?(\w+)"?,', rules_js))
    assert {"3", "5", "7", "8b", "11"} <= cited
    for section in cited:
        assert re.search(rf'<h[23] id="rules-{section}">', heroquest), section


@pytest.mark.django_db
def test_the_game_page_and_the_lobby_link_to_the_games_rules(make_game: GameMaker) -> None:
    game, users = make_game(2)
    page = client_for(users[2]).get(f"/games/{game.pk}/").content.decode()
    assert 'data-rules-url="/rules/heroquest/"' in page
    assert 'class="rules-link" href="/rules/heroquest/"' in page
    lobby = client_for(users[2]).get("/").content.decode()
    assert 'href="/rules/heroquest/"' in lobby and 'href="/rules/zagor/"' in lobby


# ---- HeroQuest's tables against its engine ----------------------------------------------------


def test_heroquest_seats_and_heroes(heroquest: str) -> None:
    for row in table(heroquest, "Seats in the room"):
        seats = int(row["Seats in the room"])
        for seat in range(2, 6):
            heroes = [h.strip().lower() for h in row[f"Seat {seat}"].split(",") if h.strip()]
            assert tuple(heroes) == hq.heroes_of_seat(seats, seat), (seats, seat)
    rows = by(table(heroquest, "Hero"), "Hero")
    assert set(rows) == {norm(h) for h in hq.HERO_ORDER}
    for hero, stats in hq.HEROES.items():
        row = rows[norm(hero)]
        assert int(row["Attack dice"]) == hq.WEAPONS[stats.weapon].attack
        assert (int(row["Defend dice"]), int(row["Body"]), int(row["Mind"])) == (
            stats.defend,
            stats.body,
            stats.mind,
        )
        assert norm(row["Starts with"]) == norm(stats.weapon)
        elements = {hq.SPELLS[s].element for s in stats.spells}
        assert set(re.findall(r"\b(air|fire|water|earth)\b", row["Spells"].lower())) == elements


def test_heroquest_movement_and_the_combat_die(heroquest: str) -> None:
    rows = table(heroquest, "You roll")
    plain = SimpleNamespace(effects=[], armour=[])
    swift = SimpleNamespace(effects=["swift_wind"], armour=[])
    plate = SimpleNamespace(effects=[], armour=["plate_mail"])
    assert [number(r["You roll"]) for r in rows] == [
        movement_dice(plain),  # type: ignore[arg-type]
        movement_dice(swift),  # type: ignore[arg-type]
        movement_dice(plate),  # type: ignore[arg-type]
    ]
    assert movement_dice(SimpleNamespace(effects=["swift_wind"], armour=["plate_mail"])) == 4  # type: ignore[arg-type]
    faces = by(table(heroquest, "Combat die face"), "Combat die face")
    for face in set(COMBAT_FACES):
        assert number(faces[norm(face)]["On the die"]) == COMBAT_FACES.count(face)


def test_heroquest_treasure_deck(heroquest: str) -> None:
    rows = by(table(heroquest, "Treasure card"), "Treasure card")
    assert set(rows) == {norm(card) for card in hq.TREASURE_CARDS}
    for card, (count, returns) in hq.TREASURE_CARDS.items():
        row = rows[norm(card)]
        assert int(row["Cards in the deck"]) == count
        assert row["Back in the deck after drawing"].startswith("yes" if returns else "no")
        if card.startswith("gold_"):
            assert number(row["What you find"]) == int(card.removeprefix("gold_"))
    assert f"({len(hq.treasure_deck())} cards)" in heroquest


def test_heroquest_traps(heroquest: str) -> None:
    rows = by(table(heroquest, "Trap"), "Trap")
    names = {"chest": "chest trap"}
    assert set(rows) == {names.get(kind, norm(kind)) for kind in TRAP_NAMES}
    assert f"roll {FALLING_BLOCK_DICE} combat dice" in rows["falling block"]["What happens"]
    assert str(hq.HAZARD_DAMAGE) + " Body lost" in heroquest


def test_heroquest_spells(heroquest: str) -> None:
    rows = by(table(heroquest, "Element"), "Spell")
    assert set(rows) == {norm(name) for name in hq.SPELLS}
    for name, spell in hq.SPELLS.items():
        row = rows[norm(name)]
        assert row["Element"] == spell.element.title()
        assert row["Kind"] == ("helpful" if spell.helpful else "harmful")
    assert f"restores up to {hq.HEAL_SPELL_AMOUNT} Body" in rows["heal body"]["What it does"]
    dread = by(table(heroquest, "Dread spell"), "Dread spell")
    assert set(dread) == {norm(name) for name in hq.DREAD_SPELLS}


def test_heroquest_monsters_in_both_editions(heroquest: str) -> None:
    rows = by(table(heroquest, "Monster"), "Monster")
    assert set(rows) == {norm(stats.name) for stats in hq.MONSTERS.values()}
    uk = SimpleNamespace(options={"edition": "uk"})
    for kind, stats in hq.MONSTERS.items():
        row = rows[norm(stats.name)]
        assert [int(row[c]) for c in ("Move", "Attack dice", "Defend dice", "Body", "Mind")] == [
            stats.move,
            stats.attack,
            stats.defend,
            stats.body,
            stats.mind,
        ], kind
        assert row["Undead"] == ("yes" if stats.undead else "no")
        # The Dread Warden is the Ashen Vault's villain: a villain keeps its figures in the UK.
        uk_body = stats.body if kind == "dread_warden" else stats_for_kind(uk, kind).body  # type: ignore[arg-type]
        assert int(row["Body (UK edition)"]) == uk_body, kind


def test_heroquest_armory(heroquest: str) -> None:
    rows = by(table(heroquest, "Item"), "Item")
    assert set(rows) == {norm(i) for i in [*hq.WEAPONS, *hq.ARMOUR]} | {"tool kit"}
    assert int(rows["tool kit"]["Price (gold)"]) == hq.TOOL_KIT_PRICE
    for name, weapon in hq.WEAPONS.items():
        row = rows[norm(name)]
        assert int(row["Price (gold)"]) == weapon.price, name
        assert row["Gives"] == f"{weapon.attack} attack {'die' if weapon.attack == 1 else 'dice'}"
        also = row["Also"]
        assert ("attacks diagonally" in also) == weapon.diagonal, name
        assert ("may be thrown" in also) == weapon.thrown, name
        assert ("two-handed" in also) == weapon.two_handed, name
        assert ("not next to you" in also) == weapon.ranged, name
        assert (row["Not for"] == "the Wizard") == (not weapon.wizard_may_use), name
    for name, armour in hq.ARMOUR.items():
        row = rows[norm(name)]
        assert int(row["Price (gold)"]) == armour.price, name
        assert number(row["Gives"]) == armour.defend, name
        assert ("movement rolls one die" in row["Also"]) == armour.one_movement_die, name
        assert ("two-handed" in row["Also"]) == armour.not_with_two_handed, name
        assert (row["Not for"] == "the Wizard") == (not armour.wizard_may_use), name


def test_heroquest_room_options_are_each_explained(heroquest: str) -> None:
    words = {
        "edition": "edition",
        "spell_draft": "spell draft",
        "heroes_pass_heroes": "pass heroes",
    }
    assert set(words) == set(ROOM_OPTIONS)
    for option in ROOM_OPTIONS:
        assert words[option] in heroquest, option


# ---- Legend of Zagor's tables against its engine ----------------------------------------------


def test_zagor_heroes(zagor: str) -> None:
    rows = table(zagor, "Seat")
    assert [row["Hero"] for row in rows] == [h.name for h in zd.HEROES]
    for seat, (row, hero) in enumerate(zip(rows, zd.HEROES, strict=True), start=1):
        assert int(row["Seat"]) == seat
        assert (int(row["Strength"]), int(row["Stamina"])) == (hero.strength, hero.stamina)
        prices = dict(re.findall(r"([A-Z][A-Za-z ]+?) (\d+)", row["Cheaper at the Store"]))
        assert {item: int(p) for item, p in prices.items()} == hero.prices


def test_zagor_tiles_of_each_level(zagor: str) -> None:
    after = {"always": "used up", "taken": "used up when", "slain": "used up when slain"}
    levels = tables(zagor, "Tile")
    assert len(levels) == 3
    for level, rows in zip((1, 2, 3), levels, strict=True):
        deck = zd.LEVEL_TILES[level]
        assert {row["Tile"]: int(row["Count"]) for row in rows} == {t: deck.count(t) for t in deck}
        for row in rows:
            used_up = zd.TILES[row["Tile"]].used_up
            told = row["After"]
            assert told.startswith(after[used_up]) if used_up != "never" else told == "stays"
    assert f"({len(zd.LEVEL_TILES[1])} grey tiles)" in zagor
    assert f"({len(zd.LEVEL_TILES[2])} brown tiles)" in zagor
    assert f"({len(zd.LEVEL_TILES[3])} green tiles)" in zagor
    for name, (strength, stamina) in zd.CORRIDOR_MONSTERS.items():
        assert f"{name} (Strength {strength}, Stamina {stamina})" in zagor


def test_zagor_monsters_scaling_and_hirelings(zagor: str) -> None:
    rows = by(table(zagor, "Monster"), "Monster")
    assert set(rows) == {norm(m) for m in zd.MONSTERS}
    for name, (level, strength, stamina) in zd.MONSTERS.items():
        row = rows[norm(name)]
        assert [int(row[c]) for c in ("Level", "Base Strength", "Base Stamina")] == [
            level,
            strength,
            stamina,
        ]
    (strength_row, stamina_row) = table(zagor, "Heroes at the table")
    for heroes, (strength, stamina) in zd.SCALING.items():
        assert int(strength_row[str(heroes)]) == strength
        assert int(stamina_row[str(heroes)]) == stamina
    hirelings = by(table(zagor, "Hireling"), "Hireling")
    assert {h: (int(r["Strength"]), int(r["Stamina"])) for h, r in hirelings.items()} == {
        norm(h): figures for h, figures in zd.HIRELINGS.items()
    }
    for name, (strength, stamina) in zd.HIRELINGS.items():
        if name != "Familiar":  # the Familiar comes by a spell, the others by their tiles
            assert f"joins you as hireling (Strength {strength}, Stamina {stamina})" in zagor


def test_zagor_spells(zagor: str) -> None:
    rows = by(table(zagor, "Spell"), "Spell")
    assert set(rows) == {norm(s) for s in zd.SPELLS}
    for name, spell in zd.SPELLS.items():
        row = rows[norm(name)]
        assert int(row["Cards"]) == spell.cards, name
        when = row["When"]
        told = set(re.findall(r"turn|fight|duel", when))
        told = {"turn", "fight", "duel"} if when == "any" else told
        assert told == set(spell.when), name
    assert f"The deck has {len(zd.SPELL_DECK)} cards" in zagor


def test_zagor_store_crypt_voice_and_tales(zagor: str) -> None:
    store = by(table(zagor, "Item"), "Item")
    assert {item: int(row["Price (gold)"]) for item, row in store.items()} == {
        norm(item): price for item, price in zd.LIST_PRICES.items()
    }
    assert list(store) == [norm(item) for item in zd.ITEMS]
    assert f"at most {zd.CHEST_LIMIT} chest cards ({zd.CHEST_LIMIT_MULE} with a Mule)" in zagor

    spells = by(table(zagor, "Zagor's spell"), "Zagor's spell")
    assert list(spells) == [norm(name) for name, _, _ in zd.ZAGOR_SPELLS]
    for name, lost, regains in zd.ZAGOR_SPELLS:
        text = spells[norm(name)]["What it does"]
        assert f"you lose {lost} Stamina" in text
        assert ("Zagor regains" in text) == bool(regains)
    assert f"His Strength and Stamina are {zd.ZAGOR_FIGURES}" in zagor
    bonus_strength, bonus_stamina = zd.DRAGON_BONUS
    assert f"he has {bonus_strength} more Strength and {bonus_stamina}" in zagor

    events = table(zagor, "Number")
    assert [(int(r["Number"]), r["Event"]) for r in events] == list(
        enumerate(zd.RANDOM_EVENTS, start=1)
    )
    parser = _Tables()
    parser.feed(zagor)
    (commands,) = [t for t in parser.tables if t[0][0] == "Punishment"]
    assert [row[0] for row in commands[1:]] == list(zd.PUNISHMENTS)
    assert [row[2] for row in commands[1:]] == list(zd.REWARDS)
    assert f"one time in {zd.COMMAND_CHANCE}" in zagor.replace("eight", str(zd.COMMAND_CHANCE))

    tales = by(table(zagor, "Tale"), "Tale")
    for slug in SLUGS:
        tale = shipped(slug)
        row = tales[norm(tale.name)]
        assert tuple(number(n) for n in row["Levels"].split(",")) == tale.levels
        assert (int(row["Gold to start"]), int(row["Round limit"])) == (tale.gold, tale.round_limit)
        assert row["To win"].rstrip(".").lower() == tale.goal.rstrip(".").lower()
