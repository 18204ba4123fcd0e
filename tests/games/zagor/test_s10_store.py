"""docs/zagor/rules.md section 10: equipment, heroes' values, the Store."""

import pytest

from apps.games.port import Refusal, RefusalKind
from apps.games.zagor.data import HEROES, LIST_PRICES, price

from .builders import a, act, clear_tiles, fight, game, legal, put, turn_to


def test_heroes_values_follow_the_table():
    assert [(h.hero, h.strength, h.stamina) for h in HEROES] == [
        ("barbarian", 6, 8),
        ("dwarf", 6, 8),
        ("warrior", 7, 6),
        ("wizard", 5, 9),
    ]


def test_each_hero_has_his_own_prices():
    assert price("barbarian", "Axe") == 5 and price("dwarf", "Axe") == LIST_PRICES["Axe"]
    assert price("wizard", "Magic Ring") == 5 and price("dwarf", "Helmet") == 4


def test_the_store_is_open_on_the_first_turn_before_the_hero_acts():
    s = clear_tiles(turn_to(game(), "barbarian", first=True))
    r = act(s, a("buy", item="Axe"))
    assert r.state.heroes["barbarian"].gold == 15 and "Axe" in r.state.heroes["barbarian"].items
    s = act(r.state, a("move", to="a1")).state
    assert not any(x["type"] == "buy" for x in legal(s))


def test_the_store_is_open_to_a_hero_standing_in_it():
    s = put(clear_tiles(turn_to(game(), "barbarian")), "barbarian", "store")
    assert any(x["type"] == "buy" for x in legal(s))
    s = put(s, "barbarian", "a13")
    with pytest.raises(Refusal) as err:
        act(s, a("buy", item="Axe"))
    assert err.value.kind == RefusalKind.ILLEGAL and "not open" in err.value.reason


def test_nobody_buys_what_he_cannot_afford_or_already_owns():
    s = turn_to(game(), "barbarian", first=True)
    s.heroes["barbarian"].gold = 4
    s.heroes["barbarian"].items = ["Torch"]
    buys = {x["item"] for x in legal(s) if x["type"] == "buy"}
    assert buys == {"Magic Arrow", "Water Bottle"}


def test_a_healing_potion_heals_four_even_in_the_crypt():
    s = put(turn_to(game(), "barbarian"), "barbarian", "c1")
    s.heroes["barbarian"].items = ["Healing Potion"]
    s.heroes["barbarian"].stamina = 2
    r = act(s, a("use", item="Healing Potion"))
    assert r.state.heroes["barbarian"].stamina == 6 and r.state.heroes["barbarian"].items == []


def test_a_torch_shows_one_linked_face_down_tile_to_its_holder_alone():
    s = turn_to(game(heroes=2), "barbarian")
    s.heroes["barbarian"].items = ["Torch"]
    face = s.tiles["a1"].face
    r = act(s, a("use", item="Torch", target="a1"))
    assert r.state.heroes["barbarian"].known == {"a1": face}
    event = next(e for e in r.events if e["type"] == "torch")
    assert event["audience"] == [1] and face not in event["redacted"]["text"]


def test_a_magic_arrow_wounds_the_foe_in_a_fight():
    s = fight(turn_to(game(), "barbarian"), stamina=3)
    s.heroes["barbarian"].items = ["Magic Arrow"]
    assert act(s, a("use", item="Magic Arrow")).state.fight.stamina == 2


def test_a_magic_ring_holds_two_spells():
    s = turn_to(game(), "barbarian")
    s.heroes["barbarian"].items = ["Magic Ring"]
    s = act(s, a("end_turn"), {"voice": [1]}).state
    assert len(s.heroes["barbarian"].spells) == 2
