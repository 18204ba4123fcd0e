"""docs/rules.md section 9: monsters and Zargon's phase."""

import pytest

from apps.games.heroquest.engine import (
    Attack,
    EndActivation,
    EndPhase,
    IllegalAction,
    MonsterAttack,
    MonsterMove,
    legal_actions,
    new_game,
    seat_view,
)
from apps.games.heroquest.engine.data import MONSTERS
from apps.games.heroquest.engine.options import OptionsError

from .builders import (
    OPEN_ROOM,
    ZARGON,
    act,
    build_quest,
    monster_phase,
    place,
    set_turn,
    start,
    zargon_turn,
)


def test_monster_moves_up_to_its_move_value_square_by_square():
    s = monster_phase([("zombie", (11, 0))])  # Move 5
    for x in range(10, 5, -1):
        s = act(s, ZARGON, MonsterMove("m1", (x, 0))).state
    with pytest.raises(IllegalAction, match="not enough movement"):
        act(s, ZARGON, MonsterMove("m1", (5, 0)))


def test_monster_may_attack_then_move_but_never_move_attack_move():
    s = monster_phase([("orc", (2, 0))], barbarian=(1, 0))
    s = act(s, ZARGON, MonsterAttack("m1", "barbarian"), dice=["white_shield"] * 5).state
    s = act(s, ZARGON, MonsterMove("m1", (3, 0))).state  # attacking first, then moving: fine
    s2 = monster_phase([("orc", (3, 0))], barbarian=(1, 0))
    s2 = act(s2, ZARGON, MonsterMove("m1", (2, 0))).state
    s2 = act(s2, ZARGON, MonsterAttack("m1", "barbarian"), dice=["white_shield"] * 5).state
    with pytest.raises(IllegalAction, match="not enough movement"):
        act(s2, ZARGON, MonsterMove("m1", (2, 1)))


def test_each_monster_is_activated_at_most_once_per_phase():
    s = monster_phase([("orc", (5, 0)), ("orc", (8, 0))])
    s = act(s, ZARGON, MonsterMove("m1", (5, 1))).state
    s = act(s, ZARGON, MonsterMove("m2", (8, 1))).state  # starting m2 ends m1's activation
    with pytest.raises(IllegalAction, match="already been activated"):
        act(s, ZARGON, MonsterMove("m1", (4, 1)))
    s = act(s, ZARGON, EndActivation("m2")).state
    with pytest.raises(IllegalAction, match="already been activated"):
        act(s, ZARGON, MonsterMove("m2", (8, 0)))


def test_monsters_never_pass_heroes_or_other_monsters():
    s = monster_phase([("orc", (3, 0)), ("orc", (3, 1))], barbarian=(2, 0))
    with pytest.raises(IllegalAction, match="blocked or taken"):
        act(s, ZARGON, MonsterMove("m1", (2, 0)))
    with pytest.raises(IllegalAction, match="blocked or taken"):
        act(s, ZARGON, MonsterMove("m2", (3, 0)))


def test_monsters_never_open_doors():
    q = build_quest(
        "aaaPbbb",
        doors=[((2, 0), (3, 0))],
        monsters=[("orc", (1, 0))],
        hero_starts={h: (0, 0) for h in ("barbarian", "dwarf", "elf", "wizard")},
    )
    s = zargon_turn(start(q))
    s = act(s, ZARGON, MonsterMove("m1", (2, 0))).state
    assert MonsterMove("m1", (3, 0)) not in legal_actions(s, ZARGON)
    with pytest.raises(IllegalAction, match="closed door"):
        act(s, ZARGON, MonsterMove("m1", (3, 0)))


def test_sleeping_or_tempest_struck_monsters_skip_their_next_activation():
    s = monster_phase([("orc", (5, 0)), ("goblin", (8, 0))])
    s.monsters["mon1"].asleep = True
    s.monsters["mon2"].tempest = True
    assert legal_actions(s, ZARGON) == [EndPhase()]
    s = act(s, ZARGON, EndPhase()).state
    assert not s.monsters["mon1"].asleep and not s.monsters["mon2"].tempest


def test_zargon_may_end_the_phase_at_any_time():
    s = monster_phase([("orc", (5, 0))])
    s = act(s, ZARGON, MonsterMove("m1", (5, 1))).state
    s = act(s, ZARGON, EndPhase()).state
    assert (s.phase, s.round, s.turn.hero) == ("heroes", 2, "barbarian")


def test_monster_attacks_only_an_orthogonally_adjacent_hero():
    s = monster_phase([("orc", (1, 1))], barbarian=(0, 0))
    with pytest.raises(IllegalAction, match="not next to"):
        act(s, ZARGON, MonsterAttack("m1", "barbarian"))


