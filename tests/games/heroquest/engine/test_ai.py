"""The built-in monster AI (engine/ai.py): it plays Zargon's phase when Zargon times out."""

import random

import pytest

from apps.games.heroquest.engine import (
    EndActivation,
    EndPhase,
    MonsterAttack,
    MonsterMove,
    apply,
    legal_actions,
    load_quest,
    new_game,
    seats_to_move,
)
from apps.games.heroquest.engine.ai import monster_phase_actions, next_monster_action
from apps.games.heroquest.engine.playout import pick

from .builders import (
    OPEN_ROOM,
    ZARGON,
    build_quest,
    monster,
    monster_phase,
    place,
    start,
    zargon_turn,
)

# Two rooms side by side with solid rock between them (x=12) and no door.
WALLED_ROOMS = """
aaaaaaaaaaaa.bbb
aaaaaaaaaaaa.bbb
"""


def test_it_is_only_zargons_phase_that_the_ai_plays():
    s = start(build_quest(OPEN_ROOM, monsters=[("orc", (5, 0))]))
    assert s.phase == "heroes"
    assert next_monster_action(s) is None


def test_an_adjacent_hero_is_attacked_the_weakest_first():
    s = monster_phase([("orc", (1, 1))], barbarian=(1, 0), dwarf=(0, 1))
    s.heroes["dwarf"].body = 3
    assert next_monster_action(s) == MonsterAttack("m1", "dwarf")


@pytest.mark.parametrize("wounded", ["barbarian", "dwarf"])
def test_a_wounded_hero_is_attacked_before_a_fresh_one(wounded: str) -> None:
    s = monster_phase([("orc", (1, 1))], barbarian=(1, 0), dwarf=(0, 1))
    s.heroes[wounded].body = 2
    assert next_monster_action(s) == MonsterAttack("m1", wounded)


@pytest.mark.parametrize("in_pit", ["barbarian", "dwarf"])
def test_a_hero_in_a_pit_is_attacked_before_one_on_firm_ground(in_pit: str) -> None:
    # The pit is at (0, 1); whoever stands in it defends with one die fewer. Same Body for both.
    s = start(build_quest(OPEN_ROOM, monsters=[("orc", (1, 1))], traps=[("pit", (0, 1))]))
    s.traps["trap1"].state = "sprung"
    other = "dwarf" if in_pit == "barbarian" else "barbarian"
    place(s, **{in_pit: (0, 1), other: (1, 0), "elf": None, "wizard": None})
    s.heroes["barbarian"].body = s.heroes["dwarf"].body = 7
    s = zargon_turn(s)
    assert next_monster_action(s) == MonsterAttack("m1", in_pit)


def test_a_monster_goes_for_the_wounded_hero_within_reach_rather_than_the_nearest() -> None:
    # The Barbarian is two steps from the orc, the badly hurt Wizard five (an orc moves 8).
    s = monster_phase([("orc", (5, 0))], barbarian=(2, 0), wizard=(9, 1))
    s.heroes["wizard"].body = 1
    actions = monster_phase_actions(s)
    moves = [a for a in actions if isinstance(a, MonsterMove)]
    assert moves and all(a.to[0] >= 5 for a in moves)  # never a step toward the Barbarian
    assert MonsterAttack("m1", "wizard") in actions
    assert MonsterAttack("m1", "barbarian") not in actions


def test_monsters_that_can_strike_now_act_before_those_that_only_close_in() -> None:
    s = monster_phase([("goblin", (11, 1)), ("orc", (1, 1))], barbarian=(0, 1))
    assert next_monster_action(s) == MonsterAttack("m2", "barbarian")


def test_a_monster_walks_toward_the_hero_it_can_reach_not_the_one_behind_a_wall() -> None:
    # The Elf is two squares east of the orc but behind solid rock; the Barbarian is far west.
    quest = build_quest(WALLED_ROOMS, monsters=[("orc", (11, 0))])
    s = zargon_turn(place(start(quest), barbarian=(0, 1), dwarf=None, elf=(13, 0), wizard=None))
    actions = monster_phase_actions(s)
    moves = [a for a in actions if isinstance(a, MonsterMove)]
    assert len(moves) == 8  # its whole Move, every step westward
    assert [a.to[0] for a in moves] == sorted((a.to[0] for a in moves), reverse=True)
    assert moves[-1].to[0] < 11 - 7
    assert actions[-1] == EndPhase()


def test_a_monster_with_no_hero_it_can_reach_does_not_wander() -> None:
    quest = build_quest(WALLED_ROOMS, monsters=[("orc", (11, 0))])
    s = zargon_turn(place(start(quest), barbarian=None, dwarf=None, elf=(13, 0), wizard=None))
    assert monster_phase_actions(s) == [EndPhase()]


def test_a_monster_walks_to_the_hero_it_sees_then_attacks_and_ends():
    s = monster_phase([("orc", (6, 0))], barbarian=(0, 0))  # orc: Move 8
    actions = monster_phase_actions(s)
    moves = [a for a in actions if isinstance(a, MonsterMove)]
    assert [a.to[0] for a in moves] == [5, 4, 3, 2, 1]  # straight at the Barbarian
    assert actions[len(moves)] == MonsterAttack("m1", "barbarian")
    assert actions[-2:] == [EndActivation("m1"), EndPhase()]


def test_each_monster_acts_in_turn_and_the_phase_ends():
    s = monster_phase([("orc", (3, 0)), ("goblin", (0, 1))], barbarian=(0, 0))
    actions = monster_phase_actions(s)
    assert actions[0] == MonsterMove("m1", (2, 0))
    assert MonsterAttack("m1", "barbarian") in actions
    assert MonsterAttack("m2", "barbarian") in actions
    assert actions[-1] == EndPhase()
    assert actions.count(EndPhase()) == 1


def test_with_no_hero_in_sight_the_monsters_stay_and_the_phase_ends():
    s = monster_phase([("orc", (6, 0))], barbarian=None)
    assert next_monster_action(s) == EndPhase()


def test_the_ai_is_deterministic():
    s = monster_phase([("orc", (6, 1)), ("goblin", (9, 0))], barbarian=(0, 0), elf=(0, 1))
    assert monster_phase_actions(s) == monster_phase_actions(s)
    assert monster(s, "m1").position == (6, 1)  # the input state is untouched


def test_the_ai_never_passes_through_figures():
    # A goblin blocks the corridor square next to the Barbarian: the orc goes round it.
    s = monster_phase([("goblin", (1, 0)), ("orc", (4, 0))], barbarian=(0, 0))
    state = s
    for action in monster_phase_actions(s):
        assert action in legal_actions(state, ZARGON)
        state = apply(state, ZARGON, action).state
    assert state.phase == "heroes"


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("seats", [2, 5])
def test_random_ashen_vault_playouts_the_ai_only_ever_picks_legal_actions(
    seats: int, seed: int
) -> None:
    quest = load_quest("ashen_vault")
    rnd = random.Random(seed)
    state = new_game(quest, seats, seed)
    ai_actions = phases = 0
    for _ in range(3000):
        to_move = seats_to_move(state)
        if not to_move:
            break
        seat = to_move[0]
        legal = legal_actions(state, seat)
        if seat == ZARGON:
            action = next_monster_action(state)
            assert action is not None
            assert action in legal, f"the AI chose {action}, not among {legal}"
            ai_actions += 1
            phases += isinstance(action, EndPhase)
        else:
            action = pick(state, legal, rnd)
        state = apply(state, seat, action).state
    assert phases > 0 and ai_actions > phases
