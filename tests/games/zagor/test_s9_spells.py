"""docs/zagor/rules.md section 9: every spell, when it may be cast, one at a time."""

import pytest

from apps.games.port import Refusal
from apps.games.zagor.data import SPELL_DECK, SPELLS
from apps.games.zagor.state import Hireling, Tile

from .builders import a, act, clear_tiles, fight, game, legal, put, turn_to


def table(hand, *, heroes=2):
    s = clear_tiles(turn_to(game(heroes=heroes), "barbarian"))
    put(s, "barbarian", "a10")
    if heroes > 1:
        put(s, "dwarf", "a17")
    s.heroes["barbarian"].spells = list(hand)
    if heroes > 1:
        s.heroes["dwarf"].spells = []
    return s


def cast(s, spell, target=None, forced=None):
    return act(s, a("cast", spell=spell, target=target), forced)


def me(r):
    return r.state.heroes["barbarian"]


def him(r):
    return r.state.heroes["dwarf"]


def test_the_deck_holds_the_seeds_56_cards_over_40_kinds():
    assert len(SPELL_DECK) == 56 and len(SPELLS) == 40 and SPELL_DECK.count("Life") == 6


def test_only_one_spell_a_turn():
    s = table(["Alchemy", "Evolution"])
    s = cast(s, "Alchemy").state
    assert not any(x["type"] == "cast" for x in legal(s))


def test_time_warp_is_not_the_turns_spell_and_draws_a_card_at_once():
    s = table(["Time Warp"])
    s.deck.append("Alchemy")
    r = cast(s, "Time Warp")
    assert me(r).spells == ["Alchemy"] and r.state.turn.spells_left == 1
    drawn = [e for e in r.events if e["type"] == "spell_drawn"]
    assert drawn and drawn[0]["audience"] == [1]


def test_alchemy_gives_five_gold():
    assert me(cast(table(["Alchemy"]), "Alchemy")).gold == 25


@pytest.mark.parametrize(("spell", "loss"), [("Arrow", 1), ("Fireball", 2)])
def test_arrow_and_fireball_wound_the_foe_in_a_fight(spell, loss):
    s = fight(table([spell]), stamina=4)
    assert cast(s, spell).state.fight.stamina == 4 - loss


def test_fireball_wounds_a_duels_defender():
    s = table(["Fireball"])
    put(s, "dwarf", "a11")
    s = act(s, a("attack_hero", target="dwarf"), {"d10": [1, 1]}).state
    assert cast(s, "Fireball").state.heroes["dwarf"].stamina == 6


def test_charisma_takes_a_heros_hireling():
    s = table(["Charisma"])
    s.heroes["dwarf"].hireling = Hireling("Wood Elf", 6, 4)
    r = cast(s, "Charisma", "dwarf")
    assert me(r).hireling.name == "Wood Elf" and him(r).hireling is None


def test_charm_monster_wins_the_fight_and_the_monster_follows():
    s = fight(table(["Charm Monster"]), "Orc", 5, 3)
    put(s, "barbarian", "r11")
    s.fight.space = "r11"
    s.rooms["r11"].chests = [9]
    r = cast(s, "Charm Monster")
    assert r.state.fight is None and me(r).hireling.name == "Orc" and me(r).chests == [9]


def test_death_kills_the_monster():
    s = fight(table(["Death"]))
    put(s, "barbarian", "r11")
    s.fight.space = "r11"
    r = cast(s, "Death")
    assert r.state.fight is None and r.state.rooms["r11"].monster is None


def test_destiny_makes_the_next_roll_a_hit():
    s = fight(table(["Destiny"]), strength=9)
    s = cast(s, "Destiny").state
    assert act(s, a("strike"), {"d10": [1, 1]}).state.fight.stamina == 2


def test_drain_magic_empties_a_heros_hand():
    s = table(["Drain Magic"])
    s.heroes["dwarf"].spells = ["Life"]
    assert him(cast(s, "Drain Magic", "dwarf")).spells == []


def test_escape_leaves_a_fight_with_no_loss():
    s = fight(table(["Escape"]), retreat_to="a11")
    s.heroes["barbarian"].items = ["Torch"]
    r = cast(s, "Escape")
    assert r.state.fight is None and me(r).items == ["Torch"]


def test_evolution_raises_strength_for_good():
    assert me(cast(table(["Evolution"]), "Evolution")).strength == 7


@pytest.mark.parametrize(("spell", "length"), [("Flying Carpet", 4), ("Jump", 2)])
def test_flying_carpet_and_jump_give_an_extra_move(spell, length):
    assert cast(table([spell]), spell).state.turn.moves == [0, length]


def test_speed_makes_this_turns_move_four_spaces():
    r = cast(table(["Speed"]), "Speed")
    assert r.state.turn.moves == [4]


def test_fools_gold_halves_a_heros_gold():
    assert him(cast(table(["Fools Gold"]), "Fools Gold", "dwarf")).gold == 10


def test_freeze_stops_a_heros_next_move():
    s = cast(table(["Freeze"]), "Freeze", "dwarf").state
    s = act(s, a("end_turn"), {"voice": [1]}).state
    assert s.turn.hero == "dwarf" and s.turn.moves == []


def test_ghost_costs_a_hero_two_stamina():
    assert him(cast(table(["Ghost"]), "Ghost", "dwarf")).stamina == 6


