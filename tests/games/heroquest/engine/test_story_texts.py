"""The story the engine tells (issue 21): no ids in the text, a second monster of a kind named
"the second orc", and Body losses never larger than what the figure had."""

from apps.games.heroquest.engine import Attack, MonsterAttack

from .builders import ZARGON, act, build_quest, monster_phase, place, set_turn, start, texts

ROOM = """
aaaaaa
aaaaaa
aaaaaa
"""


def two_orcs():
    s = start(build_quest(ROOM, monsters=[("orc", (2, 1)), ("orc", (4, 1))]))
    place(s, barbarian=(1, 1), dwarf=None, elf=None, wizard=None)
    return set_turn(s, "barbarian")


def test_no_public_ids_in_the_text_and_the_second_of_a_kind_is_named_so():
    s = two_orcs()
    t = act(s, 2, Attack("barbarian", "m1"), dice=["white_shield"] * 3)
    assert t.events[0]["text"].startswith("The Barbarian attacks the orc: ")
    assert "(m" not in texts(t)
    place(t.state, barbarian=(3, 1))
    s = set_turn(t.state, "barbarian")
    t = act(s, 2, Attack("barbarian", "m2"), dice=["white_shield"] * 3)
    assert t.events[0]["text"].startswith("The Barbarian attacks the second orc: ")
    assert "the second orc need not defend; the second orc takes no damage." in texts(t)


def test_a_monster_loses_no_more_body_than_it_had():
    s = two_orcs()  # an orc has 1 Body
    t = act(s, 2, Attack("barbarian", "m1"), dice=["skull"] * 3 + ["white_shield"] * 2)
    assert t.events[0]["text"].endswith("the orc loses 1 Body and is defeated.")
    assert (t.events[0]["hits"], t.events[0]["lost"]) == (3, 1)


def test_a_hero_loses_no_more_body_than_they_had():
    s = monster_phase([("orc", (1, 0))])
    s.heroes["barbarian"].body = 1
    s.heroes["barbarian"].potions = 0
    t = act(s, ZARGON, MonsterAttack("m1", "barbarian"), dice=["skull"] * 3 + ["black_shield"] * 2)
    attack = t.events[0]
    assert attack["text"].endswith("the Barbarian loses 1 Body.")
    assert attack["lost"] == 1
    assert "has fallen" in texts(t)
