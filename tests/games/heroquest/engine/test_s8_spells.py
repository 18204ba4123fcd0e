"""docs/rules.md section 8: spells."""

import pytest

from apps.games.heroquest.engine import (
    Attack,
    CastSpell,
    EndTurn,
    IllegalAction,
    Move,
    apply,
    legal_actions,
    new_game,
    seat_view,
    seats_to_move,
)
from apps.games.heroquest.engine.actions import ChooseSpells
from apps.games.heroquest.engine.data import spells_of

from .builders import act, build_quest, place, set_turn, start

ROOM = """
aaaaaa
aaaaaa
aaaaaa
"""


def caster(monsters=(), hero="wizard", quest=None, **positions):
    s = start(quest or build_quest(ROOM, monsters=list(monsters)))
    defaults = {"barbarian": (0, 2), "dwarf": None, "elf": None, "wizard": None, hero: (0, 0)}
    place(s, **{**defaults, **positions})
    return set_turn(s, hero)


def cast(s, spell, target, hero="wizard", dice=None):
    return act(s, 2, CastSpell(hero, spell, target), dice=dice)


def test_each_spell_can_be_cast_once_per_quest():
    s = caster()
    s = cast(s, "courage", "barbarian").state
    assert "courage" not in s.heroes["wizard"].spells
    s = set_turn(s, "wizard")
    with pytest.raises(IllegalAction, match="does not hold"):
        cast(s, "courage", "wizard")


def test_the_elf_holds_only_earth_spells():
    s = caster(hero="elf")
    spells = {a.spell for a in legal_actions(s, 2) if isinstance(a, CastSpell)}
    assert spells == {"heal_body", "pass_through_rock", "rock_skin"}


def test_harmful_spells_target_only_living_visible_monsters():
    s = caster([("orc", (0, 2)), ("orc", (4, 0))], barbarian=(2, 0))
    targets = {
        a.target
        for a in legal_actions(s, 2)
        if isinstance(a, CastSpell) and a.spell == "fire_of_wrath"
    }
    assert targets == {"m1"}  # the Barbarian stands between the Wizard and m2
    with pytest.raises(IllegalAction, match="cannot target"):
        cast(s, "fire_of_wrath", "barbarian")


def test_helpful_spells_target_visible_heroes_including_the_caster():
    s = caster(barbarian=(5, 2))
    targets = {
        a.target for a in legal_actions(s, 2) if isinstance(a, CastSpell) and a.spell == "courage"
    }
    assert targets == {"wizard", "barbarian"}


def test_swift_wind_gives_the_next_movement_roll_four_dice():
    s = cast(caster(), "swift_wind", "barbarian").state
    assert "swift_wind" in s.heroes["barbarian"].effects


def test_tempest_makes_the_monster_lose_its_next_activation():
    s = cast(caster([("orc", (5, 0))]), "tempest", "m1").state
    assert s.monsters["mon1"].tempest
    s = act(s, 2, EndTurn("wizard")).state
    assert s.phase == "heroes"  # the only monster cannot act, so Zargon's phase passes
    assert not s.monsters["mon1"].tempest


def test_genie_attacks_with_five_dice_and_the_monster_defends_normally():
    s = caster([("orc", (5, 0))])
    t = cast(s, "genie", "m1", dice=["skull"] * 5 + ["black_shield", "skull"])
    assert t.events[0]["dice"][0]["faces"] == ["skull"] * 5
    assert not t.state.monsters["mon1"].alive


def test_genie_can_open_a_closed_door_the_caster_can_see():
    q = build_quest("aaaaPbbb\naaaa.bbb", doors=[((3, 0), (4, 0))])
    s = caster(quest=q, barbarian=(0, 1))
    assert CastSpell("wizard", "genie", "d1") in legal_actions(s, 2)
    t = cast(s, "genie", "d1")
    assert t.state.doors["door1"].open and "P" in t.state.areas


def test_ball_of_flame_does_two_damage_less_each_five_or_six():
    s = caster([("abomination", (5, 0))])
    t = cast(s, "ball_of_flame", "m1", dice=[5, 2])
    assert t.state.monsters["mon1"].body == 1
    assert t.events[0]["dice"] == [{"kind": "red", "values": [5, 2], "who": "m1"}]


def test_fire_of_wrath_does_one_damage_unless_the_monster_rolls_five_or_six():
    s = caster([("abomination", (5, 0))])
    assert cast(s, "fire_of_wrath", "m1", dice=[6]).state.monsters["mon1"].body == 2
    assert cast(s, "fire_of_wrath", "m1", dice=[4]).state.monsters["mon1"].body == 1


