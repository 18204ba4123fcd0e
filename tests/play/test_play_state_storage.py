"""How PostgreSQL stores a game's state: every action rewrites it and the next reads it, so it is
text (jsonb parsed and printed it each time: apps/play/migrations/0017_game_state_text.py),
compressed with lz4, several times cheaper than PostgreSQL's default (0016_game_state_lz4.py)."""

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
