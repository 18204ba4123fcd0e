"""docs/rules.md section 6: searching and the treasure deck."""

from collections import Counter

import pytest

from apps.games.heroquest.engine import (
    DrinkPotion,
    EndPhase,
    EndTurn,
    IllegalAction,
    MonsterAttack,
    MonsterMove,
    OpenDoor,
    SearchSecretDoors,
    SearchTraps,
    SearchTreasure,
    event_for_seat,
    legal_actions,
    seat_view,
)
from apps.games.heroquest.engine.data import treasure_deck
from apps.games.heroquest.engine.quest import SpecialTreasure

from .builders import ZARGON, act, build_quest, place, set_turn, start, zargon_turn

MAP = """
aaaaAAAA
aaaaAAAA
"""


def searcher(quest=None, seats=2, **positions):
    s = start(quest or build_quest(MAP), seats=seats)
    place(s, **{"barbarian": (0, 0), "dwarf": None, "elf": None, "wizard": None, **positions})
    return set_turn(s, "barbarian")


def test_the_deck_has_the_24_site_cards_shuffled_by_the_seed():
    s1, s2 = searcher(), start(build_quest(MAP), seed=2)
    assert Counter(s1.deck) == Counter(treasure_deck()) and len(s1.deck) == 24
    assert s1.deck != s2.deck


def test_no_search_while_a_revealed_monster_is_visible():
    s = searcher(build_quest(MAP, monsters=[("orc", (3, 1))]))
    for action in (SearchTreasure, SearchTraps, SearchSecretDoors):
        with pytest.raises(IllegalAction, match="monster is in sight"):
            act(s, 2, action("barbarian"))


def test_treasure_can_only_be_searched_for_in_a_room():
    s = searcher(barbarian=(5, 0))
    s.areas["A"] = "a2"
    with pytest.raises(IllegalAction, match="inside a room"):
        act(s, 2, SearchTreasure("barbarian"))


def test_gold_goes_to_the_finder_and_others_only_see_that_treasure_was_searched():
    s = searcher(seats=5)
    s.deck = ["gold_25", *s.deck[1:]]
    t = act(s, 2, SearchTreasure("barbarian"))
    assert t.state.heroes["barbarian"].gold == 25
    event = t.events[0]
    own = event_for_seat(event, 2)
    assert own is not None and "25 gold" in own["text"]
    for seat in (1, 3):
        seen = event_for_seat(event, seat)
        assert seen is not None
        assert "gold" not in seen["text"] and seen["find"] == "treasure"
    assert len(t.state.deck) == 23


def test_each_hero_searches_a_room_for_treasure_once():
    s = searcher(dwarf=(1, 0))
    s.deck = ["nothing"] * 24
    s = act(s, 2, SearchTreasure("barbarian")).state
    s = act(s, 2, EndTurn("barbarian")).state
    s = act(s, 2, SearchTreasure("dwarf")).state  # another hero may still search it
    s = set_turn(s, "barbarian")
    with pytest.raises(IllegalAction, match="already searched"):
        act(s, 2, SearchTreasure("barbarian"))


def test_special_treasure_goes_to_the_first_searcher():
    crown = SpecialTreasure("a", "the Ember Crown", "It glows.", gold=100, artifact="Emberbrand")
    q = build_quest(MAP, special={"a": crown})
    s = searcher(q, dwarf=(1, 0))
    s.deck = ["gold_15", *s.deck[1:]]
    s = act(s, 2, SearchTreasure("barbarian")).state
    assert s.heroes["barbarian"].artifacts == ["Emberbrand"]  # an artifact: kept for good
    assert s.heroes["barbarian"].gold == 100
    s = set_turn(s, "dwarf")
    s = act(s, 2, SearchTreasure("dwarf")).state
    assert s.heroes["dwarf"].gold == 15


def test_an_undetected_chest_trap_springs_instead_and_the_search_does_not_count():
    q = build_quest(MAP, furniture=[("chest", [(3, 1)])], traps=[("chest", "fur1")])
    s = searcher(q, dwarf=(1, 1))
    t = act(s, 2, SearchTreasure("barbarian"))
    assert t.state.heroes["barbarian"].body == 7
    assert t.state.turn.hero == "dwarf"  # the turn ended
    assert t.state.searched == []
    s = set_turn(t.state, "barbarian")
    s.deck = ["gold_50", *s.deck]
    assert act(s, 2, SearchTreasure("barbarian")).state.heroes["barbarian"].gold == 50


