"""Rows written with SQL made once (apps/core/rows.py) are the rows the ORM would write."""

import json
from datetime import timedelta
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.core.jsontext import json_text
from apps.core.rows import (
    row_update,
    rows_insert,
    rows_insert_returning_pks,
    rows_insert_then_update,
)
from apps.play.models import Game, GameEvent
from tests.play import conftest as play
from tests.play.conftest import GameMaker

pytestmark = pytest.mark.django_db
quest, make_room, make_game = play.quest, play.make_room, play.make_game  # the play fixtures

AWKWARD_JSON = {
    "big": 2**70,  # past orjson's 64 bits: json's text instead
    "name": "Zargon's ünïcode",
    "nested": [{"1": [1.5, None, True]}],
    3: "an int key becomes a string key, as json makes it",
}


def test_json_text_means_what_json_means() -> None:
    assert json.loads(json_text(AWKWARD_JSON)) == json.loads(json.dumps(AWKWARD_JSON))
    assert json.loads(json_text({"a": [1, 2]})) == {"a": [1, 2]}


def test_a_row_update_writes_the_named_columns_in_one_statement(make_game: GameMaker) -> None:
    game, _ = make_game(seats=2)
    before = Game.objects.get(pk=game.pk)
    game.version, game.outcome, game.state = 41, "", AWKWARD_JSON
    game.round = 99  # changed, but not named: not written
    with CaptureQueriesContext(connection) as queries:
        row_update(game, ["version", "state", "updated"])
    assert len(queries) == 1
    stored = Game.objects.get(pk=game.pk)
    assert stored.version == 41
    assert stored.state == json.loads(json.dumps(AWKWARD_JSON))
    assert stored.round == before.round
    assert stored.updated > before.updated  # auto_now, as save() sets it


def newest_seq(game: Game) -> int:
    last = GameEvent.objects.filter(game=game).order_by("-seq").first()
    assert last is not None
    return last.seq


def event_rows(
    game: Game, *, after: int, event_seq: int, count: int, **payload: Any
) -> list[GameEvent]:
    """`count` event rows of the game's next version, after log row `after`, numbered from
    `event_seq` + 1 (the payload's "seq" too)."""
    return [
        GameEvent(
            game=game,
            seq=after + n,
            version=game.version + 1,
            kind=GameEvent.Kind.EVENT,
            payload={"seq": event_seq + n, **payload},
            event_seq=event_seq + n,
        )
        for n in range(1, count + 1)
    ]


def test_rows_inserted_at_once_are_the_rows_bulk_create_writes(make_game: GameMaker) -> None:
    game, _ = make_game(seats=2)
    last_seq = newest_seq(game)
    rows = event_rows(game, after=last_seq, event_seq=1000, count=3, text="ünïcode", big=2**70)
    started = timezone.now()
    with CaptureQueriesContext(connection) as queries:
        rows_insert(rows)
    assert len(queries) == 1
    stored = list(GameEvent.objects.filter(game=game, seq__gt=last_seq).order_by("seq"))
    assert [(e.seq, e.kind, e.event_seq, e.seat) for e in stored] == [
        (last_seq + n, "event", 1000 + n, None) for n in (1, 2, 3)
    ]
    assert stored[0].payload == {"seq": 1001, "text": "ünïcode", "big": 2**70}
    assert all(e.created >= started - timedelta(seconds=1) for e in stored)  # auto_now_add


def test_rows_inserted_with_their_new_keys_are_those_rows_in_one_statement(
    make_game: GameMaker,
) -> None:
    game, _ = make_game(seats=2)
    last_seq = newest_seq(game)
    rows = event_rows(game, after=last_seq, event_seq=2000, count=3, text="ünïcode")
    with CaptureQueriesContext(connection) as queries:
        rows_insert_returning_pks(rows)
    assert len(queries) == 1
    for row in rows:
        stored = GameEvent.objects.get(pk=row.pk)
        assert (stored.seq, stored.event_seq) == (row.seq, row.event_seq)
        assert not row._state.adding  # saved, as bulk_create leaves them
    assert len({row.pk for row in rows}) == 3


def test_nothing_to_insert_runs_no_statement() -> None:
    with CaptureQueriesContext(connection) as queries:
        rows_insert([])
        rows_insert_returning_pks([])
    assert len(queries) == 0


def test_rows_appended_and_a_row_updated_together_are_what_each_writes_alone(
    make_game: GameMaker,
) -> None:
    game, _ = make_game(seats=2)
    last_seq = newest_seq(game)
    rows = event_rows(game, after=last_seq, event_seq=2000, count=2, text="ünïcode")
    game.version, game.state = 42, AWKWARD_JSON
    with CaptureQueriesContext(connection) as queries:
        rows_insert_then_update(rows, game, ["version", "state"])

    # One round trip on PostgreSQL (the INSERT in a WITH); one statement each elsewhere.
    assert len(queries) == (1 if connection.vendor == "postgresql" else 2)
    stored = Game.objects.get(pk=game.pk)
    assert stored.version == 42 and stored.state == json.loads(json.dumps(AWKWARD_JSON))
    appended = GameEvent.objects.filter(game=game, seq__gt=last_seq).order_by("seq")
    assert [(e.seq, e.event_seq, e.payload["text"]) for e in appended] == [
        (last_seq + 1, 2001, "ünïcode"),
        (last_seq + 2, 2002, "ünïcode"),
    ]


def test_a_row_appended_against_a_unique_constraint_fails_the_update_with_it(
    make_game: GameMaker,
) -> None:
    game, _ = make_game(seats=2)
    clash = GameEvent(
        game=game,
        seq=newest_seq(game),
        version=99,
        kind=GameEvent.Kind.EVENT,
        payload={},
        event_seq=None,
    )
    game.version = 77
    with pytest.raises(IntegrityError), transaction.atomic():
        rows_insert_then_update([clash], game, ["version"])
    assert Game.objects.get(pk=game.pk).version != 77