@pytest.mark.parametrize(("spell", "stamina"), [("Healing", 8), ("Life", 5)])
def test_healing_restores_and_life_gives_two(spell, stamina):
    s = table([spell])
    s.heroes["barbarian"].stamina = 3
    assert me(cast(s, spell)).stamina == stamina


def test_hurricane_blows_a_hero_elsewhere_on_his_level():
    r = cast(table(["Hurricane"]), "Hurricane", "dwarf", {"teleport": [0]})
    assert him(r).space == "a1"


def test_invisibility_keeps_spells_and_attacks_off_until_the_next_turn():
    s = table(["Invisibility"])
    s = cast(s, "Invisibility").state
    assert s.heroes["barbarian"].invisible
    turn_to(s, "dwarf")
    s.heroes["dwarf"].spells = ["Ghost"]
    assert not any(x["type"] == "cast" for x in legal(s, "dwarf"))


def test_long_fingers_takes_an_item():
    s = table(["Long Fingers"])
    s.heroes["dwarf"].items = ["Helmet"]
    r = cast(s, "Long Fingers", "dwarf")
    assert me(r).items == ["Helmet"] and him(r).items == []


def test_magic_charge_adds_two_to_rolls_for_the_fight():
    s = cast(fight(table(["Magic Charge"]), strength=7), "Magic Charge").state
    assert act(s, a("strike"), {"d10": [1, 5]}).state.fight.stamina == 2


def test_magic_screen_cannot_be_cast_and_turns_a_spell_aside():
    s = table(["Ghost"])
    s.heroes["dwarf"].spells = ["Magic Screen"]
    r = cast(s, "Ghost", "dwarf")
    assert him(r).stamina == 8 and him(r).spells == []
    s = table(["Magic Screen"])
    assert not any(x["type"] == "cast" for x in legal(s))


def test_magnetism_pulls_a_hero_next_to_the_caster():
    assert him(cast(table(["Magnetism"]), "Magnetism", "dwarf")).space == "a7"


def test_merchant_opens_the_store_where_the_caster_stands():
    s = cast(table(["Merchant"]), "Merchant").state
    assert any(x["type"] == "buy" for x in legal(s))


def test_mind_blank_stops_a_heros_next_spell():
    s = cast(table(["Mind Blank"]), "Mind Blank", "dwarf").state
    s = act(s, a("end_turn"), {"voice": [1]}).state
    assert s.turn.spells_left == 0


def test_pickpocket_takes_up_to_five_gold():
    r = cast(table(["Pickpocket"]), "Pickpocket", "dwarf")
    assert me(r).gold == 25 and him(r).gold == 15


def test_rust_destroys_an_axe_helmet_or_shield():
    s = table(["Rust"])
    s.heroes["dwarf"].items = ["Shield", "Torch"]
    assert him(cast(s, "Rust", "dwarf")).items == ["Torch"]


def test_sleep_makes_a_hero_miss_his_next_turn():
    assert him(cast(table(["Sleep"]), "Sleep", "dwarf")).miss_turns == 1


def test_steal_takes_a_chest_card():
    s = table(["Steal"])
    s.heroes["dwarf"].chests = [4]
    r = cast(s, "Steal", "dwarf")
    assert me(r).chests == [4] and him(r).chests == []


def test_summon_creature_brings_a_familiar():
    assert me(cast(table(["Summon Creature"]), "Summon Creature")).hireling.name == "Familiar"


def test_summon_monster_attacks_a_hero_at_the_start_of_his_next_turn():
    s = cast(table(["Summon Monster"]), "Summon Monster", "dwarf").state
    s = act(s, a("end_turn"), {"voice": [1]}).state
    assert s.turn.hero == "dwarf" and s.fight is not None and s.fight.kind == "summoned"


def test_switch_changes_places():
    r = cast(table(["Switch"]), "Switch", "dwarf")
    assert (me(r).space, him(r).space) == ("a17", "a10")


def test_teleport_goes_to_a_chosen_free_corridor_without_revealing_it():
    s = table(["Teleport"])
    s.tiles["a3"] = Tile("Trap")
    r = cast(s, "Teleport", "a3")
    assert me(r).space == "a3" and not r.state.tiles["a3"].revealed


def test_transformation_shrinks_the_monster():
    assert (
        cast(fight(table(["Transformation"]), strength=5), "Transformation").state.fight.strength
        == 3
    )


def test_tunnel_goes_to_the_stone_steps():
    assert me(cast(table(["Tunnel"]), "Tunnel")).space == "steps"


def test_vision_shows_the_caster_alone_the_tiles_within_two_spaces():
    s = table(["Vision"])
    s.tiles["a11"] = Tile("Trap")
    s.tiles["a12"] = Tile("Genie")
    r = cast(s, "Vision")
    assert me(r).known == {"a11": "Trap", "a12": "Genie"}
    event = next(e for e in r.events if e["type"] == "vision")
    assert event["audience"] == [1] and "Genie" not in event["redacted"]["text"]


def test_weapons_gives_an_item_from_the_pool():
    assert "Mule" in me(cast(table(["Weapons"]), "Weapons", "Mule")).items


def test_wings_fly_home():
    assert me(cast(table(["Wings"]), "Wings")).space == "s1"


def test_no_spell_is_cast_on_a_hero_in_the_crypt():
    s = put(table(["Ghost"]), "dwarf", "c1")
    with pytest.raises(Refusal):
        cast(s, "Ghost", "dwarf")


def test_every_spell_of_the_seed_is_in_the_table_with_its_moment():
    for sd in SPELLS.values():
        assert sd.when <= {"turn", "fight", "duel"} and sd.text
