"""The face (apps/games/port.py) and docs/zagor/rules.md section 16: refusals, settings,
timeouts, seats, options, scenarios, persistence."""

import json

import pytest

from apps.games.port import GameFace, Refusal, RefusalKind, Setting
from apps.games.zagor import GAME

from .builders import a, act, fight, game, turn_to


def started(heroes=2, slug="crypt_of_zagor", seed=3):
    scenario = next(sc for sc in GAME.scenarios() if sc.slug == slug)
    tale = GAME.scenario_parse(slug, scenario.source)
    return GAME.new_game(tale, heroes, seed, GAME.option_defaults(), commitment=None).state


def test_the_face_satisfies_the_port():
    assert isinstance(GAME, GameFace)
    assert (GAME.slug, GAME.min_seats, GAME.max_seats, GAME.ai_seat) == ("zagor", 1, 4, None)
    assert GAME.first_seat(ai=False) == 1 and GAME.first_seat(ai=True) == 1
    assert GAME.has_campaigns is False and GAME.scenario_words == ("tale", "tales")


def test_every_seat_is_a_hero():
    roles = GAME.seat_roles(4)
    assert [r.role for r in roles] == ["hero"] * 4
    assert roles[0].label == "Anvar the Barbarian"


def test_three_tales_are_shipped_and_parse_cleanly():
    slugs = [sc.slug for sc in GAME.scenarios()]
    assert slugs == ["enchanted_orb", "howling_spectre", "crypt_of_zagor"]
    for sc in GAME.scenarios():
        assert GAME.scenario_problems(sc.source, "tale.json") == []


def test_scenario_problems_name_what_is_wrong():
    assert (
        GAME.scenario_problems("{", "tale.json")
        and "JSON" in GAME.scenario_problems("{", "tale.json")[0]
    )
    bad = json.dumps(
        {
            "slug": "x",
            "name": "x",
            "summary": "x",
            "story": "x",
            "goal": "x",
            "chests": "orb",
            "levels": [1, 2],
            "gold": -1,
            "round_limit": 1,
        }
    )
    problems = " ".join(GAME.scenario_problems(bad, "tale.json"))
    assert "levels" in problems and "gold" in problems and "round_limit" in problems


def test_options_accept_a_round_limit_or_the_tales_own():
    assert GAME.option_problems({"round_limit": None}) == []
    assert GAME.option_problems({"round_limit": 25}) == []
    assert GAME.option_problems({"round_limit": 2})
    assert GAME.option_problems({"colour": "red"})
    assert GAME.option_lines({"round_limit": 25})[0].startswith("The game ends after 25 rounds")


def test_unparseable_actions_are_malformed():
    s = started()
    for bad in (
        "move",
        {"type": "fly", "hero": "barbarian"},
        {"type": "move"},
        {"type": "move", "hero": "barbarian"},
        {"type": "move", "hero": "barbarian", "to": 5},
    ):
        with pytest.raises(Refusal) as err:
            GAME.apply(s, 1, bad)
        assert err.value.kind == RefusalKind.MALFORMED


def test_another_seats_hero_is_not_yours():
    s = started()
    with pytest.raises(Refusal) as err:
        GAME.apply(s, 1, a("end_turn", "dwarf"))
    assert err.value.kind == RefusalKind.NOT_YOURS


def test_out_of_turn_is_not_now_and_so_is_a_finished_game():
    s = turn_to(game(heroes=2), "barbarian")
    with pytest.raises(Refusal) as err:
        GAME.apply(s, 2, a("end_turn", "dwarf"))
    assert err.value.kind == RefusalKind.NOT_NOW and "Anvar" in err.value.reason
    s.outcome = "zagor"
    with pytest.raises(Refusal) as err:
        GAME.apply(s, 1, a("end_turn"))
    assert err.value.kind == RefusalKind.NOT_NOW
    assert GAME.seats_to_move(s) == [] and GAME.legal_actions(s, 1) == []


def test_a_rule_violation_is_illegal():
    s = turn_to(game(), "barbarian")
    with pytest.raises(Refusal) as err:
        GAME.apply(s, 1, a("move", to="a26"))
    assert err.value.kind == RefusalKind.ILLEGAL


