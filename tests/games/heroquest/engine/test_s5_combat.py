"""docs/rules.md section 5 (combat) and the weapons of section 10."""

from collections import Counter

import pytest

from apps.games.heroquest.engine import (
    Attack,
    EndTurn,
    IllegalAction,
    MonsterAttack,
    SearchTreasure,
    TakeBelongings,
    Throw,
    legal_actions,
    seat_view,
)
from apps.games.heroquest.engine.dice import COMBAT_FACES, Dice, seed_rng

from .builders import ZARGON, act, build_quest, place, set_turn, start, zargon_turn

ROOM = """
aaaaaa
aaaaaa
aaaaaa
"""


def duel(kind="orc", monster_at=(2, 1), hero_at=(1, 1), **options):
    """The Barbarian alone in a room with one revealed monster; the Barbarian's turn."""
    s = start(build_quest(ROOM, monsters=[(kind, monster_at)]), **options)
    place(s, barbarian=hero_at, dwarf=None, elf=None, wizard=None)
    return set_turn(s, "barbarian")


def test_each_skull_is_a_hit_and_monsters_cancel_with_black_shields():
    s = duel("abomination")  # 2 Body, defends with 3 dice
    t = act(
        s,
        2,
        Attack("barbarian", "m1"),
        dice=["skull", "skull", "skull", "black_shield", "white_shield", "skull"],
    )
    m = t.state.monsters["mon1"]
    assert m.body == 0 and not m.alive and m.position is None
    assert t.events[0]["text"] == (
        "The Barbarian attacks the abomination: 3 skulls; the abomination rolls "
        "1 skull and 1 white shield and 1 black shield; the abomination loses 2 Body and is "
        "defeated."
    )


def test_white_shields_do_not_protect_monsters():
    s = duel("abomination")
    t = act(
        s,
        2,
        Attack("barbarian", "m1"),
        dice=[
            "skull",
            "white_shield",
            "white_shield",
            "white_shield",
            "white_shield",
            "white_shield",
        ],
    )
    assert t.state.monsters["mon1"].body == 1


def test_heroes_cancel_hits_with_white_shields_only():
    s = zargon_turn(duel("orc"))
    t = act(
        s,
        ZARGON,
        MonsterAttack("m1", "barbarian"),
        dice=["skull", "skull", "skull", "white_shield", "black_shield"],
    )
    assert t.state.heroes["barbarian"].body == 6


def test_every_die_rolled_appears_in_the_event():
    s = zargon_turn(duel("orc"))
    t = act(
        s,
        ZARGON,
        MonsterAttack("m1", "barbarian"),
        dice=["skull", "skull", "black_shield", "white_shield", "white_shield"],
    )
    assert t.events[0]["dice"] == [
        {"kind": "combat", "faces": ["skull", "skull", "black_shield"], "who": "m1"},
        {"kind": "combat", "faces": ["white_shield", "white_shield"], "who": "barbarian"},
    ]


def test_attack_needs_an_adjacent_target_and_no_wall_between():
    s = duel("orc", monster_at=(3, 1))
    with pytest.raises(IllegalAction, match="out of reach"):
        act(s, 2, Attack("barbarian", "m1"))
    q = build_quest("aab", monsters=[("orc", (2, 0))])
    s = set_turn(place(start(q), barbarian=(1, 0)), "barbarian")
    s.areas["b"] = "a9"
    s.monsters["mon1"].pub = "m1"
    with pytest.raises(IllegalAction, match="out of reach"):
        act(s, 2, Attack("barbarian", "m1"))


def test_ordinary_weapons_cannot_attack_diagonally():
    s = duel("orc", monster_at=(2, 2))
    with pytest.raises(IllegalAction):
        act(s, 2, Attack("barbarian", "m1"))


@pytest.mark.parametrize("weapon", ["staff", "spear", "longsword"])
def test_staff_spear_and_longsword_attack_diagonally(weapon):
    s = duel("orc", monster_at=(2, 2), heroes={"barbarian": {"weapon": weapon}})
    assert Attack("barbarian", "m1") in legal_actions(s, 2)


