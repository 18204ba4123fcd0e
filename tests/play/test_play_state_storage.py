"""How PostgreSQL stores a game's state: every action rewrites it and the next reads it, so it is
text (jsonb parsed and printed it each time: apps/play/migrations/0017_game_state_text.py),
compressed with lz4, several times cheaper than PostgreSQL's default (0016_game_state_lz4.py);
and the log, whose every row is written to each of its indexes."""

import pytest
from django.db import connection

from .conftest import GameMaker


@pytest.mark.postgres
def test_a_games_state_is_text_compressed_with_lz4_on_postgresql(
    postgres: None, make_game: GameMaker
) -> None:
    game, _ = make_game(2, seed=3)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT attcompression, format_type(atttypid, atttypmod) FROM pg_attribute "
            "WHERE attrelid = 'play_game'::regclass AND attname = 'state'"
        )
        column, column_type = cursor.fetchone()
        cursor.execute(
            "SELECT pg_column_compression(state) FROM play_game WHERE id = %s", [game.pk]
        )
        (row,) = cursor.fetchone()
    assert column_type == "text" and column == "l"
    assert row == "lz4"


@pytest.mark.django_db
def test_the_log_is_indexed_by_game_only_through_its_unique_indexes() -> None:
    """Every log row is written to each of its indexes: none of them serves the game alone,
    which (game, seq) already does (0018_game_event_game_index_dropped.py)."""
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, "play_gameevent")
    by_game = [
        c
        for c in constraints.values()
        if (c["index"] or c["unique"]) and c["columns"][:1] == ["game_id"]
    ]
    assert all(c["unique"] for c in by_game)
    assert ["game_id", "seq"] in [c["columns"] for c in by_game]
