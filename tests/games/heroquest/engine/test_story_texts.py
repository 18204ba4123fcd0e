"""The story the engine tells (issue 21): no ids in the text, a second monster of a kind named
"the second orc", and Body losses never larger than what the figure had; the seat view names
and numbers monsters as the story does, from what the heroes have seen only."""

from apps.games.heroquest.engine import Attack, Disarm, Jump, MonsterAttack, State, seat_view
from apps.games.heroquest.engine.context import monster_name, monster_number, monster_numbers
from apps.games.heroquest.engine.engine import load_quest
from apps.games.heroquest.engine.playout import random_playout

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


CORRIDOR = """
AAAAAAA
AAAAAAA
"""


def at_a_trap(kind: str, hero: str) -> State:
    s = start(build_quest(CORRIDOR, traps=[(kind, (1, 0))], entrance="A"))
    others = {h: None for h in ("barbarian", "dwarf", "elf", "wizard") if h != hero}
    place(s, **{hero: (0, 0), **others})
    s.traps["trap1"].detected, s.traps["trap1"].pub = True, "t1"
    return set_turn(s, hero, movement=6)


def test_a_disarm_and_a_jump_name_the_trap_by_its_kind_never_by_its_id():
    t = act(at_a_trap("spear", "dwarf"), 2, Disarm("dwarf", "t1"), dice=["skull"])
    assert t.events[0]["text"] == "The Dwarf tries to disarm the spear trap: 1 skull; succeeds."
    jump = Jump("barbarian", "t1", (2, 0))
    t = act(at_a_trap("pit", "barbarian"), 2, jump, dice=["white_shield"])
    assert t.events[0]["text"] == (
        "The Barbarian jumps the pit trap: 1 white shield; lands safely on (2, 0)."
    )
    t = act(at_a_trap("pit", "barbarian"), 2, jump, dice=["skull"])
    assert t.events[0]["text"].startswith("The Barbarian tries to jump the pit trap: 1 skull;")
    assert "(t1)" not in texts(t)


TWO_ROOMS = """
aaaabbb
aaaabbb
"""


def test_the_view_names_and_numbers_monsters_by_what_the_heroes_have_seen():
    # Two orcs in the heroes' room, a third (and a goblin) behind the wall.
    monsters = [("orc", (1, 1)), ("orc", (3, 1)), ("orc", (5, 1)), ("goblin", (6, 0))]
    s = start(build_quest(TWO_ROOMS, monsters=monsters))
    place(s, barbarian=(2, 1), dwarf=None, elf=None, wizard=None)
    s = set_turn(s, "barbarian")
    seen = {m["id"]: (m["name"], m["number"]) for m in seat_view(s, 2)["monsters"]}
    assert sorted(seen.values()) == [("the orc", 1), ("the second orc", 2)]
    zargon = [m for m in seat_view(s, ZARGON)["monsters"] if not m["revealed"]]
    assert sorted((m["kind"], m["name"], m["number"]) for m in zargon) == [
        ("goblin", "the goblin", None),
        ("orc", "the orc", None),  # unseen: no number, so no count of what is hidden
    ]
    # The first orc falls: the second is still "the second orc", as the story has told it.
    first = next(pub for pub, (_, number) in seen.items() if number == 1)
    t = act(s, 2, Attack("barbarian", first), dice=["skull"] * 3 + ["white_shield"] * 2)
    (left,) = seat_view(t.state, 2)["monsters"]
    assert (left["name"], left["number"]) == ("the second orc", 2)


def test_the_view_numbers_every_monster_as_the_story_does_throughout_a_quest():
    """The view numbers all monsters in one pass (`monster_numbers`); the story one by one."""
    states: list[State] = []
    random_playout(
        load_quest("ashen_vault"), 4, 3, max_actions=400, on_step=lambda s, *_: states.append(s)
    )
    numbered = 0
    for s in states[::5]:
        numbers = monster_numbers(s)
        for m in s.monsters.values():
            assert numbers.get(m.key) == monster_number(m, s)
            assert monster_name(m, s, numbers) == monster_name(m, s)
        numbered += len(numbers)
    assert numbered > 0