def test_courage_lasts_until_the_end_of_a_turn_with_no_monster_in_sight():
    s = cast(caster(), "courage", "wizard").state
    assert "courage" in s.heroes["wizard"].effects
    s = act(s, 2, EndTurn("wizard")).state
    assert "courage" not in s.heroes["wizard"].effects


def test_sleep_undead_are_immune():
    t = cast(caster([("skeleton", (5, 0))]), "sleep", "m1", dice=[])
    assert not t.state.monsters["mon1"].asleep


def test_sleep_one_red_die_per_mind_any_six_resists():
    s = caster([("orc", (5, 0))])  # Mind 2
    assert not cast(s, "sleep", "m1", dice=[6, 1]).state.monsters["mon1"].asleep
    slept = cast(s, "sleep", "m1", dice=[5, 1]).state
    assert slept.monsters["mon1"].asleep


def test_a_sleeping_monster_rolls_no_defence_dice():
    s = cast(caster([("orc", (1, 0))]), "sleep", "m1", dice=[1, 1]).state
    s = set_turn(s, "barbarian")
    place(s, barbarian=(1, 1))
    t = act(s, 2, Attack("barbarian", "m1"), dice=["skull", "white_shield", "white_shield"])
    assert t.events[0]["dice"][1]["faces"] == [] and not t.state.monsters["mon1"].alive


def test_veil_of_mist_lets_the_hero_pass_through_monsters_but_not_stop_on_them():
    s = cast(caster([("orc", (2, 2))], barbarian=(1, 2)), "veil_of_mist", "barbarian").state
    s = set_turn(s, "barbarian", movement=4)
    moves = {a.to for a in legal_actions(s, 2) if isinstance(a, Move)}
    assert (3, 2) in moves and (2, 2) not in moves
    s = act(s, 2, Move("barbarian", (3, 2))).state
    assert s.turn.movement_left == 2
    s = act(s, 2, EndTurn("barbarian")).state
    assert "veil_of_mist" not in s.heroes["barbarian"].effects


def test_water_of_healing_and_heal_body_restore_up_to_four_never_above_start():
    s = caster()
    s.heroes["barbarian"].body = 2
    assert cast(s, "water_of_healing", "barbarian").state.heroes["barbarian"].body == 6
    s.heroes["barbarian"].body = 7
    assert cast(s, "water_of_healing", "barbarian").state.heroes["barbarian"].body == 8
    e = caster(hero="elf")
    e.heroes["barbarian"].body = 1
    assert cast(e, "heal_body", "barbarian", hero="elf").state.heroes["barbarian"].body == 5


def test_pass_through_rock_walks_through_walls_and_reveals_the_area_entered():
    q = build_quest(
        "aaabbb", hero_starts={h: (0, 0) for h in ("barbarian", "dwarf", "elf", "wizard")}
    )
    s = caster(hero="elf", quest=q, elf=(2, 0), barbarian=(0, 0))
    s = cast(s, "pass_through_rock", "elf", hero="elf").state
    s = set_turn(s, "elf", movement=3)
    s = act(s, 2, Move("elf", (3, 0))).state
    assert s.heroes["elf"].position == (3, 0) and "b" in s.areas


def test_pass_through_rock_into_a_hidden_monster_stops_the_hero():
    q = build_quest("aaabbb", monsters=[("orc", (3, 0))])
    s = caster(hero="elf", quest=q, elf=(2, 0), barbarian=(0, 0))
    s.heroes["elf"].effects.append("pass_through_rock")
    s = set_turn(s, "elf", movement=3)
    t = act(s, 2, Move("elf", (3, 0)))  # listed although hidden: nothing leaks
    assert t.state.heroes["elf"].position == (2, 0)
    assert t.state.monsters["mon1"].pub == "m1"


def test_rock_skin_adds_a_defend_die():
    s = cast(caster(hero="elf"), "rock_skin", "barbarian", hero="elf").state
    assert "rock_skin" in s.heroes["barbarian"].effects


def test_spells_cannot_target_monsters_behind_walls():
    q = build_quest("aaabbb", monsters=[("orc", (4, 0))])
    s = caster(quest=q, wizard=(0, 0))
    s.areas["b"] = "a2"
    s.monsters["mon1"].pub = "m1"
    assert not [a for a in legal_actions(s, 2) if isinstance(a, CastSpell) and a.target == "m1"]


