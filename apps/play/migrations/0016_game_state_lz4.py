"""The game state compressed with lz4 on PostgreSQL (14 and newer, when built with lz4).

Every action rewrites the 16 KB state, and its default compression (pglz) was 7% of
PostgreSQL's CPU under load; lz4 compresses it several times faster for a somewhat larger
value (docs/operations.md "Speed"). Rows keep their compression until they are next written.
Elsewhere, or on a server without lz4, this changes nothing.
"""

from typing import Any

from django.db import migrations, transaction
from django.db.utils import DatabaseError

LZ4 = 'ALTER TABLE "play_game" ALTER COLUMN "state" SET COMPRESSION lz4'
PGLZ = 'ALTER TABLE "play_game" ALTER COLUMN "state" SET COMPRESSION pglz'


def _alter(sql: str) -> Any:
    def alter(apps: Any, schema_editor: Any) -> None:
        if schema_editor.connection.vendor != "postgresql":
            return
        try:
            with transaction.atomic(using=schema_editor.connection.alias):
                schema_editor.execute(sql)
        except DatabaseError:
            pass  # a server built without lz4 keeps pglz

    return alter


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0015_game_timebank_extend_vote"),
    ]

    operations = [
        migrations.RunPython(_alter(LZ4), _alter(PGLZ)),
    ]