def test_nothing_goes_back_into_the_deck():
    s = searcher()
    s.deck = ["nothing", *[c for c in s.deck if c != "nothing"][:5]]
    t = act(s, 2, SearchTreasure("barbarian"))
    assert sorted(t.state.deck) == sorted(s.deck)


def test_hazard_costs_one_body_and_ends_the_turn():
    s = searcher(dwarf=(1, 1))
    s.deck = ["hazard", *s.deck]
    t = act(s, 2, SearchTreasure("barbarian"))
    assert t.state.heroes["barbarian"].body == 7 and t.state.turn.hero == "dwarf"
    assert "hazard" in t.state.deck


def test_a_wandering_monster_appears_next_to_the_searcher_and_attacks_at_once():
    s = searcher()
    s.deck = ["wandering_monster", *s.deck]
    t = act(
        s, 2, SearchTreasure("barbarian"), dice=["skull", "skull", "white_shield", "white_shield"]
    )
    goblin = next(m for m in t.state.monsters.values() if m.kind == "goblin")
    assert goblin.pub == "m1" and goblin.position in {(1, 0), (0, 1)}
    assert t.state.heroes["barbarian"].body == 8
    assert [m["id"] for m in seat_view(t.state, 2)["monsters"]] == ["m1"]


def test_wandering_monster_uses_the_nearest_free_square_of_the_area():
    q = build_quest("aaa\naaa", blocked=[(1, 0), (0, 1)], monsters=[])
    s = start(q)
    place(s, barbarian=(0, 0), dwarf=(1, 1), elf=None, wizard=None)
    set_turn(s, "barbarian")
    s.deck = ["wandering_monster", *s.deck]
    t = act(s, 2, SearchTreasure("barbarian"), dice=["white_shield"] * 4)
    goblin = next(m for m in t.state.monsters.values() if m.kind == "goblin")
    assert goblin.position is not None


def test_wandering_monster_with_no_free_square_beside_the_searcher_waits_for_zargons_phase():
    q = build_quest("aaa\naaa", blocked=[(1, 0), (0, 1)], monsters=[])
    s = place(start(q), barbarian=(0, 0), dwarf=(1, 1), elf=None, wizard=None)
    s = set_turn(s, "barbarian")
    s.deck = ["wandering_monster", *s.deck]
    t = act(s, 2, SearchTreasure("barbarian"), dice=[])  # no attack: no die is rolled
    goblin = t.state.monster_by_pub("m1")
    assert goblin is not None and goblin.position in {(2, 0), (1, 2)}
    assert "waiting for Zargon's turn" in t.events[-1]["text"]
    assert t.state.heroes["barbarian"].body == 8
    s = act(t.state, 2, EndTurn("barbarian")).state
    s = act(s, 2, EndTurn("dwarf")).state
    assert s.phase == "monsters" and MonsterMove("m1", (2, 1)) in legal_actions(s, ZARGON)


def test_wandering_monster_may_attack_only_the_searcher_in_the_round_it_appears():
    s = searcher(dwarf=(1, 1))
    s.deck = ["wandering_monster", *s.deck]
    t = act(s, 2, SearchTreasure("barbarian"), dice=["white_shield"] * 2)  # its attack misses
    goblin = t.state.monster_by_pub("m1")
    assert goblin is not None and goblin.position in {(1, 0), (0, 1)}  # next to both heroes
    s = zargon_turn(t.state)
    attacks = {a.target for a in legal_actions(s, ZARGON) if isinstance(a, MonsterAttack)}
    assert attacks == {"barbarian"}
    # the Dwarf stands next to it too: the refusal says why, not "not next to the monster"
    with pytest.raises(IllegalAction, match="may attack only the Barbarian, who searched"):
        act(s, ZARGON, MonsterAttack("m1", "dwarf"))
    s = act(s, ZARGON, EndPhase()).state  # next round: an ordinary revealed monster
    s = zargon_turn(s)
    attacks = {a.target for a in legal_actions(s, ZARGON) if isinstance(a, MonsterAttack)}
    assert attacks == {"barbarian", "dwarf"}


def test_every_chest_trap_in_the_room_springs_on_a_treasure_search():
    q = build_quest(
        MAP,
        furniture=[("chest", [(3, 1)]), ("cupboard", [(3, 0)])],
        traps=[("chest", "fur1"), ("chest", "fur2")],
    )
    s = searcher(q, dwarf=(1, 1))
    t = act(s, 2, SearchTreasure("barbarian"))
    assert t.state.heroes["barbarian"].body == 6  # 1 Body from each
    assert {ts.state for ts in t.state.traps.values()} == {"sprung"}
    assert [e["type"] for e in t.events].count("trap") == 2
    assert t.state.searched == [] and t.state.turn.hero == "dwarf"