def test_the_surrender_setting_is_private_and_applied_by_with_settings():
    s = started()
    setting = GAME.setting_of(s, 2, {"type": "set_surrender", "hero": "dwarf", "at": 3})
    assert setting == Setting("dwarf", "surrender_at", 3)
    assert GAME.setting_of(s, 2, a("end_turn", "dwarf")) is None
    with pytest.raises(Refusal) as err:
        GAME.setting_of(s, 1, {"type": "set_surrender", "hero": "dwarf", "at": 3})
    assert err.value.kind == RefusalKind.NOT_YOURS
    with pytest.raises(Refusal):
        GAME.setting_of(s, 2, {"type": "set_surrender", "hero": "dwarf", "at": 99})
    t = GAME.with_settings(s, {"dwarf": {"surrender_at": 3}})
    assert t.heroes["dwarf"].surrender_at == 3 and s.heroes["dwarf"].surrender_at == 0
    assert GAME.seat_view(t, 2)["me"]["surrender_at"] == 3
    assert "surrender_at" not in json.dumps(GAME.seat_view(t, 1)["heroes"])


def test_settings_that_change_nothing_leave_the_very_same_state():
    s = started()

    assert GAME.with_settings(s, {}) is s
    assert GAME.with_settings(s, {"dwarf": {"surrender_at": 0}}) is s
    assert GAME.with_settings(s, {"nobody": {"surrender_at": 3}}) is s


def test_a_setting_changes_only_its_heros_copy_and_shares_the_rest():
    s = started(4)

    t = GAME.with_settings(s, {"dwarf": {"surrender_at": 2}})

    assert t.heroes["dwarf"].surrender_at == 2 and s.heroes["dwarf"].surrender_at == 0
    assert t.heroes["barbarian"] is s.heroes["barbarian"]
    assert t.tiles is s.tiles
    assert GAME.state_to_json(s) == GAME.state_to_json(started(4))


@pytest.mark.parametrize(
    ("setup", "expected"),
    [
        (lambda s: fight(s), "retreat"),
        (lambda s: None, "end_turn"),
    ],
)
def test_a_timed_out_turn_takes_the_published_default(setup, expected):
    s = turn_to(game(), "barbarian")
    setup(s)
    action = GAME.timeout_action(s, 1)
    assert action["type"] == expected
    GAME.apply(s, 1, action)
    assert GAME.timeout_rule()


def test_the_timed_out_attacker_surrenders_his_duel():
    s = turn_to(game(heroes=2), "barbarian")
    s.heroes["barbarian"].space, s.heroes["dwarf"].space = "a10", "a11"
    s.tiles.pop("a10", None)
    s = act(s, a("attack_hero", target="dwarf"), {"d10": [1, 1]}).state
    assert GAME.timeout_action(s, 1)["type"] == "surrender"
    assert GAME.timeout_action(s, 2) is None


def test_the_ai_plays_a_legal_action():
    s = started()
    seat = GAME.seats_to_move(s)[0]
    assert GAME.ai_action(s, seat) in GAME.legal_actions(s, seat)


def test_state_round_trips_through_json():
    s = started(4)
    data = json.loads(json.dumps(GAME.state_to_json(s)))
    back = GAME.state_from_json(data, None)
    assert back == s
    assert data == json.loads(json.dumps(GAME.state_to_json(s)))  # its JSON left as it was


def test_a_copied_state_shares_nothing_with_its_original():
    s = started(4)
    copied = s.copy()
    hero = copied.heroes[copied.order[0]]
    hero.items.append("Magic Sword")
    hero.known["a1"] = "dragon"
    copied.tiles[next(iter(copied.tiles))].revealed = True
    copied.turn.moves.append(3)
    copied.deck.pop()

    assert copied != s
    assert GAME.state_to_json(s) == GAME.state_to_json(started(4))
    assert type(copied.turn) is type(s.turn) and copied.turn is not s.turn


def test_outcome_words_and_texts():
    assert GAME.outcome_text("hero:dwarf") == "Stubble the Dwarf won."
    assert "round limit" in GAME.outcome_text("zagor")