def test_crossbow_shoots_a_visible_monster_that_is_not_adjacent():
    s = duel("orc", monster_at=(5, 1), heroes={"barbarian": {"items": ["crossbow"]}})
    t = act(s, 2, Attack("barbarian", "m1"), dice=["skull"] * 3 + ["white_shield"] * 2)
    assert "shoots at" in t.events[0]["text"]
    assert not t.state.monsters["mon1"].alive


def test_a_figure_attacks_at_most_once_per_activation():
    s = zargon_turn(duel("orc"))
    s = act(s, ZARGON, MonsterAttack("m1", "barbarian"), dice=["white_shield"] * 5).state
    with pytest.raises(IllegalAction, match="already attacked"):
        act(s, ZARGON, MonsterAttack("m1", "barbarian"))


def test_a_figure_in_a_pit_rolls_one_die_fewer_but_never_fewer_than_one():
    q = build_quest(ROOM, monsters=[("orc", (2, 1))], traps=[("pit", (1, 1))])
    s = set_turn(place(start(q), barbarian=(1, 1), dwarf=None, elf=None, wizard=None), "barbarian")
    s.traps["trap1"].state = "sprung"
    t = act(
        s, 2, Attack("barbarian", "m1"), dice=["skull", "skull", "white_shield", "white_shield"]
    )
    assert t.events[0]["dice"][0]["faces"] == ["skull", "skull"]  # 3 - 1
    s.heroes["barbarian"].weapon = "dagger"
    t = act(s, 2, Attack("barbarian", "m1"), dice=["skull", "white_shield", "white_shield"])
    assert len(t.events[0]["dice"][0]["faces"]) == 1


def test_courage_adds_two_attack_dice():
    s = duel("orc")
    s.heroes["barbarian"].effects.append("courage")
    t = act(s, 2, Attack("barbarian", "m1"), dice=["white_shield"] * 7)
    assert len(t.events[0]["dice"][0]["faces"]) == 5


def test_rock_skin_adds_a_defend_die_until_it_absorbs_damage():
    s = zargon_turn(duel("orc"))
    s.heroes["barbarian"].effects.append("rock_skin")
    t = act(
        s,
        ZARGON,
        MonsterAttack("m1", "barbarian"),
        dice=["skull", "skull", "skull", "white_shield", "white_shield", "skull"],
    )
    assert len(t.events[0]["dice"][1]["faces"]) == 3
    assert t.state.heroes["barbarian"].body == 7
    assert "rock_skin" not in t.state.heroes["barbarian"].effects


def test_hero_at_zero_body_drinks_a_potion_at_once():
    s = zargon_turn(duel("orc"))
    s.heroes["barbarian"].body, s.heroes["barbarian"].potions = 1, 1
    t = act(
        s, ZARGON, MonsterAttack("m1", "barbarian"), dice=["skull"] * 3 + ["skull", "skull"] + [3]
    )
    b = t.state.heroes["barbarian"]
    assert (b.status, b.body, b.potions) == ("playing", 3, 0)


def test_hero_without_auto_drink_falls_at_zero_body():
    s = zargon_turn(duel("orc"))
    s.heroes["barbarian"].body, s.heroes["barbarian"].potions = 1, 1
    s.heroes["barbarian"].auto_drink = False
    s.heroes["dwarf"].status, s.heroes["dwarf"].position = "playing", (0, 0)
    t = act(s, ZARGON, MonsterAttack("m1", "barbarian"), dice=["skull"] * 3 + ["skull"] * 2)
    assert t.state.heroes["barbarian"].status == "fallen"
    assert t.state.heroes["barbarian"].position is None


def test_fallen_heroes_belongings_can_be_taken_by_a_hero_in_the_same_area():
    s = zargon_turn(duel("orc"))
    b = s.heroes["barbarian"]
    b.body, b.gold, b.tool_kit = 1, 40, True
    s.heroes["dwarf"].status, s.heroes["dwarf"].position = "playing", (0, 0)
    s = act(s, ZARGON, MonsterAttack("m1", "barbarian"), dice=["skull"] * 3 + ["skull"] * 2).state
    assert [d.hero for d in s.drops] == ["barbarian"]
    s = set_turn(s, "dwarf")
    assert TakeBelongings("dwarf", "barbarian") in legal_actions(s, 2)
    s = act(s, 2, TakeBelongings("dwarf", "barbarian")).state
    assert (s.heroes["dwarf"].gold, s.heroes["dwarf"].tool_kit, s.drops) == (40, True, [])
    assert not s.turn.has_acted


