"""docs/zagor/rules.md section 15: the tales and their wins."""

from .builders import a, act, clear_tiles, fight, game, put, turn_to


def orb_table(heroes=2):
    s = clear_tiles(turn_to(game("enchanted_orb", heroes=heroes), "barbarian"))
    orb = next(int(c) for c, v in s.chest_contents.items() if v == "orb")
    room = next(r for r, st in s.rooms.items() if orb in st.chests)
    return s, orb, room


def test_the_orb_is_announced_to_all_when_won():
    s, orb, room = orb_table()
    put(s, "barbarian", room)
    fight(s, stamina=1)
    s.fight.space = room
    r = act(s, a("strike"), {"d10": [1, 10]})
    assert r.state.heroes["barbarian"].chests == [orb]
    assert any(
        e["type"] == "voice" and "Enchanted Orb" in e["text"] and e["audience"] == "all"
        for e in r.events
    )


def test_a_gold_chest_of_the_orb_tale_is_two_gold_at_once():
    s, orb, _ = orb_table()
    other = next(r for r, st in s.rooms.items() if st.chests and st.chests[0] != orb)
    put(s, "barbarian", other)
    fight(s, stamina=1)
    s.fight.space = other
    r = act(s, a("strike"), {"d10": [1, 10]})
    assert r.state.heroes["barbarian"].gold == 12 and r.state.heroes["barbarian"].chests == []


def test_carrying_the_orb_to_ones_own_start_wins():
    s, orb, _ = orb_table()
    s.heroes["barbarian"].chests = [orb]
    put(s, "barbarian", "a1")
    r = act(s, a("move", to="s1"))
    assert r.state.outcome == "hero:barbarian"


def test_anothers_start_is_not_home():
    s, orb, _ = orb_table()
    s.heroes["barbarian"].chests = [orb]
    put(s, "barbarian", "a4")
    put(s, "dwarf", "a17")
    assert act(s, a("move", to="s2")).state.outcome is None


def test_the_orb_is_won_by_killing_its_holder_in_a_duel():
    s, orb, _ = orb_table()
    put(s, "barbarian", "a10")
    put(s, "dwarf", "a11")
    s.heroes["dwarf"].chests = [orb]
    s.heroes["dwarf"].stamina = 1
    r = act(s, a("attack_hero", target="dwarf"), {"d10": [10, 1]})
    assert r.state.heroes["barbarian"].chests == [orb] and r.state.outcome is None


def test_a_surrender_hands_over_the_orb_when_the_winner_takes_a_chest():
    s, orb, _ = orb_table()
    put(s, "barbarian", "a10")
    put(s, "dwarf", "a11")
    s.heroes["dwarf"].chests = [orb]
    s.heroes["dwarf"].surrender_at = 7
    s = act(s, a("attack_hero", target="dwarf"), {"d10": [10, 1, 1]}).state
    r = act(s, a("spoils", take="chest"))
    assert r.state.heroes["barbarian"].chests == [orb]


def test_the_orb_is_stolen_by_the_steal_spell():
    s, orb, _ = orb_table()
    s.heroes["dwarf"].chests = [orb]
    s.heroes["barbarian"].spells = ["Steal"]
    r = act(s, a("cast", spell="Steal", target="dwarf"))
    assert r.state.heroes["barbarian"].chests == [orb]


def test_the_orb_is_never_lost_to_a_monster_in_a_retreat():
    s, orb, _ = orb_table()
    s.heroes["barbarian"].chests = [orb]
    fight(s)
    r = act(s, a("retreat"))
    assert r.state.heroes["barbarian"].chests == [orb]


def test_a_hero_who_falls_with_the_orb_drops_it_in_the_room_and_does_not_win():
    s, orb, room = orb_table()
    s.rooms[room].chests = []
    s.heroes["barbarian"].chests = [orb]
    put(s, "barbarian", room)
    fight(s)
    s.fight.space = room
    s.heroes["barbarian"].stamina = 1
    r = act(s, a("strike"), {"d10": [10], "voice": [1]})
    assert r.state.outcome is None and r.state.rooms[room].chests == [orb]


def spectre_table():
    s = clear_tiles(turn_to(game("howling_spectre", heroes=2), "barbarian"))
    spirit = next(int(c) for c, v in s.chest_contents.items() if v == "spirit")
    s.chest_supply = [c for c in s.chest_supply if c != spirit]
    return s, spirit


def test_a_level_one_kill_draws_one_chest_of_two_gold():
    s, _ = spectre_table()
    put(s, "barbarian", "r11")
    fight(s, stamina=1)
    s.fight.space = "r11"
    r = act(s, a("strike"), {"d10": [1, 10]})
    assert r.state.heroes["barbarian"].gold == 14 and len(r.state.chest_supply) == 19


def test_a_level_two_kill_draws_two_chests_of_four_gold():
    s, _ = spectre_table()
    put(s, "barbarian", "r21")
    fight(s, stamina=1)
    s.fight.space = "r21"
    r = act(s, a("strike"), {"d10": [1, 10]})
    assert r.state.heroes["barbarian"].gold == 20 and len(r.state.chest_supply) == 18


def test_drawing_the_spirit_of_tallistor_wins_at_once():
    s, spirit = spectre_table()
    s.chest_supply.append(spirit)
    put(s, "barbarian", "r11")
    fight(s, stamina=1)
    s.fight.space = "r11"
    r = act(s, a("strike"), {"d10": [1, 10]})
    assert r.state.outcome == "hero:barbarian"
