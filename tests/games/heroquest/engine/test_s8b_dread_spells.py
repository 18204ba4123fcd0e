"""docs/rules.md section 8b: Zargon's Dread spells, for the monsters a quest gives them."""

import pytest

from apps.games.heroquest.engine import (
    Attack,
    EndPhase,
    EndTurn,
    IllegalAction,
    MonsterAttack,
    event_for_seat,
    legal_actions,
    seat_view,
)
from apps.games.heroquest.engine.actions import CommandMove, MonsterCast
from apps.games.heroquest.engine.ai import next_monster_action
from apps.games.heroquest.engine.data import DREAD_SPELLS, SPECTATOR_SEAT, MonsterStats

from .builders import ZARGON, act, build_quest, place, set_turn, start, zargon_turn
from .leakcheck import assert_event_within_view

ROOM = """
aaaaaaaa
aaaaaaaa
aaaaaaaa
"""


def villain_with(*spells, escape_to=None, seats=2, **heroes):
    """Zargon's phase: a named sorcerer (an orc holding `spells`) at (6, 1), revealed, and the
    given heroes (the Barbarian at (1, 1) unless moved; the others off the board)."""
    extras = {0: {"name": "Grisk the Sorcerer", "dread_spells": spells, "escape_to": escape_to}}
    q = build_quest(ROOM, monsters=[("orc", (6, 1))], monster_extras=extras, villain=0)
    s = start(q, seats=seats)
    place(s, **{"barbarian": (1, 1), "dwarf": None, "elf": None, "wizard": None, **heroes})
    for hero in heroes:
        s.heroes[hero].status = "playing"
    return zargon_turn(s)


def test_dread_spells_are_listed_in_zargons_legal_actions():
    s = villain_with("ball_of_flame", "fear")
    casts = {a for a in legal_actions(s, ZARGON) if isinstance(a, MonsterCast)}
    assert casts == {
        MonsterCast("m1", "ball_of_flame", "barbarian"),
        MonsterCast("m1", "fear", "barbarian"),
    }
    assert seat_view(s, ZARGON)["monsters"][0]["dread_spells"] == ["ball_of_flame", "fear"]


def test_dread_spells_are_hidden_from_the_heroes_until_cast_then_logged_by_name():
    s = villain_with("ball_of_flame", "fear")
    view = seat_view(s, 2)
    assert "dread_spells" not in view["monsters"][0]
    assert "Dread" not in str(view["log"]) and view["legal_actions"] == []
    t = act(s, ZARGON, MonsterCast("m1", "fear", "barbarian"), dice=[1, 2])
    event = event_for_seat(t.events[0], 2)
    assert event is not None and event["spell"] == "fear"
    assert "Grisk the Sorcerer casts the Dread spell Fear at the Barbarian" in event["text"]
    # still secret: the spell it holds and has not cast
    after = seat_view(t.state, 2)
    assert "dread_spells" not in after["monsters"][0]
    assert "Ball Of Flame" not in str(after["log"])


def test_each_dread_spell_is_cast_once_as_the_monsters_action():
    s = villain_with("ball_of_flame", "fear")
    s = act(s, ZARGON, MonsterCast("m1", "ball_of_flame", "barbarian"), dice=[6, 6]).state
    assert s.monsters["mon1"].dread_spells == ["fear"]
    actions = legal_actions(s, ZARGON)
    assert not [a for a in actions if isinstance(a, MonsterCast | MonsterAttack)]
    with pytest.raises(IllegalAction, match="already used its action"):
        act(s, ZARGON, MonsterCast("m1", "fear", "barbarian"))


def test_dread_ball_of_flame_does_two_body_less_each_red_five_or_six():
    s = villain_with("ball_of_flame")
    t = act(s, ZARGON, MonsterCast("m1", "ball_of_flame", "barbarian"), dice=[5, 2])
    assert t.state.heroes["barbarian"].body == 7


def test_dread_fear_leaves_the_hero_one_attack_die_until_its_next_turn_ends():
    s = villain_with("fear")
    s.monsters["mon1"].position = (2, 1)
    s = act(s, ZARGON, MonsterCast("m1", "fear", "barbarian"), dice=[1, 5]).state
    s = act(s, ZARGON, EndPhase()).state
    t = act(s, 2, Attack("barbarian", "m1"), dice=["skull", "black_shield", "white_shield"])
    assert [len(d["faces"]) for d in t.events[0]["dice"]] == [1, 2]  # one die, broadsword or not
    s = act(t.state, 2, EndTurn("barbarian")).state
    assert "fear" not in s.heroes["barbarian"].effects


def test_a_hero_rolling_a_six_resists_fear_sleep_and_command():
    for spell in ("fear", "sleep", "command"):
        s = villain_with(spell)
        t = act(s, ZARGON, MonsterCast("m1", spell, "barbarian"), dice=[6, 1])
        assert t.events[0]["resisted"] is True
        assert t.state.heroes["barbarian"].effects == [] and t.state.commands == {}


def test_dread_sleep_and_tempest_make_the_hero_lose_its_next_turn():
    for spell, dice in (("sleep", [1, 2]), ("tempest", [])):
        s = villain_with(spell, dwarf=(1, 2))
        s = act(s, ZARGON, MonsterCast("m1", spell, "barbarian"), dice=dice).state
        t = act(s, ZARGON, EndPhase())
        assert t.state.turn.hero == "dwarf"  # the Barbarian's turn is lost
        assert any(e["type"] == "turn_lost" for e in t.events)
        assert t.state.heroes["barbarian"].effects == []


