"""JSONTextField (apps/core/fields.py) keeps a JSON value as text and reads back every value
Django's JSONField reads, decoding a row's text only when the value is first read."""

import json
import random
from typing import Any

import pytest
from django.db import connection, models

from apps.core.fields import JSONText, JSONTextField, stored_json_text
from apps.games.registry import game_face, game_faces
from apps.play.models import Game
from apps.play.services import game_launch
from tests.play import conftest as play
from tests.play.conftest import GameMaker, RoomMaker

quest, make_room, make_game = play.quest, play.make_room, play.make_game  # the play fixtures

NO_EXPRESSION: Any = None  # a whole column read, not a key of it


def read_back(text: str | None) -> Any:
    """The value a model's attribute gives for a row holding `text`."""
    return Game(state=JSONTextField().from_db_value(text, NO_EXPRESSION, connection)).state


VALUES: list[Any] = [
    {"seat": 1, "name": "Zargon's ünïcode", "nested": [{"1": [1.5, None, True]}]},
    [1, "two", 3.0],
    "a string",
    7,
    None,
    {"u64": 2**64 - 1, "i64": -(2**63)},
    {"lone": "\ud800"},  # a lone surrogate orjson refuses: json reads it
    float("nan"),  # orjson refuses NaN: json reads it
]


@pytest.mark.parametrize("value", VALUES)
def test_a_value_reads_back_as_djangos_json_field_reads_it(value: Any) -> None:
    text = json.dumps(value)
    fast = read_back(text)
    django = models.JSONField().from_db_value(text, NO_EXPRESSION, connection)

    assert json.dumps(fast) == json.dumps(django) and type(fast) is type(django)


def test_text_that_is_not_json_comes_back_as_it_is_as_in_django() -> None:
    assert read_back("{not json") == "{not json"
    assert read_back(None) is None


def test_a_value_is_written_as_compact_json_text_a_string_included() -> None:
    field = JSONTextField()

    assert field.get_prep_value({"b": [1, "ü"], "a": None}) == '{"b":[1,"ü"],"a":null}'
    assert field.get_prep_value("a string") == '"a string"'
    assert field.get_prep_value(None) is None


def test_the_column_is_text_on_every_database() -> None:
    assert JSONTextField().db_type(connection) == connection.data_types["TextField"]


def test_dumpdata_writes_the_value_and_loaddata_reads_it_back_as_json_field_does() -> None:
    game = Game(state={"seed": 7, "heroes": ["elf"]})
    field = Game._meta.get_field("state")

    assert field.value_to_string(game) == {"seed": 7, "heroes": ["elf"]}
    assert field.to_python({"seed": 7}) == {"seed": 7}


@pytest.mark.parametrize("slug", [face.slug for face in game_faces()])
def test_every_games_state_reads_back_exact_through_a_game(slug: str) -> None:
    """No state of a played game holds an integer orjson would read as a float."""
    face = game_face(slug)
    scenario = face.scenarios()[0]
    parsed = face.scenario_parse(scenario.slug, scenario.source)
    state = face.new_game(parsed, face.max_seats, 2**63 - 1, {}, commitment=None).state
    chooser = random.Random(5)
    for _ in range(150):
        text = json.dumps(face.state_to_json(state))
        assert json.dumps(read_back(text)) == text
        seats = face.seats_to_move(state)
        if not seats:
            break
        action = chooser.choice(face.legal_actions(state, seats[0]))
        state = face.apply(state, seats[0], action).state


@pytest.mark.django_db
def test_a_games_state_round_trips_through_the_database(make_game: GameMaker) -> None:
    game, _ = make_game(seats=2)
    stored = Game.objects.get(pk=game.pk)
    Game.objects.filter(pk=game.pk).update(state={"seed": 2**63 - 1, "k": ["ü", 1.5]})

    assert Game.objects.get(pk=game.pk).state == {"seed": 2**63 - 1, "k": ["ü", 1.5]}
    assert isinstance(stored.state, dict) and stored.state


@pytest.mark.django_db
def test_a_games_state_keeps_its_key_order_in_the_database(make_game: GameMaker) -> None:
    game, _ = make_game(seats=2)
    Game.objects.filter(pk=game.pk).update(state={"zeta": 1, "alpha": {"y": 2, "b": 3}})

    stored = Game.objects.get(pk=game.pk).state
    assert list(stored) == ["zeta", "alpha"] and list(stored["alpha"]) == ["y", "b"]


@pytest.mark.django_db
def test_a_game_cannot_launch_with_a_seed_past_63_bits(make_room: RoomMaker) -> None:
    room, users = make_room(seats=2)

    with pytest.raises(ValueError, match="63 bits"):
        game_launch(room_id=room.pk, user=users[1], seed=2**63)
    assert not Game.objects.filter(room=room).exists()


@pytest.mark.django_db
def test_a_rows_text_is_kept_as_it_came_until_the_value_is_first_read(
    make_game: GameMaker,
) -> None:
    game, _ = make_game(seats=2)
    Game.objects.filter(pk=game.pk).update(state={"zeta": 1, "alpha": [2]})
    stored = Game.objects.get(pk=game.pk)

    assert stored_json_text(stored, "state") == '{"zeta":1,"alpha":[2]}'
    assert stored.state == {"zeta": 1, "alpha": [2]}
    assert stored_json_text(stored, "state") is None  # read: a value now, edited in place maybe


@pytest.mark.django_db
def test_a_game_saved_without_its_state_read_writes_the_state_back_as_it_was(
    make_game: GameMaker,
) -> None:
    game, _ = make_game(seats=2)
    before = Game.objects.get(pk=game.pk).state
    unread = Game.objects.get(pk=game.pk)
    unread.save()

    assert stored_json_text(unread, "state") is not None  # written as text, never decoded
    assert Game.objects.get(pk=game.pk).state == before


@pytest.mark.django_db
def test_values_give_the_rows_text(make_game: GameMaker) -> None:
    game, _ = make_game(seats=2)
    Game.objects.filter(pk=game.pk).update(state={"round": 3})
    (text,) = Game.objects.filter(pk=game.pk).values_list("state", flat=True)

    assert type(text) is JSONText and JSONTextField.decode(text) == {"round": 3}