def test_monsters_clear_an_open_pit_in_one_bound():
    q = build_quest(OPEN_ROOM, monsters=[("orc", (4, 0))], traps=[("pit", (3, 0))])
    s = zargon_turn(place(start(q), barbarian=(0, 1), dwarf=None, elf=None, wizard=None))
    s.traps["trap1"].state = "sprung"
    assert MonsterMove("m1", (2, 0)) in legal_actions(s, ZARGON)
    s = act(s, ZARGON, MonsterMove("m1", (2, 0))).state
    assert s.mturn.movement_left == 6


def test_monsters_never_spring_traps():
    q = build_quest(OPEN_ROOM, monsters=[("orc", (4, 0))], traps=[("spear", (3, 0))])
    s = zargon_turn(place(start(q), barbarian=(0, 1), dwarf=None, elf=None, wizard=None))
    s = act(s, ZARGON, MonsterMove("m1", (3, 0))).state
    assert s.traps["trap1"].state == "armed" and s.traps["trap1"].pub is None


def test_monster_stats_are_the_table_of_rules_md():
    table = {
        kind: (m.move, m.attack, m.defend, m.body, m.mind, m.undead) for kind, m in MONSTERS.items()
    }
    assert table == {
        "goblin": (10, 2, 1, 1, 1, False),
        "orc": (8, 3, 2, 1, 2, False),
        "abomination": (6, 3, 3, 2, 3, False),
        "skeleton": (6, 2, 2, 1, 0, True),
        "zombie": (5, 2, 3, 1, 0, True),
        "mummy": (4, 3, 4, 2, 0, True),
        "dread_warrior": (7, 4, 4, 3, 3, False),
        "gargoyle": (6, 4, 5, 3, 4, False),
        "dread_warden": (6, 4, 4, 4, 4, False),
    }


def test_monsters_obey_walls():
    q = build_quest(
        "aaabbb\naaabbb",
        monsters=[("orc", (2, 0)), ("goblin", (3, 1))],
        hero_starts={h: (0, 1) for h in ("barbarian", "dwarf", "elf", "wizard")},
    )
    s = zargon_turn(start(q))
    s.areas["b"] = "a2"
    s.monsters["mon2"].pub = "m2"
    assert MonsterMove("m1", (3, 0)) not in legal_actions(s, ZARGON)
    with pytest.raises(IllegalAction, match="wall"):
        act(s, ZARGON, MonsterMove("m1", (3, 0)))


# --- the UK edition (room option) ---------------------------------------------------------------
def test_uk_edition_every_monster_of_the_table_has_one_body_but_a_villain_keeps_its_stats():
    q = build_quest(
        "aaaaaa\naaaaaa",
        monsters=[("gargoyle", (4, 0)), ("mummy", (5, 0)), ("dread_warden", (5, 1))],
        villain=2,
    )
    uk = new_game(q, 2, 1, {"edition": "uk"})
    assert [m.body for m in uk.monsters.values()] == [1, 1, 4]
    us = new_game(q, 2, 1)
    assert [m.body for m in us.monsters.values()] == [3, 2, 4]


def test_uk_edition_no_weapon_attacks_diagonally():
    q = build_quest("aaaaaa\naaaaaa", monsters=[("orc", (1, 1))])
    for edition, allowed in (("us", True), ("uk", False)):
        s = new_game(
            q, 2, 1, {"edition": edition, "heroes": {"barbarian": {"weapon": "longsword"}}}
        )
        place(s, barbarian=(0, 0), dwarf=None, elf=None, wizard=None)
        set_turn(s, "barbarian")
        assert (Attack("barbarian", "m1") in legal_actions(s, 2)) is allowed


def test_an_unknown_or_malformed_option_is_refused_never_ignored():
    q = build_quest("aaaa\naaaa")
    with pytest.raises(OptionsError, match="Unknown option 'editon'"):
        new_game(q, 2, 1, {"editon": "uk"})
    with pytest.raises(OptionsError, match='"edition" must be "us" or "uk"'):
        new_game(q, 2, 1, {"edition": "fr"})
    with pytest.raises(OptionsError, match='"spell_draft" must be true or false'):
        new_game(q, 2, 1, {"spell_draft": "yes"})


def test_every_seat_sees_a_revealed_monsters_stat_card():
    s = monster_phase([("orc", (5, 0)), ("mummy", (7, 1))])
    for seat in (ZARGON, 2):
        cards = {m["kind"]: m for m in seat_view(s, seat)["monsters"]}
        orc, mummy = cards["orc"], cards["mummy"]
        assert (orc["move"], orc["attack"], orc["defend"], orc["mind"]) == (8, 3, 2, 2)
        assert (mummy["move"], mummy["attack"], mummy["defend"], mummy["mind"]) == (4, 3, 4, 0)
        assert (mummy["body"], mummy["body_max"]) == (2, 2)
