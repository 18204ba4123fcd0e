"""What each seat sees (docs/zagor/rules.md 6.1, 9, 11): hidden stays hidden."""

import json

from apps.games.zagor import GAME
from apps.games.zagor.data import SPELLS
from apps.games.zagor.playout import playout

from .builders import a, act, game, turn_to
from .leakcheck import twin


def test_a_face_down_tile_shows_nothing_but_that_a_tile_lies_there():
    s = game(heroes=2)
    view = GAME.seat_view(s, 1)
    assert view["spaces"]["a1"] == {"tile": {"face": None}}
    s.tiles["a1"].revealed = True
    assert GAME.seat_view(s, 2)["spaces"]["a1"] == {"tile": {"face": s.tiles["a1"].face}}


def test_a_seat_sees_its_own_spell_names_and_the_others_a_count():
    s = game(heroes=2)
    mine = GAME.seat_view(s, 1)
    assert [sp["name"] for sp in mine["me"]["spells"]] == s.heroes["barbarian"].spells
    dwarf = next(h for h in mine["heroes"] if h["hero"] == "dwarf")
    assert dwarf["spells"] == 1
    assert s.heroes["dwarf"].spells[0] not in json.dumps(mine["heroes"])


def test_a_spectator_sees_the_common_part_only():
    s = game(heroes=2)
    view = GAME.seat_view(s, 0)
    assert view["me"] is None and view["legal_actions"] == []
    assert view["heroes"] == GAME.seat_view(s, 1)["heroes"]


def test_chest_contents_are_seen_by_their_holder_alone():
    s = game(heroes=2)
    s.heroes["dwarf"].chests = [3]
    assert GAME.seat_view(s, 2)["me"]["chests"] == [{"number": 3, "content": "a Golden Talisman"}]
    assert next(h for h in GAME.seat_view(s, 1)["heroes"] if h["hero"] == "dwarf")["chests"] == 1


def test_a_private_event_reaches_its_seat_and_a_redacted_form_the_others():
    s = turn_to(game(heroes=2), "barbarian")
    s.heroes["barbarian"].spells = []
    s.deck.append("Fireball")
    r = act(s, a("end_turn"), {"voice": [1]})
    drawn = next(e for e in r.events if e["type"] == "spell_drawn")
    assert "Fireball" in GAME.event_for_seat(drawn, 1)["text"]
    assert "Fireball" not in json.dumps(GAME.event_for_seat(drawn, 2))
    assert "Fireball" not in json.dumps(GAME.event_for_seat(drawn, 0))


def test_views_of_twin_games_differing_only_in_hidden_things_are_equal():
    positions = []
    playout(
        "crypt_of_zagor", 3, 5, on_step=lambda st, seat, act_: positions.append(st), max_actions=300
    )
    playout(
        "enchanted_orb", 2, 5, on_step=lambda st, seat, act_: positions.append(st), max_actions=200
    )
    for st in positions[::17]:
        for seat in range(0, len(st.heroes) + 1):
            other = twin(st, seat)
            assert other != st  # the twin really hides something else
            assert GAME.seat_view(st, seat) == GAME.seat_view(other, seat)


def test_redacted_events_name_no_spell_or_chest_content():
    events = []

    def keep(st, seat, action):
        events.extend(GAME.apply(st, seat, action).events)

    playout("crypt_of_zagor", 3, 9, on_step=keep, max_actions=300)
    private = [e for e in events if e["audience"] != "all"]
    assert private
    for e in private:
        red = e["redacted"]
        assert red is not None and set(red) <= {"type", "text"}
        assert not any(name in red["text"] for name in SPELLS if name != "Torch")
        assert "Talisman" not in red["text"] and "Dagger" not in red["text"]
