"""The game state kept as text instead of jsonb (apps/core/fields.py, `JSONTextField`).

Every action rewrites the 16 KB state and the next one reads it back: jsonb parsed it on each
write and printed it on each read, and nothing queries inside it. PostgreSQL casts each row's
jsonb to text (and back, going back). Changing a column's type also drops its compression
setting, so lz4 (0016) is set again after it, either way.
"""

import importlib

import apps.core.fields
from django.db import migrations

_lz4 = importlib.import_module("apps.play.migrations.0016_game_state_lz4")
SET_LZ4 = _lz4._alter(_lz4.LZ4)


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0016_game_state_lz4"),
    ]

    operations = [
        migrations.RunPython(migrations.RunPython.noop, SET_LZ4),  # back on jsonb, lz4 again
        migrations.AlterField(
            model_name="game",
            name="state",
            field=apps.core.fields.JSONTextField(help_text="The engine state JSON."),
        ),
        migrations.RunPython(SET_LZ4, migrations.RunPython.noop),
    ]
