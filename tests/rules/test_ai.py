"""The built-in monster AI (apps/rules/ai.py): it plays Zargon's phase when Zargon times out."""

import random

import pytest

from apps.rules import (
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
from apps.rules.ai import monster_phase_actions, next_monster_action
from apps.rules.playout import pick

from .builders import (
    OPEN_ROOM,
    ZARGON,
    build_quest,
    monster,
    monster_phase,
    start,
)


def test_it_is_only_zargons_phase_that_the_ai_plays():
    s = start(build_quest(OPEN_ROOM, monsters=[("orc", (5, 0))]))
    assert s.phase == "heroes"
    assert next_monster_action(s) is None


def test_an_adjacent_hero_is_attacked_the_weakest_first():
    s = monster_phase([("orc", (1, 1))], barbarian=(1, 0), dwarf=(0, 1))
    s.heroes["dwarf"].body = 3
    assert next_monster_action(s) == MonsterAttack("m1", "dwarf")


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
