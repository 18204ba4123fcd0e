"""docs/rules.md 14: a game keeps the revision of the rules it was launched with."""

import pytest

from apps.games.heroquest import GAME
from apps.games.heroquest.engine import Attack, legal_actions
from apps.games.heroquest.engine.options import RULES_REVISION, check_game_options

from .test_s5_combat import duel


def test_a_game_launched_now_pins_the_current_revision() -> None:
    quest = GAME.scenario_parse("ashen_vault", "")
    start = GAME.new_game(quest, 2, 1, {"edition": "uk"}, commitment=None)

    assert start.options == {"rules_revision": RULES_REVISION, "edition": "uk"}
    assert start.state.options["rules_revision"] == RULES_REVISION


def test_a_pinned_revision_is_kept_when_the_game_is_started_again() -> None:
    quest = GAME.scenario_parse("ashen_vault", "")
    start = GAME.new_game(quest, 2, 1, {"rules_revision": 1}, commitment=None)

    assert start.options == {"rules_revision": 1}


@pytest.mark.parametrize("revision", [0, RULES_REVISION + 1, "2", True])
def test_an_unknown_revision_is_refused(revision: object) -> None:
    with pytest.raises(ValueError, match="rules_revision"):
        check_game_options({"rules_revision": revision})


def test_a_uk_game_of_revision_1_still_shoots_the_crossbow_at_range() -> None:
    s = duel("orc", monster_at=(5, 1), heroes={"barbarian": {"items": ["crossbow"]}}, edition="uk")
    assert Attack("barbarian", "m1") not in legal_actions(s, 2)  # today's rules: no distance

    s.options["rules_revision"] = 1  # a game launched before revision 2

    assert Attack("barbarian", "m1") in legal_actions(s, 2)