def test_belongings_are_lost_when_no_living_hero_is_in_the_area():
    s = zargon_turn(duel("orc"))
    s.heroes["barbarian"].body, s.heroes["barbarian"].gold = 1, 40
    s.heroes["dwarf"].status, s.heroes["dwarf"].position = "playing", (0, 0)
    s.heroes["dwarf"].position = None
    s.heroes["dwarf"].status = "escaped"
    s = act(s, ZARGON, MonsterAttack("m1", "barbarian"), dice=["skull"] * 3 + ["skull"] * 2).state
    assert s.drops == []


def test_a_hero_falling_on_their_own_turn_ends_it():
    s = duel("orc")
    s.heroes["dwarf"].status, s.heroes["dwarf"].position = "playing", (0, 0)
    s.heroes["barbarian"].body = 1
    s.deck = ["hazard", *s.deck]
    s.monsters["mon1"].alive = False
    s.monsters["mon1"].position = None

    t = act(s, 2, SearchTreasure("barbarian"))
    assert t.state.heroes["barbarian"].status == "fallen"
    assert t.state.turn.hero == "dwarf"


def test_defeated_monsters_leave_the_board_and_the_view():
    s = duel("goblin")
    s = act(s, 2, Attack("barbarian", "m1"), dice=["skull"] * 3 + ["white_shield"]).state
    assert seat_view(s, 2)["monsters"] == []
    assert act(s, 2, EndTurn("barbarian")).state.phase in ("heroes", "monsters")


# --- thrown weapons (docs/rules.md 10): dagger, spear and handaxe ---------------------------------
def thrower(hero="wizard", monster_at=(5, 1), hero_at=(0, 1), kind="orc", **options):
    s = start(build_quest(ROOM, monsters=[(kind, monster_at)]), **options)
    positions = {"barbarian": None, "dwarf": None, "elf": None, "wizard": None, hero: hero_at}
    place(s, **positions)
    return set_turn(s, hero)


def test_the_wizard_throws_his_dagger_at_a_visible_monster_and_loses_it():
    s = thrower()
    assert Throw("wizard", "dagger", "m1") in legal_actions(s, 2)
    t = act(
        s,
        2,
        {"type": "throw", "hero": "wizard", "weapon": "dagger", "target": "m1"},
        dice=["skull", "white_shield", "white_shield"],
    )
    assert t.events[0]["text"].startswith("The Wizard throws a dagger at the orc: 1 skull")
    assert t.events[0]["dice"][0] == {"kind": "combat", "faces": ["skull"], "who": "wizard"}
    assert not t.state.monsters["mon1"].alive
    assert t.events[-1]["text"] == "The dagger is lost; the Wizard now fights bare-handed."
    w = t.state.heroes["wizard"]
    assert w.weapon == "" and t.state.turn.has_acted
    view = {h["hero"]: h for h in seat_view(t.state, 2)["heroes"]}["wizard"]
    assert view["weapon"] is None and view["attack"] == 1


def test_a_throw_is_the_main_action_and_needs_a_thrown_weapon_and_a_monster_in_sight():
    s = thrower()
    s.turn.has_acted = True
    with pytest.raises(IllegalAction, match="already taken an action"):
        act(s, 2, Throw("wizard", "dagger", "m1"))
    s = thrower(hero="barbarian")
    assert not [a for a in legal_actions(s, 2) if isinstance(a, Throw)]
    with pytest.raises(IllegalAction, match="Only a dagger, a spear or a handaxe"):
        act(s, 2, Throw("barbarian", "broadsword", "m1"))
    with pytest.raises(IllegalAction, match="has no handaxe"):
        act(s, 2, Throw("barbarian", "handaxe", "m1"))
    # the orc hides behind the Barbarian
    s = thrower(monster_at=(2, 1))
    s.heroes["barbarian"].status, s.heroes["barbarian"].position = "playing", (1, 1)
    assert not [a for a in legal_actions(s, 2) if isinstance(a, Throw)]
    with pytest.raises(IllegalAction, match="not in sight"):
        act(s, 2, Throw("wizard", "dagger", "m1"))


