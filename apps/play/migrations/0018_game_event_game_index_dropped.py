"""The log's own index on its game goes: the unique (game, seq) index leads with the game and
serves every lookup by game; the other was only written to, on every row of the log.

Only the index is dropped: Django's AlterField would also drop and add the foreign key again,
which checks every row of the log under a lock.
"""

import django.db.models.deletion
from django.db import migrations, models

INDEX = "play_gameevent_game_id_34e0ecb5"  # Django's name for the foreign key's index


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0017_game_state_text"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(
                    f"DROP INDEX IF EXISTS {INDEX}",
                    reverse_sql=f"CREATE INDEX {INDEX} ON play_gameevent (game_id)",
                ),
            ],
            state_operations=[
                migrations.AlterField(
                    model_name="gameevent",
                    name="game",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="events",
                        to="play.game",
                    ),
                ),
            ],
        ),
    ]
