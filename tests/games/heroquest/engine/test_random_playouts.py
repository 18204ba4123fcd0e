"""Random playouts over every rules section: no exceptions, invariants hold, every listed action
is accepted, replay reproduces the state."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.games.heroquest.engine import State, apply, legal_actions, load_quest, replay
from apps.games.heroquest.engine.playout import random_playout
from apps.games.heroquest.engine.quest import SpecialTreasure

from .builders import build_quest

RICH = build_quest(
    """
    aaaaPPPPbbbbb
    aaaa.PP.bbbbb
    aaaaQQQQbbbbb
    cccc.QQ.ddddd
    ccccRRRRddddd
    """,
    doors=[
        ((3, 0), (4, 0)),
        ((7, 0), (8, 0)),
        ((3, 2), (4, 2)),
        ((7, 4), (8, 4)),
        ((2, 2), (2, 3)),
    ],
    secret_doors=[((3, 4), (4, 4)), ((10, 2), (10, 3))],
    monsters=[
        ("orc", (10, 1)),
        ("goblin", (9, 2)),
        ("skeleton", (1, 4)),
        ("mummy", (11, 4)),
        ("dread_warden", (12, 3)),
        ("zombie", (5, 1)),
    ],
    traps=[
        ("pit", (5, 0)),
        ("spear", (6, 2)),
        ("falling_block", (5, 4)),
        ("chest", "fur1"),
        ("pit", (9, 0)),
    ],
    furniture=[("chest", [(0, 3)]), ("table", [(10, 4), (11, 3)])],
    blocked=[(6, 1)],
    villain=4,
    special={"d": SpecialTreasure("d", "the Ember Crown", "It glows.", gold=50)},
    stairway=[(0, 0)],
)


def check_invariants(before: State, after: State) -> None:
    squares = [h.position for h in after.heroes.values() if h.playing]
    squares += [m.position for m in after.monsters.values() if m.alive]
    assert None not in squares
    assert len(squares) == len(set(squares)), "two living figures share a square"
    for h in after.heroes.values():
        assert 0 <= h.body <= h.body_max
        assert (h.status == "playing") == (h.position is not None)
        assert h.status != "playing" or h.body > 0
    for m in after.monsters.values():
        assert (0 < m.body <= m.body_max) if m.alive else m.body == 0
    assert set(before.areas.items()) <= set(after.areas.items()), "revealed never shrinks"
    for key, m in before.monsters.items():
        assert m.pub is None or after.monsters[key].pub == m.pub
    blocked_hero = after.heroes.get(after.turn.hero or "")
    under_block = blocked_hero.position if blocked_hero and after.turn.block_from else None
    for sq in after.fallen_blocks:  # only a hero still choosing ahead or back stands on one
        assert sq not in squares or sq == under_block


def playout_with_checks(quest, seats, seed, max_actions, try_every_action=False, check_replay=True):
    def on_step(before, seat, action, transition):
        check_invariants(before, transition.state)
        if try_every_action:
            for other in legal_actions(before, seat):
                apply(before, seat, other)  # every listed action is accepted

    state, log = random_playout(
        quest,
        seats,
        seed,
        max_actions=max_actions,
        on_step=on_step,
        chooser=random.Random(seed * 7 + 1),
    )
    if check_replay:
        assert replay(quest, seats, seed, None, log) == state
    return state


def test_two_hundred_short_random_playouts_run_cleanly():
    """The loop checks invariants, legality and replays; each game must also get past the first
    rounds (a playout stuck in round 1 would check almost nothing)."""
    for seed in range(200):
        state = playout_with_checks(RICH, 2 + seed % 4, seed, 100, check_replay=seed % 5 == 0)
        assert state.round >= 3 or state.outcome is not None, (seed, state.round)


# A small quest that random play finishes in about 140 actions: two rooms, a door, a pit, a
# goblin and the villain, a dread warrior.
SMALL = build_quest(
    """
    aaabbb
    aaabbb
    aaabbb
    """,
    doors=[((2, 1), (3, 1))],
    monsters=[("goblin", (4, 0)), ("dread_warrior", (5, 2))],
    traps=[("pit", (4, 2))],
    villain=1,
    stairway=[(0, 0), (0, 1), (0, 2)],
)


def test_a_thousand_random_quests_run_to_an_end():
    """1000 complete quests (about 140 actions each, every seat count) end with a winner, with
    the invariants checked after every action and every 100th quest replayed."""
    outcomes: dict[str | None, int] = {}
    for seed in range(1000):
        state = playout_with_checks(SMALL, 2 + seed % 4, seed, 1000, check_replay=seed % 100 == 0)
        outcomes[state.outcome] = outcomes.get(state.outcome, 0) + 1
    assert outcomes.get(None, 0) == 0, outcomes  # at the time of writing: 999 heroes, 1 zargon


def test_every_listed_legal_action_is_accepted_by_apply():
    for seed in range(12):
        playout_with_checks(RICH, 2 + seed % 4, 1000 + seed, 120, try_every_action=True)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=-(2**70), max_value=2**70), seats=st.integers(2, 5))
def test_hypothesis_random_playouts_keep_the_invariants(seed, seats):
    playout_with_checks(RICH, seats, seed, 200)


def test_ashen_vault_random_playouts_run_cleanly():
    quest = load_quest("ashen_vault")
    for seed in range(4):
        playout_with_checks(quest, 2 + seed % 4, seed, 600)


@pytest.mark.slow
def test_many_full_ashen_vault_quests_end_or_hit_the_cap():
    quest = load_quest("ashen_vault")
    outcomes = [playout_with_checks(quest, 2 + seed % 4, seed, 4000).outcome for seed in range(60)]
    assert {"heroes", "zargon"} & set(outcomes)


@pytest.mark.slow
def test_every_listed_action_is_accepted_on_the_ashen_vault():
    quest = load_quest("ashen_vault")
    for seed in range(6):
        playout_with_checks(quest, 2 + seed % 4, 500 + seed, 800, try_every_action=True)
