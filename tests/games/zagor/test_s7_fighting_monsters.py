"""docs/zagor/rules.md section 7: fighting monsters, hirelings."""

from apps.games.zagor.state import Hireling, Tile

from .builders import a, act, clear_tiles, fight, game, legal_types, put, turn_to


def in_room(heroes=1, **kw):
    s = clear_tiles(turn_to(game(heroes=heroes), "barbarian"))
    put(s, "barbarian", "r11")
    s.rooms["r11"].monster = "Orc"
    return fight(s, retreat_to="a2", **kw)


def test_entering_a_guarded_room_makes_the_voice_announce_the_monster():
    s = put(clear_tiles(turn_to(game(), "barbarian")), "barbarian", "a2")
    s.rooms["r11"].monster = "Orc"
    r = act(s, a("move", to="r11"), {"monster": [1, 0]})  # no swing, no extra Stamina
    f = r.state.fight
    assert (f.foe, f.strength, f.stamina) == ("Orc", 5, 3)
    assert r.events[-1]["type"] == "voice" and "Strength 5, Stamina 3" in r.events[-1]["text"]


def test_the_announcement_is_scaled_to_four_heroes():
    s = clear_tiles(turn_to(game(heroes=4), "barbarian"))
    put(s, "barbarian", "a2")
    s.rooms["r11"].monster = "Orc"
    f = act(s, a("move", to="r11"), {"monster": [1, 0]}).state.fight
    assert (f.strength, f.stamina) == (6, 4)


def test_a_monster_hits_when_its_attack_is_higher_than_the_heros_strength():
    s = in_room()
    assert act(s, a("strike"), {"d10": [6, 1]}).state.heroes["barbarian"].stamina == 8
    assert act(s, a("strike"), {"d10": [7, 1]}).state.heroes["barbarian"].stamina == 7


def test_a_hero_hits_when_his_roll_is_at_least_the_monsters_strength():
    s = in_room(strength=5)
    assert act(s, a("strike"), {"d10": [1, 5]}).state.fight.stamina == 2
    assert act(s, a("strike"), {"d10": [1, 4]}).state.fight.stamina == 3


def test_an_axe_adds_one_to_the_roll_and_a_helmet_one_to_strength():
    s = in_room(strength=5)
    s.heroes["barbarian"].items = ["Axe", "Helmet"]
    r = act(s, a("strike"), {"d10": [7, 4]})
    assert r.state.heroes["barbarian"].stamina == 8 and r.state.fight.stamina == 2


def test_a_shield_stops_the_first_hit_of_each_fight():
    s = in_room()
    s.heroes["barbarian"].items = ["Shield"]
    s = act(s, a("strike"), {"d10": [10, 1]}).state
    assert s.heroes["barbarian"].stamina == 8
    assert act(s, a("strike"), {"d10": [10, 1]}).state.heroes["barbarian"].stamina == 7


def test_winning_clears_the_room_for_good_and_takes_its_chests():
    s = in_room(stamina=1)
    s.rooms["r11"].chests = [7]
    r = act(s, a("strike"), {"d10": [1, 9]})
    h = r.state.heroes["barbarian"]
    assert r.state.fight is None and r.state.rooms["r11"].monster is None
    assert h.chests == [7] and h.fights_won == 1 and r.state.rooms["r11"].chests == []


def test_a_turn_cannot_end_in_a_fight():
    assert "end_turn" not in legal_types(in_room())


def test_a_retreat_goes_back_where_the_hero_came_from_and_costs_the_cheapest_item():
    s = in_room()
    s.heroes["barbarian"].items = ["Axe", "Torch"]
    r = act(s, a("retreat"))
    h = r.state.heroes["barbarian"]
    assert h.space == "a2" and h.items == ["Axe"] and r.state.rooms["r11"].monster == "Orc"
    assert r.state.turn.fought and "move" not in legal_types(r.state)


def test_a_retreating_hero_without_items_loses_a_chest_beside_the_dragons_cave():
    s = in_room()
    s.heroes["barbarian"].chests = [3]
    r = act(s, a("retreat"))
    assert r.state.heroes["barbarian"].chests == [] and r.state.chest_pile == [3]


def test_a_fallen_hero_returns_to_his_start_whole_and_misses_a_turn():
    s = in_room()
    s.heroes["barbarian"].stamina = 1
    s.heroes["barbarian"].items = ["Water Bottle"]
    r = act(s, a("strike"), {"d10": [10], "voice": [1]})
    h = r.state.heroes["barbarian"]
    assert h.space == "s1" and h.stamina == 8 and h.items == []
    assert r.state.fight is None
    assert h.miss_turns == 0 and r.state.round == 3  # solo: his next turn was passed over


def test_a_hireling_fights_in_the_heros_place_and_keeps_its_wounds():
    s = in_room()
    s.heroes["barbarian"].hireling = Hireling("Friendly Dwarf", 5, 2)
    r = act(s, a("strike", by="hireling"), {"d10": [6, 9]})
    h = r.state.heroes["barbarian"]
    assert h.stamina == 8 and h.hireling.stamina == 1 and r.state.fight.stamina == 2


def test_a_hireling_killed_leaves_the_hero_to_fight_on_or_flee():
    s = in_room()
    s.heroes["barbarian"].hireling = Hireling("Friendly Dwarf", 5, 1)
    r = act(s, a("strike", by="hireling"), {"d10": [6]})
    assert r.state.heroes["barbarian"].hireling is None and r.state.fight is not None
    assert {"strike", "retreat"} <= legal_types(r.state)


def test_a_corridor_monster_slain_removes_its_tile_and_gives_no_chest():
    s = clear_tiles(turn_to(game(), "barbarian"))
    put(s, "barbarian", "b1")
    s.tiles["b1"] = Tile("Giant Spider", True)
    fight(s, "the Giant Spider", 5, 1, kind="corridor", retreat_to="b1")
    r = act(s, a("strike"), {"d10": [1, 9]})
    assert "b1" not in r.state.tiles and r.state.heroes["barbarian"].chests == []


def test_a_fallen_hero_whose_start_is_taken_goes_to_the_next_free_start():
    s = in_room(heroes=2)
    put(s, "dwarf", "s1")
    s.heroes["barbarian"].stamina = 1
    r = act(s, a("strike"), {"d10": [10], "voice": [1]})
    assert r.state.heroes["barbarian"].space == "s2"