def test_searching_for_traps_reveals_the_traps_of_the_current_area_only():
    q = build_quest(
        MAP,
        traps=[("pit", (2, 0)), ("spear", (3, 1)), ("pit", (6, 0)), ("chest", "fur1")],
        furniture=[("chest", [(1, 1)])],
    )
    s = searcher(q)
    t = act(s, 2, SearchTraps("barbarian"))
    detected = {k for k, ts in t.state.traps.items() if ts.detected}
    assert detected == {"trap1", "trap2", "trap4"}
    assert [x["id"] for x in seat_view(t.state, 2)["map"]["traps"]] == ["t1", "t2", "t3"]


def test_searching_for_secret_doors_finds_those_on_the_edge_of_the_area():
    q = build_quest("aaaabbbb\naaaabbbb", secret_doors=[((3, 0), (4, 0))])
    s = searcher(q)
    t = act(s, 2, SearchSecretDoors("barbarian"))
    assert [d["id"] for d in seat_view(t.state, 2)["map"]["doors"]] == ["d1"]
    s = set_turn(t.state, "barbarian")
    place(s, barbarian=(3, 0))
    s = act(s, 2, OpenDoor("barbarian", "d1")).state  # a found secret door is a closed door
    assert "b" in s.areas


def test_the_deck_is_the_site_mix_of_rules_md():
    assert Counter(start(build_quest(MAP)).deck) == {
        "gold_15": 2,
        "gold_25": 3,
        "gold_35": 2,
        "gold_50": 1,
        "potion_of_healing": 3,
        "nothing": 3,
        "hazard": 4,
        "wandering_monster": 6,
    }


@pytest.mark.parametrize(("card", "gold"), [("gold_15", 15), ("gold_35", 35), ("gold_50", 50)])
def test_gold_cards_pay_their_value_and_leave_the_deck(card, gold):
    s = searcher()
    s.deck = [card, *s.deck]
    t = act(s, 2, SearchTreasure("barbarian"))
    assert t.state.heroes["barbarian"].gold == gold
    assert Counter(t.state.deck) == Counter(s.deck) - Counter([card])


def test_a_potion_of_healing_goes_to_the_finder_and_leaves_the_deck():
    s = searcher()
    s.deck = ["potion_of_healing", *s.deck]
    t = act(s, 2, SearchTreasure("barbarian"))
    assert t.state.heroes["barbarian"].potions == 1
    assert Counter(t.state.deck) == Counter(s.deck) - Counter(["potion_of_healing"])
    b = t.state.heroes["barbarian"]
    b.body = 2
    s = set_turn(t.state, "barbarian")
    assert act(s, 2, DrinkPotion("barbarian"), dice=[5]).state.heroes["barbarian"].body == 7


def test_a_wandering_monster_card_goes_back_into_the_deck():
    s = searcher()
    s.deck = ["wandering_monster", *s.deck]
    t = act(s, 2, SearchTreasure("barbarian"), dice=["white_shield"] * 4)
    assert Counter(t.state.deck) == Counter(s.deck)
    assert t.state.turn.has_acted


def test_searching_for_secret_doors_finds_only_those_on_the_edge_of_the_hero_area():
    q = build_quest("aaaabbbbcccc\naaaabbbbcccc", secret_doors=[((3, 0), (4, 0)), ((7, 1), (8, 1))])
    s = searcher(q)
    t = act(s, 2, SearchSecretDoors("barbarian"))
    assert {d for d, ds in t.state.doors.items() if ds.found} == {"secret1"}


def test_a_special_treasure_without_an_artifact_leaves_only_gold_and_potions():
    hoard = SpecialTreasure("a", "a hoard", "Coins.", gold=30, potions=1)
    s = searcher(build_quest(MAP, special={"a": hoard}))
    s = act(s, 2, SearchTreasure("barbarian")).state
    b = s.heroes["barbarian"]
    assert (b.gold, b.potions, b.artifacts) == (30, 1, [])


def test_every_seat_sees_who_searched_a_room_for_treasure():
    s = searcher(seats=5, dwarf=(1, 0))
    s.deck = ["nothing", *s.deck[1:]]
    s = act(s, 2, SearchTreasure("barbarian")).state
    for seat in (1, 2, 3):
        areas = {a["name"]: a for a in seat_view(s, seat)["map"]["areas"]}
        searched = [a["searched"] for a in areas.values() if a["kind"] == "room"]
        assert searched == [["barbarian"]]
