"""docs/zagor/rules.md section 4: turns, rounds, the end of a turn and the round limit."""

from apps.games.zagor.engine import new_game
from apps.games.zagor.scenarios import shipped

from .builders import NO_COMMAND, a, act, game, turn_to


def test_turns_go_round_in_seat_order_from_the_first_player():
    s = game(heroes=3)
    s.first = "dwarf"
    turn_to(s, "dwarf")
    order = []
    for _ in range(4):
        hero = s.turn.hero
        s = act(s, a("end_turn", hero), NO_COMMAND).state
        order.append(s.turn.hero)
    assert order == ["warrior", "barbarian", "dwarf", "warrior"]
    assert s.round == 2


def test_a_hero_who_did_not_fight_rests_one_stamina():
    s = turn_to(game(), "barbarian")
    s.heroes["barbarian"].stamina = 5
    s = act(s, a("end_turn"), NO_COMMAND).state
    assert s.heroes["barbarian"].stamina == 6


def test_a_hero_who_fought_does_not_rest():
    s = turn_to(game(), "barbarian")
    s.heroes["barbarian"].stamina = 5
    s.turn.fought = True
    s = act(s, a("end_turn"), NO_COMMAND).state
    assert s.heroes["barbarian"].stamina == 5


def test_a_hero_may_swap_a_spell_card_at_the_end_of_his_turn():
    s = turn_to(game(), "barbarian")
    s.heroes["barbarian"].spells = ["Arrow"]
    s.deck.append("Life")
    r = act(s, a("end_turn", swap="Arrow"), NO_COMMAND)
    assert r.state.heroes["barbarian"].spells == ["Life"]
    assert "Arrow" in r.state.discards


def test_a_cast_card_is_replaced_at_the_end_of_the_turn():
    s = turn_to(game(), "barbarian")
    s.heroes["barbarian"].spells = []
    s.deck.append("Jump")
    s = act(s, a("end_turn"), NO_COMMAND).state
    assert s.heroes["barbarian"].spells == ["Jump"]


def test_an_empty_deck_is_made_again_from_the_discards():
    s = turn_to(game(), "barbarian")
    s.heroes["barbarian"].spells = []
    s.deck, s.discards = [], ["Life", "Jump"]
    r = act(s, a("end_turn"), NO_COMMAND)
    assert len(r.state.heroes["barbarian"].spells) == 1 and len(r.state.deck) == 1
    assert any(e["type"] == "deck" for e in r.events)


def test_a_hero_who_must_miss_a_turn_is_passed_over():
    s = game(heroes=2)
    s.first = "barbarian"
    turn_to(s, "barbarian")
    s.heroes["dwarf"].miss_turns = 1
    r = act(s, a("end_turn"), NO_COMMAND)
    assert r.state.turn.hero == "barbarian" and r.state.round == 2
    assert "Stubble the Dwarf misses this turn." in [e["text"][7:] for e in r.events]


def test_the_round_limit_ends_the_game_with_zagor_keeping_his_crypt():
    s = new_game(shipped("enchanted_orb"), 1, 3, {"round_limit": 5}, commitment=None).state
    assert s.round_limit == 5
    for _ in range(5):
        s = act(s, a("end_turn"), {"voice": [1, 1, 1, 1]}).state
    assert s.outcome == "zagor" and s.round == 5


def test_the_tales_own_round_limit_applies_without_an_option():
    assert game("enchanted_orb").round_limit == 30
    assert game("howling_spectre").round_limit == 40
    assert game("crypt_of_zagor").round_limit == 60