def test_throwing_the_wielded_weapon_wields_the_next_best_and_a_spare_goes_first():
    heroes = {"dwarf": {"weapon": "handaxe", "items": ["dagger", "spear", "crossbow"]}}
    s = thrower(hero="dwarf", heroes=heroes)
    throws = {(a.weapon, a.target) for a in legal_actions(s, 2) if isinstance(a, Throw)}
    assert throws == {("handaxe", "m1"), ("dagger", "m1"), ("spear", "m1")}
    t = act(s, 2, Throw("dwarf", "handaxe", "m1"), dice=["white_shield"] * 2 + ["skull"] * 2)
    assert len(t.events[0]["dice"][0]["faces"]) == 2  # a handaxe: 2 attack dice
    d = t.state.heroes["dwarf"]
    assert (d.weapon, d.items) == ("spear", ["dagger", "crossbow"])
    assert t.events[-1]["text"] == "The handaxe is lost; the Dwarf now wields the spear."
    s = thrower(hero="dwarf", heroes={"dwarf": {"weapon": "dagger", "items": ["dagger"]}})
    d = act(s, 2, Throw("dwarf", "dagger", "m1"), dice=["white_shield"] * 3).state.heroes["dwarf"]
    assert (d.weapon, d.items) == ("dagger", [])


def test_the_wizard_cannot_throw_weapons_he_may_not_use():
    s = thrower(heroes={"wizard": {"items": ["handaxe"]}})
    assert {a.weapon for a in legal_actions(s, 2) if isinstance(a, Throw)} == {"dagger"}
    with pytest.raises(IllegalAction, match="cannot use a handaxe"):
        act(s, 2, Throw("wizard", "handaxe", "m1"))
    t = act(s, 2, Throw("wizard", "dagger", "m1"), dice=["white_shield"] * 3)
    assert t.state.heroes["wizard"].weapon == ""  # never the handaxe


def test_thrown_weapons_count_courage_and_a_bare_handed_hero_still_fights_with_one_die():
    s = thrower(monster_at=(1, 1))
    s.heroes["wizard"].effects.append("courage")
    t = act(s, 2, Throw("wizard", "dagger", "m1"), dice=["white_shield"] * 3 + ["skull"] * 2)
    assert len(t.events[0]["dice"][0]["faces"]) == 3
    s = set_turn(t.state, "wizard")
    s.heroes["wizard"].effects.clear()
    t = act(s, 2, Attack("wizard", "m1"), dice=["skull", "white_shield", "white_shield"])
    assert t.events[0]["dice"][0]["faces"] == ["skull"]


def test_the_combat_die_has_three_skulls_two_white_shields_and_one_black_shield():
    assert Counter(COMBAT_FACES) == {"skull": 3, "white_shield": 2, "black_shield": 1}
    rolled = Counter(Dice(seed_rng(5)).combats(6000))
    assert set(rolled) == {"skull", "white_shield", "black_shield"}
    assert 2700 < rolled["skull"] < 3300 and 800 < rolled["black_shield"] < 1200


def test_a_hero_attacks_at_most_once_per_turn():
    s = duel("abomination")
    s = act(s, 2, Attack("barbarian", "m1"), dice=["white_shield"] * 6).state
    assert not [a for a in legal_actions(s, 2) if isinstance(a, Attack)]
    with pytest.raises(IllegalAction, match="already taken an action"):
        act(s, 2, Attack("barbarian", "m1"))


def test_a_figure_in_a_pit_also_rolls_one_defend_die_fewer():
    q = build_quest(ROOM, monsters=[("orc", (2, 1))], traps=[("pit", (1, 1))])
    s = zargon_turn(place(start(q), barbarian=(1, 1), dwarf=None, elf=None, wizard=None))
    s.traps["trap1"].state = "sprung"
    t = act(s, ZARGON, MonsterAttack("m1", "barbarian"), dice=["skull"] * 3 + ["white_shield"])
    assert t.events[0]["dice"][1]["faces"] == ["white_shield"]  # Defend 2 - 1
    assert t.state.heroes["barbarian"].body == 6


