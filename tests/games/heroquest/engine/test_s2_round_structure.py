"""docs/rules.md section 2: round structure and turn passing."""

from apps.games.heroquest.engine import EndPhase, EndTurn, seats_to_move

from .builders import ZARGON, act, build_quest, start

MAP = """
aaaa.bbb
aaaa.bbb
"""


def quest_with_monster():
    # the orc stands in the entrance room, so it is revealed and Zargon has a phase to play
    return build_quest("aaaaaa\naaaaaa", monsters=[("orc", (5, 1))])


def test_the_barbarian_takes_the_first_turn():
    s = start(build_quest(MAP))
    assert s.turn.hero == "barbarian" and s.phase == "heroes" and s.round == 1


def test_heroes_take_turns_in_order_then_zargon_then_a_new_round():
    s = start(quest_with_monster(), seats=5)
    order = []
    for _ in range(4):
        hero = s.turn.hero
        assert hero is not None
        order.append((hero, seats_to_move(s)))
        s = act(s, seats_to_move(s)[0], EndTurn(hero)).state
    assert order == [("barbarian", [2]), ("dwarf", [3]), ("elf", [4]), ("wizard", [5])]
    assert s.phase == "monsters" and seats_to_move(s) == [ZARGON]
    s = act(s, ZARGON, EndPhase()).state
    assert (s.round, s.turn.hero, s.phase) == (2, "barbarian", "heroes")


def test_fallen_and_escaped_heroes_are_skipped():
    s = start(quest_with_monster())
    s.heroes["dwarf"].status = "fallen"
    s.heroes["dwarf"].position = None
    s.heroes["elf"].status = "escaped"
    s.heroes["elf"].position = None
    s = act(s, 2, EndTurn("barbarian")).state
    assert s.turn.hero == "wizard"


def test_a_new_round_starts_with_the_first_living_unescaped_hero():
    s = start(quest_with_monster())
    s.heroes["barbarian"].status = "fallen"
    s.heroes["barbarian"].position = None
    s.phase, s.turn.hero = "monsters", None
    s = act(s, ZARGON, EndPhase()).state
    assert s.turn.hero == "dwarf"


def test_zargon_phase_passes_by_itself_when_no_revealed_monster_can_act():
    s = start(build_quest(MAP, monsters=[("orc", (6, 0))]))  # the orc's room is hidden
    for hero in ("barbarian", "dwarf", "elf", "wizard"):
        s = act(s, 2, EndTurn(hero)).state
    assert (s.round, s.turn.hero) == (2, "barbarian")


def test_seats_to_move_is_empty_when_the_quest_is_over():
    s = start(build_quest(MAP))
    s.outcome, s.phase = "zargon", "over"
    assert seats_to_move(s) == []
