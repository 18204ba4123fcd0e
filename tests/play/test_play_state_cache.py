"""Each game's newest state kept decoded in the process (apps/play/state_cache.py): the next
action plays on from it instead of decoding the row, and only when the row holds the very JSON it
was stored as; whatever else wrote the row, that is what is played."""

import random
import uuid
from typing import Any

import pytest

from apps.core.fields import stored_json_text
from apps.games.registry import game_face
from apps.play.models import Game
from apps.play.selectors import game_scenario, game_state
from apps.play.services import game_launch, quest_apply_action
from apps.play.state_cache import StateCache, state_cache
from apps.quests.services import quest_sync_shipped
from apps.rooms import services as rooms

from .conftest import GameMaker, make_user

pytestmark = pytest.mark.django_db


def _play_random(game: Game, rnd: random.Random) -> Game:
    """One legal action of a seat to move, chosen by `rnd`, through the action service."""
    face = game_face(game.kind)
    state = face.state_from_json(game.state, game_scenario(game=game))
    seat = rnd.choice(face.seats_to_move(state))
    _submit(game, seat, rnd.choice(face.legal_actions(state, seat)))
    return Game.objects.get(pk=game.pk)


def _submit(game: Game, seat: int, action: Any) -> Any:
    """`action` played by `seat` at the game's version, through the action service."""
    return quest_apply_action(
        game_id=game.pk,
        seat=seat,
        action=action,
        expected_version=game.version,
        key=uuid.uuid4().hex,
        system=True,
    )


def _zagor_game(seed: int) -> Game:
    quest_sync_shipped()
    host, other = make_user(), make_user()
    room = rooms.room_create(
        host=host, name="Orb night", seat_count=2, game="zagor", quest_slug="enchanted_orb"
    )
    rooms.room_seat_take(room_id=room.pk, user=host, number=1)
    rooms.room_seat_take(room_id=room.pk, user=other, number=2)
    return game_launch(room_id=room.pk, user=host, seed=seed)


def _decoded(game: Game) -> Any:
    return game_face(game.kind).state_from_json(game.state, game_scenario(game=game))


def _kept_state_is_the_decoded_one_after_every_action(game: Game, actions: int) -> None:
    rnd = random.Random(game.pk)
    face = game_face(game.kind)
    for _ in range(actions):
        if game.outcome:
            break
        before, before_json = game_state(game=game), game.state
        game = _play_random(game, rnd)
        # the action (its rules, settings, views and legal moves) left the kept state as it was
        assert face.state_to_json(before) == before_json
        text = stored_json_text(game, "state")
        assert text is not None  # the row's text, not decoded
        kept = state_cache.get(
            game_id=game.pk, version=game.version, scenario=game_scenario(game=game), text=text
        )
        assert kept is not None
        assert game_state(game=game) is kept
        assert stored_json_text(game, "state") == text  # taken without decoding the row
        assert kept == _decoded(game)


def test_a_heroquest_game_plays_on_from_the_state_it_stored_which_is_the_rows(
    make_game: GameMaker,
) -> None:
    game, _ = make_game(3, seed=5)
    _kept_state_is_the_decoded_one_after_every_action(game, actions=60)


def test_a_zagor_game_plays_on_from_the_state_it_stored_which_is_the_rows() -> None:
    _kept_state_is_the_decoded_one_after_every_action(_zagor_game(seed=4), actions=60)


def test_the_next_action_does_not_decode_the_row_when_this_process_stored_it(
    make_game: GameMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, _ = make_game(2, seed=3)
    game = _play_random(game, random.Random(1))
    face = game_face(game.kind)

    def refuse(data: Any, scenario: Any) -> Any:
        raise AssertionError("the row was decoded")

    monkeypatch.setattr(face, "state_from_json", refuse)
    seat = face.seats_to_move(game_state(game=game))[0]
    action = face.legal_actions(game_state(game=game), seat)[0]
    response = _submit(game, seat, action)
    assert response["version"] == game.version + 1


def test_a_state_written_by_anything_else_is_decoded_from_the_row(make_game: GameMaker) -> None:
    """An admin's tool or a migration may rewrite the state without a new version."""
    game, _ = make_game(2, seed=3)
    game = _play_random(game, random.Random(1))
    edited = dict(game.state, round=game.state["round"] + 7)
    Game.objects.filter(pk=game.pk).update(state=edited)
    game.refresh_from_db()

    assert game_state(game=game).round == edited["round"]


def test_a_game_is_never_given_the_state_kept_under_another_version_or_scenario() -> None:
    cache = StateCache()
    scenario, other_scenario = object(), object()
    cache.put(game_id=1, version=4, scenario=scenario, text="round 2", state="kept")

    assert cache.get(game_id=1, version=4, scenario=scenario, text="round 2") == "kept"
    assert cache.get(game_id=1, version=4, scenario=scenario, text="round 3") is None
    assert cache.get(game_id=1, version=5, scenario=scenario, text="round 2") is None
    assert cache.get(game_id=1, version=4, scenario=other_scenario, text="round 2") is None
    assert cache.get(game_id=2, version=4, scenario=scenario, text="round 2") is None


def test_an_older_state_never_replaces_a_newer_one() -> None:
    cache = StateCache()
    cache.put(game_id=1, version=9, scenario=None, text="v9", state="newer")
    cache.put(game_id=1, version=8, scenario=None, text="v8", state="older")

    assert cache.get(game_id=1, version=9, scenario=None, text="v9") == "newer"


def test_at_most_the_set_number_of_games_are_kept_the_least_recently_used_dropped() -> None:
    cache = StateCache(size=3)
    for game_id in range(1, 5):
        cache.put(game_id=game_id, version=1, scenario=None, text="", state=game_id)
        cache.get(game_id=2, version=1, scenario=None, text="")  # kept in use

    kept = [g for g in range(1, 5) if cache.get(game_id=g, version=1, scenario=None, text="")]
    assert kept == [2, 3, 4]
