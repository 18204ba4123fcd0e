"""docs/zagor/rules.md section 3: setup."""

from collections import Counter

from apps.games.zagor.board import board
from apps.games.zagor.data import LEVEL_FIGURES, LEVEL_TILES
from apps.games.zagor.engine import new_game
from apps.games.zagor.scenarios import shipped

from .builders import game


def faces_on(s, level):
    return Counter(t.face for sp, t in s.tiles.items() if board().spaces[sp].level == level)


def test_each_levels_tiles_are_laid_face_down_on_its_corridor_spaces():
    s = game()
    for level in (1, 2, 3):
        assert faces_on(s, level) == Counter(LEVEL_TILES[level])
    assert not any(t.revealed for t in s.tiles.values())


def test_tiles_are_laid_at_random_per_seed():
    assert game(seed=1).tiles != game(seed=2).tiles


def test_one_figure_stands_in_each_room():
    s = game()
    for level in (1, 2):
        rooms = [r for r in s.rooms if board().spaces[r].level == level]
        assert Counter(s.rooms[r].monster for r in rooms) == Counter(LEVEL_FIGURES[level])


def test_full_game_chests_one_per_level_one_room_two_per_level_two_room_three_in_supply():
    s = game()
    assert all(len(s.rooms[r].chests) == (1 if r.startswith("r1") else 2) for r in s.rooms)
    assert len(s.chest_supply) == 3
    assert Counter(s.chest_contents.values()) == {"talisman": 12, "dagger": 12}


def test_each_hero_starts_on_his_corner_with_the_tales_gold_and_one_secret_spell():
    s = game(heroes=4)
    assert [s.heroes[h].space for h in s.order] == ["s1", "s2", "s3", "s4"]
    assert all(h.gold == 20 and len(h.spells) == 1 for h in s.heroes.values())
    assert len(s.deck) == 56 - 4


def test_the_voice_greets_every_hero_and_names_the_first_player():
    r = new_game(shipped("crypt_of_zagor"), 3, 5, {}, commitment="c0ffee")
    assert r.events[0]["type"] == "commitment" and r.events[0]["commitment"] == "c0ffee"
    voices = [e["text"] for e in r.events if e["type"] == "voice"]
    assert voices[0] == "Zagor: Who dares challenge me?"
    assert voices[-1].endswith("goes first.")
    assert r.state.turn.hero == r.state.first
    assert ("first", 3, r.state.order.index(r.state.first)) in r.draws


def test_the_spell_draw_is_private_to_its_hero():
    r = new_game(shipped("crypt_of_zagor"), 2, 5, {}, commitment=None)
    drawn = [e for e in r.events if e["type"] == "spell_drawn"]
    assert [e["audience"] for e in drawn] == [[1], [2]]
    assert all("spell card" in e["redacted"]["text"] for e in drawn)


def test_the_orb_tale_uses_level_one_only_with_ten_gold():
    s = game("enchanted_orb", heroes=2)
    assert s.levels == [1] and all(h.gold == 10 for h in s.heroes.values())
    assert {board().spaces[sp].level for sp in s.tiles} == {1}
    assert sorted(c for r in s.rooms.values() for c in r.chests) == list(range(1, 10))
    assert list(s.chest_contents.values()).count("orb") == 1


def test_the_spectre_tale_uses_levels_one_and_two_with_a_pile_of_21():
    s = game("howling_spectre", heroes=2)
    assert s.levels == [1, 2] and all(h.gold == 12 for h in s.heroes.values())
    assert len(s.chest_supply) == 21 and not any(r.chests for r in s.rooms.values())
    spirit = [int(c) for c, v in s.chest_contents.items() if v == "spirit"]
    assert len(spirit) == 1 and 1 <= spirit[0] <= 9