def test_pass_through_rock_into_solid_rock_costs_the_point_and_the_hero_stays():
    q = build_quest("aaa.\naaa.")
    s = caster(hero="elf", quest=q, elf=(2, 0), barbarian=(0, 1))
    s.heroes["elf"].effects.append("pass_through_rock")
    s = set_turn(s, "elf", movement=3)
    assert Move("elf", (3, 0)) in legal_actions(s, 2)  # rock or room: the Elf cannot tell
    t = act(s, 2, Move("elf", (3, 0)))
    assert t.state.heroes["elf"].position == (2, 0)
    assert t.state.turn.movement_left == 2 and t.state.turn.has_moved
    assert [e["text"] for e in t.events] == [
        "The Elf presses into the wall and finds only solid rock."
    ]
    assert t.events[0]["type"] == "move_blocked" and t.events[0]["audience"] == "all"


def test_pass_through_rock_lists_every_neighbour_on_the_board_except_what_is_seen_blocked():
    q = build_quest("aaa..\naaa..\naaa..", blocked=[(1, 0)])
    s = caster(hero="elf", quest=q, elf=(2, 0), barbarian=(2, 1))
    s.heroes["elf"].effects.append("pass_through_rock")
    s = set_turn(s, "elf", movement=3)
    moves = {a.to for a in legal_actions(s, 2) if isinstance(a, Move)}
    # (2, -1) is off the board, (1, 0) a known blocked square, (2, 1) the Barbarian
    assert moves == {(3, 0)}
    with pytest.raises(IllegalAction, match="off the board"):
        act(s, 2, Move("elf", (2, -1)))


def test_courage_stays_while_a_monster_is_in_sight_at_the_end_of_the_turn():
    s = cast(caster([("orc", (5, 0))]), "courage", "wizard").state
    s = act(s, 2, EndTurn("wizard")).state
    assert "courage" in s.heroes["wizard"].effects


def test_genie_cannot_open_a_door_the_caster_cannot_see():
    # two doors on room a's east wall; the Barbarian stands between the Wizard and the upper one
    q = build_quest("aaaaPbbb\naaaaPbbb", doors=[((3, 0), (4, 0)), ((3, 1), (4, 1))])
    s = caster(quest=q, wizard=(0, 0), barbarian=(2, 0))
    targets = {a.target for a in legal_actions(s, 2) if isinstance(a, CastSpell)}
    assert "d2" in targets and "d1" not in targets
    with pytest.raises(IllegalAction):
        cast(s, "genie", "d1")


def test_a_helpful_spell_cannot_target_a_hero_out_of_sight():
    q = build_quest(
        "aaa.bbb",
        hero_starts={h: (0, 0) for h in ("barbarian", "dwarf", "elf")} | {"wizard": (0, 0)},
    )
    s = caster(quest=q, wizard=(0, 0), barbarian=(5, 0))
    assert not [
        a for a in legal_actions(s, 2) if isinstance(a, CastSpell) and a.target == "barbarian"
    ]
    with pytest.raises(IllegalAction):
        cast(s, "courage", "barbarian")


# --- the spell draft (room option) -------------------------------------------------------------
def test_spell_draft_the_wizard_picks_then_the_elf_then_the_wizard_takes_the_rest():
    s = new_game(build_quest("aaaa\naaaa"), 3, 1, {"spell_draft": True})
    assert s.phase == "draft" and seats_to_move(s) == [3]
    assert s.heroes["elf"].spells == [] and s.heroes["wizard"].spells == []
    assert legal_actions(s, 3) == [
        ChooseSpells("wizard", e) for e in ("air", "fire", "water", "earth")
    ]
    s = apply(s, 3, ChooseSpells("wizard", "earth")).state
    assert s.turn.hero == "elf" and ChooseSpells("elf", "earth") not in legal_actions(s, 3)
    with pytest.raises(IllegalAction, match="not free"):
        apply(s, 3, ChooseSpells("elf", "earth"))
    s = apply(s, 3, ChooseSpells("elf", "fire")).state
    assert s.heroes["elf"].spells == list(spells_of("fire"))
    assert sorted(s.heroes["wizard"].spells) == sorted(spells_of("earth", "air", "water"))
    assert s.phase == "heroes" and s.turn.hero == "barbarian"


def test_spell_draft_a_timed_out_draft_turn_takes_the_first_free_element():
    s = new_game(build_quest("aaaa\naaaa"), 2, 1, {"spell_draft": True})
    s = apply(s, 2, EndTurn("wizard")).state
    s = apply(s, 2, EndTurn("elf")).state
    assert s.heroes["wizard"].spells[:3] == list(spells_of("air"))
    assert s.heroes["elf"].spells == list(spells_of("fire"))
    assert s.turn.hero == "barbarian"


def test_without_the_draft_the_elf_holds_earth_and_the_wizard_the_rest():
    s = new_game(build_quest("aaaa\naaaa"), 2, 1)
    assert s.heroes["elf"].spells == list(spells_of("earth"))
    assert seat_view(s, 2)["options"]["spell_draft"] is False