def test_no_defence_roll_when_no_skull_was_scored():
    s = duel("orc")
    t = act(s, 2, Attack("barbarian", "m1"), dice=["white_shield", "black_shield", "white_shield"])
    assert [d["faces"] for d in t.events[0]["dice"]] == [
        ["white_shield", "black_shield", "white_shield"],
        [],  # the orc rolls nothing
    ]
    assert "need not defend" in t.events[0]["text"]
    s = zargon_turn(duel("orc"))
    t = act(s, ZARGON, MonsterAttack("m1", "barbarian"), dice=["black_shield"] * 3)
    assert t.events[0]["dice"][1]["faces"] == [] and t.state.heroes["barbarian"].body == 8


def test_spellcaster_at_0_body_saves_themself_with_a_healing_spell():
    s = zargon_turn(duel("orc", hero_at=(0, 0), monster_at=(1, 0)))
    place(s, barbarian=None, elf=(2, 1))
    s.heroes["elf"].status = "playing"
    s.monsters["mon1"].position = (2, 0)
    s.heroes["elf"].body = 1
    t = act(s, ZARGON, MonsterAttack("m1", "elf"), dice=["skull"] * 3 + ["skull", "skull"])
    elf = t.state.heroes["elf"]
    assert (elf.status, elf.body) == ("playing", 4) and "heal_body" not in elf.spells
    assert "casts Heal Body on themself" in t.events[-1]["text"]


def test_spellcaster_who_already_acted_this_round_cannot_save_themself():
    s = duel("orc", hero_at=(0, 0), monster_at=(1, 0))
    place(s, barbarian=None, elf=(2, 1))
    s.heroes["elf"].status = "playing"
    s.monsters["mon1"].position = (2, 0)
    s = set_turn(s, "elf")
    s = act(s, 2, Attack("elf", "m1"), dice=["white_shield"] * 2).state  # the Elf's action
    s = zargon_turn(s)
    s.heroes["elf"].body = 1
    t = act(s, ZARGON, MonsterAttack("m1", "elf"), dice=["skull"] * 3 + ["skull", "skull"])
    assert t.state.heroes["elf"].status == "fallen"


def test_fallen_heros_weapon_and_armour_are_among_the_belongings():
    s = zargon_turn(duel("orc"))
    b = s.heroes["barbarian"]
    b.body, b.armour = 1, ["helmet", "chain_mail"]
    s.heroes["wizard"].status, s.heroes["wizard"].position = "playing", (0, 0)
    s.heroes["dwarf"].status, s.heroes["dwarf"].position = "playing", (0, 2)
    s = act(s, ZARGON, MonsterAttack("m1", "barbarian"), dice=["skull"] * 3 + ["skull"] * 4).state
    drop = s.drops[0]
    assert (drop.weapon, drop.armour) == ("broadsword", ["helmet", "chain_mail"])
    assert s.heroes["barbarian"].weapon == "" and s.heroes["barbarian"].armour == []
    # the Dwarf wields the better broadsword and wears the armour
    dwarf = act(set_turn(s, "dwarf"), 2, TakeBelongings("dwarf", "barbarian")).state
    d = dwarf.heroes["dwarf"]
    assert (d.weapon, d.armour, d.items) == ("broadsword", ["helmet", "chain_mail"], ["shortsword"])
    # the Wizard may use none of it: it is carried, unwielded
    wizard = act(set_turn(s, "wizard"), 2, TakeBelongings("wizard", "barbarian")).state
    w = wizard.heroes["wizard"]
    assert (w.weapon, w.armour) == ("dagger", [])
    assert sorted(w.items) == ["broadsword", "chain_mail", "helmet"]


def test_artifacts_add_their_attack_and_defend_dice():
    s = duel("orc")
    s.heroes["barbarian"].artifacts = ["Emberbrand", "Cinder Mantle"]
    view = seat_view(s, 2)["heroes"][0]
    assert (view["attack"], view["defend"]) == (4, 3)
