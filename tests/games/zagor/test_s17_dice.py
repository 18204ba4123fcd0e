"""docs/zagor/rules.md section 17: every number from the seeded splitmix64 stream."""

from apps.games.dicestream import below, seed_rng
from apps.games.heroquest.engine.dice import Dice as HeroQuestDice
from apps.games.zagor.dice import PURPOSES
from apps.games.zagor.engine import apply
from apps.games.zagor.playout import playout


def test_the_stream_is_heroquests_generator_and_rejection_sampling():
    hq = HeroQuestDice(seed_rng(12345))
    state = seed_rng(12345)
    for n in (10, 6, 26, 3, 1000, 7):
        state, value = below(state, n)
        assert value == hq.below(n)


def d10s_shown(events):
    return [v for e in events for d in e.get("dice", []) if d["kind"] == "d10" for v in d["values"]]


def test_every_d10_draw_is_shown_once_in_order_and_the_stream_replays_them():
    seen = []

    def record(state, seat, action):
        seen.append((state, seat, action))

    playout("crypt_of_zagor", 2, 11, on_step=record, max_actions=400)
    for before, seat, action in seen:
        step = apply(before, seat, action)
        rolled = [r + 1 for p, n, r in step.draws if p == "d10"]
        assert d10s_shown(step.events) == rolled
        rng = before.rng
        for purpose, n, result in step.draws:
            assert purpose in PURPOSES
            rng, value = below(rng, n)
            assert value == result
        assert rng == step.state.rng
