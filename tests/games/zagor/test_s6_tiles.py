"""docs/zagor/rules.md section 6: every corridor tile."""

import pytest

from apps.games.zagor.data import LEVEL_TILES, TILES
from apps.games.zagor.state import Hireling

from .builders import a, act, clear_tiles, game, lay, legal, put, turn_to

ALL_TILES = sorted({f for level in (1, 2, 3) for f in LEVEL_TILES[level]})


def land(face, *, on="a5", start="s1", forced=None, heroes=1, setup=None):
    """The Barbarian steps onto `face` (laid on `on`); returns the result."""
    s = clear_tiles(turn_to(game(heroes=heroes), "barbarian"))
    put(s, "barbarian", start)
    lay(s, on, face)
    if setup:
        setup(s)
    return act(s, a("move", to=on), forced)


def hero(r):
    return r.state.heroes["barbarian"]


@pytest.mark.parametrize(
    "item",
    [
        "Axe",
        "Elven Boots",
        "Healing Potion",
        "Helmet",
        "Magic Arrow",
        "Shield",
        "Torch",
        "Water Bottle",
    ],
)
def test_an_equipment_tile_is_taken_and_used_up(item):
    r = land(item)
    assert item in hero(r).items and "a5" not in r.state.tiles


def test_an_equipment_tile_stays_for_someone_else_when_the_hero_has_one():
    r = land("Axe", setup=lambda s: s.heroes["barbarian"].items.append("Axe"))
    assert r.state.tiles["a5"].revealed and r.state.tiles["a5"].face == "Axe"


def test_mule_is_taken_on_level_two():
    r = land("Mule", on="b1", start="b2")
    assert "Mule" in hero(r).items and hero(r).chest_limit == 8


@pytest.mark.parametrize(
    ("roll", "gold", "potion"), [(2, 20, False), (5, 23, False), (9, 20, True)]
)
def test_barrel_holds_what_the_d10_says(roll, gold, potion):
    r = land("Barrel", forced={"d10": [roll]})
    assert hero(r).gold == gold and ("Healing Potion" in hero(r).items) == potion
    assert "a5" not in r.state.tiles


def test_friendly_dwarf_joins_as_hireling():
    r = land("Friendly Dwarf")
    assert (hero(r).hireling.name, hero(r).hireling.strength) == ("Friendly Dwarf", 5)
    assert "a5" not in r.state.tiles


def test_wood_elf_stays_when_the_hero_has_a_hireling():
    r = land(
        "Wood Elf",
        on="b1",
        start="b2",
        setup=lambda s: setattr(s.heroes["barbarian"], "hireling", Hireling("X", 5, 1)),
    )
    assert r.state.tiles["b1"].face == "Wood Elf"


def test_genie_restores_stamina_and_gives_three_gold():
    r = land("Genie", setup=lambda s: setattr(s.heroes["barbarian"], "stamina", 3))
    assert hero(r).stamina == 8 and hero(r).gold == 23


def test_giant_rats_bite_one_stamina_and_stay():
    r = land("Giant Rats")
    assert hero(r).stamina == 7 and r.state.tiles["a5"].revealed


def test_a_tile_never_takes_a_hero_below_one_stamina():
    r = land("Trap", setup=lambda s: setattr(s.heroes["barbarian"], "stamina", 2))
    assert hero(r).stamina == 1


def test_guard_takes_a_toll_or_a_blow():
    assert hero(land("Guard")).gold == 18
    r = land("Guard", setup=lambda s: setattr(s.heroes["barbarian"], "gold", 1))
    assert hero(r).gold == 1 and hero(r).stamina == 7


def test_leather_pouch_holds_three_gold():
    r = land("Leather Pouch")
    assert hero(r).gold == 23 and "a5" not in r.state.tiles


def test_pool_of_gold_gives_a_d10_of_gold():
    r = land("Pool of Gold", forced={"d10": [7]})
    assert hero(r).gold == 27


def test_random_runs_the_voices_event():
    r = land("Random", forced={"voice": [0, 1]})  # the only hero; Gold rain
    assert hero(r).gold == 25 and any(e["type"] == "voice" for e in r.events)


def test_scout_gives_another_move():
    r = land("Scout")
    assert r.state.turn.moves == [0]


def test_secret_passage_stays_face_up():
    r = land("Secret Passage")
    assert r.state.tiles["a5"].revealed


def test_sorcerer_teaches_a_spell_if_the_hand_has_room():
    r = land("Sorcerer", setup=lambda s: setattr(s.heroes["barbarian"], "spells", []))
    assert len(hero(r).spells) == 1
    r = land("Sorcerer")
    assert len(hero(r).spells) == 1


