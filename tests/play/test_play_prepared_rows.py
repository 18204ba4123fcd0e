"""The prepared rows (apps/core/prepared.py) of the action path, the view GET and the sockets'
builds are their querysets' rows, on either database.

The Django internals PreparedQuery reads are pinned in tests/core/test_core_prepared_pins.py; here
the shapes it reads are checked on the action path's own query, and its row against the ORM's.
"""

from typing import Any

import pytest
from django.db import connection, transaction

from apps.accounts.models import User
from apps.core.prepared import PreparedQuery
from apps.games.port import SPECTATOR_SEAT
from apps.play import selectors, services
from apps.play.errors import GameNotFound
from apps.play.models import Game
from apps.rooms.services import room_spectators_set
from tests.conftest import make_user
from tests.play.conftest import GameMaker

pytestmark = pytest.mark.django_db


def test_the_compiled_query_has_the_shapes_prepared_queries_read(make_game: GameMaker) -> None:
    game, users = make_game(seats=2)
    queryset = services._locked_rows(game_id=game.pk, key="k", system=False, user_id=users[1].pk)
    compiler = queryset[:1].query.get_compiler(using="default")
    with transaction.atomic():
        sql, params = compiler.as_sql()
    assert isinstance(sql, str) and isinstance(params, list | tuple)
    info = compiler.klass_info
    assert info is not None and info["model"] is Game
    assert set(info) >= {"model", "select_fields", "related_klass_infos"}
    assert compiler.select is not None
    start, end = info["select_fields"][0], info["select_fields"][-1] + 1
    attnames = [entry[0].target.attname for entry in compiler.select[start:end]]
    assert attnames == [f.attname for f in Game._meta.concrete_fields]
    assert set(compiler.annotation_col_map) == {"acting_seat", "stored_response", "stored_version"}
    assert all(isinstance(n, int) for n in compiler.annotation_col_map.values())
    assert queryset.query.select_for_update
    assert connection.vendor in ("postgresql", "sqlite")


FIELDS = [f.attname for f in Game._meta.concrete_fields]


@pytest.mark.parametrize("by", ["user", "seat"])
def test_the_action_paths_prepared_row_is_the_querysets_row(make_game: GameMaker, by: str) -> None:
    game, users = make_game(seats=2)
    prepared: PreparedQuery[Game]
    if by == "user":
        values: dict[str, Any] = {"game_id": game.pk, "key": "k", "user_id": users[2].pk}
        prepared = services._LOCKED_FOR_USER
    else:
        values = {"game_id": game.pk, "key": "k", "seat": 2}
        prepared = services._LOCKED_FOR_SEAT[False]
    with transaction.atomic():
        mine = prepared.first(**values)
        plain = services._locked_rows(system=False, **values).first()
    assert mine is not None and plain is not None
    assert {f: getattr(mine, f) for f in FIELDS} == {f: getattr(plain, f) for f in FIELDS}
    for name in ("acting_seat", "stored_response", "stored_version"):
        assert getattr(mine, name) == getattr(plain, name)
    assert mine.room.pk == plain.room.pk and mine.room.name == plain.room.name
    assert mine._state.db == plain._state.db and not mine._state.adding


def _viewed_row(game_id: int, user: User) -> tuple[Game | None, Game | None]:
    """The view GET's row, prepared and as the ORM builds it."""
    prepared = selectors._VIEWED_GAME.first(game_id=game_id, user_id=user.pk)
    plain = selectors._viewed_game_rows(game_id=game_id, user_id=user.pk).first()
    return prepared, plain


@pytest.mark.parametrize("spectators", [False, True])
def test_the_view_gets_prepared_row_is_the_querysets_for_players_and_strangers(
    make_game: GameMaker, spectators: bool
) -> None:
    game, users = make_game(seats=3)
    room_spectators_set(room_id=game.room_id, user=users[1], allow=spectators)
    stranger = make_user()
    for user, seat in ((users[1], 1), (users[3], 3), (stranger, SPECTATOR_SEAT)):
        mine, plain = _viewed_row(game.pk, user)
        assert mine is not None and plain is not None
        expected = seat if spectators or user is not stranger else None
        assert getattr(mine, "member_seat") == getattr(plain, "member_seat") == expected  # noqa: B009
        assert {f: getattr(mine, f) for f in FIELDS if f != "state"} == {
            f: getattr(plain, f) for f in FIELDS if f != "state"
        }
        assert mine.get_deferred_fields() == plain.get_deferred_fields() == {"state"}
    assert _viewed_row(game.pk + 1000, users[1]) == (None, None)


@pytest.mark.parametrize("state_needed", [False, True])
def test_a_sockets_prepared_row_is_the_querysets(make_game: GameMaker, state_needed: bool) -> None:
    game, _ = make_game(seats=2)
    mine = selectors._GAME[state_needed].first(game_id=game.pk)
    plain = selectors._game_rows(game_id=game.pk, state_needed=state_needed).first()
    assert mine is not None and plain is not None
    assert mine.get_deferred_fields() == plain.get_deferred_fields()
    read = [f for f in FIELDS if f not in plain.get_deferred_fields()]
    assert {f: getattr(mine, f) for f in read} == {f: getattr(plain, f) for f in read}


@pytest.mark.parametrize("game_id", [0, -1_000_001, 2**63])
def test_no_view_is_read_for_an_id_no_row_can_have(make_game: GameMaker, game_id: int) -> None:
    _, users = make_game(seats=2)
    with pytest.raises(GameNotFound):
        selectors.game_view_encoded(game_id=game_id, user=users[1])
    with pytest.raises(GameNotFound):
        selectors.game_seat_view_encoded(game_id=game_id, seat=1, state_needed=True)
