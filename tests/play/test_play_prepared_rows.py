"""The action path's prepared row (apps/core/prepared.py) is its queryset's row, on either database.

The Django internals PreparedQuery reads are pinned in tests/core/test_core_prepared_pins.py; here
the shapes it reads are checked on the action path's own query, and its row against the ORM's.
"""

from typing import Any

import pytest
from django.db import connection, transaction

from apps.core.prepared import PreparedQuery
from apps.play import services
from apps.play.models import Game
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