def test_teleport_sends_the_hero_to_a_free_corridor_of_his_level():
    r = land("Teleport", forced={"teleport": [3]})
    assert hero(r).space not in ("a5", "s1") and hero(r).space.startswith("a")


def test_trap_costs_two_and_forbids_a_duel_this_turn():
    r = land("Trap", heroes=2, setup=lambda s: put(s, "dwarf", "a7"))
    assert hero(r).stamina == 6 and r.state.turn.trapped
    assert not any(x["type"] == "attack_hero" for x in legal(r.state))


def test_witch_takes_a_spell_card_privately_or_one_stamina():
    r = land("Witch", setup=lambda s: setattr(s.heroes["barbarian"], "spells", ["Life"]))
    assert hero(r).spells == [] and "Life" in r.state.discards
    event = next(e for e in r.events if "witch" in e["text"].lower() and e["audience"] != "all")
    assert "Life" not in event["redacted"]["text"]
    r = land("Witch", setup=lambda s: setattr(s.heroes["barbarian"], "spells", []))
    assert hero(r).stamina == 7


def test_dark_elf_hits_on_a_d10_higher_than_strength():
    assert hero(land("Dark Elf", on="b1", start="b2", forced={"d10": [7]})).stamina == 6
    assert hero(land("Dark Elf", on="b1", start="b2", forced={"d10": [6]})).stamina == 8


def test_druid_heals_two():
    r = land(
        "Druid", on="b1", start="b2", setup=lambda s: setattr(s.heroes["barbarian"], "stamina", 3)
    )
    assert hero(r).stamina == 5


def test_evil_wizard_flings_the_hero_onto_the_stone_steps():
    assert hero(land("Evil Wizard", on="b1", start="b2")).space == "steps"


def test_fountain_of_life_restores_stamina():
    r = land(
        "Fountain of Life",
        on="b1",
        start="b2",
        setup=lambda s: setattr(s.heroes["barbarian"], "stamina", 2),
    )
    assert hero(r).stamina == 8


def test_ghost_makes_the_hero_miss_his_next_turn():
    assert hero(land("Ghost", on="b1", start="b2")).miss_turns == 1


@pytest.mark.parametrize(("face", "figures"), [("Giant Spider", (5, 2)), ("Bone Guardian", (6, 2))])
def test_corridor_monsters_start_a_fight_with_their_figures(face, figures):
    on, start = ("b1", "b2") if face == "Giant Spider" else ("c2", "c1")
    r = land(face, on=on, start=start)
    assert (r.state.fight.strength, r.state.fight.stamina) == figures
    assert r.state.fight.kind == "corridor"


def test_good_wizard_heals_one_and_teaches_a_spell():
    def hurt_and_empty(s):
        s.heroes["barbarian"].stamina = 4
        s.heroes["barbarian"].spells = []

    r = land("Good Wizard", on="b1", start="b2", setup=hurt_and_empty)
    assert hero(r).stamina == 5 and len(hero(r).spells) == 1


def test_hag_takes_half_the_gold():
    assert hero(land("Hag", on="b1", start="b2")).gold == 10


def test_pit_costs_two_and_forbids_a_duel():
    r = land("Pit", on="b1", start="b2")
    assert hero(r).stamina == 6 and r.state.turn.trapped


def test_flame_jet_burns_two():
    assert hero(land("Flame Jet", on="c2", start="c1")).stamina == 6


def test_shrine_of_valour_heals_three():
    r = land(
        "Shrine of Valour",
        on="c2",
        start="c1",
        setup=lambda s: setattr(s.heroes["barbarian"], "stamina", 2),
    )
    assert hero(r).stamina == 5


def test_chasm_costs_one_and_drops_the_hero_onto_the_rope_bridge():
    r = land("Chasm", on="c2", start="c1")
    assert hero(r).stamina == 7 and hero(r).space == "rope_bridge"


def test_a_tile_that_stays_applies_again_to_the_next_hero():
    s = clear_tiles(turn_to(game(), "barbarian"))
    lay(s, "a5", "Giant Rats", revealed=True)
    r = act(s, a("move", to="a5"))
    assert hero(r).stamina == 7 and "meets Giant Rats" in r.events[1]["text"]


def test_every_tile_of_the_seed_has_an_effect_in_the_tables():
    assert set(ALL_TILES) <= set(TILES)
    assert len(LEVEL_TILES[1]) == 26 and len(LEVEL_TILES[2]) == 16 and len(LEVEL_TILES[3]) == 4