def test_dread_command_lets_zargon_move_the_hero_up_to_four_squares():
    s = villain_with("command")
    s = act(s, ZARGON, MonsterCast("m1", "command", "barbarian"), dice=[1, 1]).state
    steps = [a for a in legal_actions(s, ZARGON) if isinstance(a, CommandMove)]
    assert CommandMove("barbarian", (2, 1)) in steps
    for x in (2, 3, 4, 5):
        s = act(s, ZARGON, CommandMove("barbarian", (x, 1))).state
    assert s.heroes["barbarian"].position == (5, 1)
    with pytest.raises(IllegalAction, match="not under Zargon's command"):
        act(s, ZARGON, CommandMove("barbarian", (5, 2)))


def test_dread_summon_undead_raises_four_revealed_undead_next_to_the_caster():
    s = villain_with("summon_undead")
    t = act(s, ZARGON, MonsterCast("m1", "summon_undead", "m1"))
    risen = [m for m in t.state.monsters.values() if m.key.startswith("summoned")]
    assert sorted(m.kind for m in risen) == ["skeleton", "skeleton", "zombie", "zombie"]
    beside = {(x, y) for x in (5, 6, 7) for y in (0, 1, 2)} - {(6, 1)}
    assert all(m.pub and m.position in beside for m in risen)
    assert len(seat_view(t.state, 2)["monsters"]) == 5


def test_dread_escape_takes_the_caster_to_its_escape_square():
    s = villain_with("escape", escape_to=(7, 2))
    t = act(s, ZARGON, MonsterCast("m1", "escape", "m1"))
    assert t.state.monsters["mon1"].position == (7, 2) and t.state.monsters["mon1"].pub == "m1"
    hidden = build_quest(
        ROOM + "bbbbbbbb\n",
        monsters=[("orc", (6, 1))],
        monster_extras={0: {"dread_spells": ("escape",), "escape_to": (7, 3)}},
        villain=0,
    )
    s = zargon_turn(place(start(hidden), barbarian=(1, 1), dwarf=None, elf=None, wizard=None))
    t = act(s, ZARGON, MonsterCast("m1", "escape", "m1"))
    # into a room the heroes have not seen: off their board until they find it again
    assert t.state.monsters["mon1"].pub is None
    assert seat_view(t.state, 2)["monsters"] == []
    assert "(7, 3)" not in " ".join(e["text"] for e in t.events)


def test_dread_lightning_bolt_strikes_every_figure_on_the_line_up_to_the_wall():
    s = villain_with("lightning_bolt", dwarf=(3, 1))
    s.heroes["barbarian"].position = (0, 1)
    assert {a.target for a in legal_actions(s, ZARGON) if isinstance(a, MonsterCast)} == {"W"}
    t = act(s, ZARGON, MonsterCast("m1", "lightning_bolt", "W"), dice=["white_shield", "skull"])
    assert t.state.heroes["dwarf"].body == 6 and t.state.heroes["barbarian"].body == 6


def test_a_quests_villain_keeps_its_own_stats():
    stats = MonsterStats("Grisk", 5, 4, 3, 6, 5)
    q = build_quest(ROOM, monsters=[("orc", (6, 1))], monster_extras={0: {"stats": stats}})
    s = start(q)
    assert (s.monsters["mon1"].body, s.monsters["mon1"].body_max) == (6, 6)


def test_the_monster_ai_casts_dread_spells():
    s = villain_with("ball_of_flame", "fear", dwarf=(1, 2))
    s.heroes["dwarf"].body = 2
    assert next_monster_action(s) == MonsterCast("m1", "ball_of_flame", "dwarf")
    s = act(s, ZARGON, MonsterCast("m1", "ball_of_flame", "dwarf"), dice=[6, 6]).state
    s = act(s, ZARGON, EndPhase()).state
    s = zargon_turn(set_turn(s, "barbarian"))
    assert next_monster_action(s) == MonsterCast("m1", "fear", "barbarian")


def test_every_dread_spell_of_the_rules_is_known():
    assert set(DREAD_SPELLS) == {
        "ball_of_flame",
        "fear",
        "sleep",
        "tempest",
        "command",
        "summon_undead",
        "escape",
        "lightning_bolt",
    }


def test_a_lightning_bolt_striking_a_monster_no_hero_has_seen_tells_the_heroes_nothing_of_it():
    """(An outside referee's audit, issue 22.) The bolt runs through an open door into a room
    the heroes have not revealed and strikes a goblin there: Zargon's log says so, the heroes'
    log holds only what their own board shows."""
    extras = {0: {"name": "Grisk the Sorcerer", "dread_spells": ("lightning_bolt",)}}
    q = build_quest(
        "aaaabbbb\naaaabbbb\n",
        doors=[((3, 1), (4, 1))],
        monsters=[("orc", (0, 1)), ("goblin", (6, 1))],
        monster_extras=extras,
        villain=0,
    )
    s = start(q)
    place(s, barbarian=(2, 1), dwarf=None, elf=None, wizard=None)
    for door in s.doors.values():
        door.open = True  # opened from the far side: the room beyond is not revealed yet
    s = zargon_turn(s)
    view = seat_view(s, 2)
    assert [m["id"] for m in view["monsters"]] == ["m1"]

    t = act(s, ZARGON, MonsterCast("m1", "lightning_bolt", "E"), dice=["skull", "skull"])

    zargons = [e["text"] for e in t.events]  # Zargon reads every event in full
    assert "The bolt strikes the goblin: rolls a skull; 1 Body lost and it is defeated." in zargons
    for seat in (2, SPECTATOR_SEAT):
        seen = [e for e in (event_for_seat(e, seat) for e in t.events) if e is not None]
        assert not [e for e in seen if "goblin" in e["text"]]
        for entry in seen:
            assert_event_within_view(t.state, seat, entry, seat_view(t.state, seat))
