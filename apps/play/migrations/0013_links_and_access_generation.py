"""Issue 22: unguessable links for public replays and spectators, the spectators who opened a
link, and the access generation that sockets check before they send a frame."""

import secrets
from typing import Any

from django.conf import settings
from django.db import migrations, models

import apps.play.models


def fill_tokens(apps: Any, schema_editor: Any) -> None:
    Game = apps.get_model("play", "Game")
    for game in Game.objects.only("pk").iterator():
        Game.objects.filter(pk=game.pk).update(
            replay_token=secrets.token_urlsafe(32), watch_token=secrets.token_urlsafe(32)
        )


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0012_heroquest_rules_revision"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="access_generation",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="game",
            name="replay_token",
            field=models.CharField(max_length=64, null=True),
        ),
        migrations.AddField(
            model_name="game",
            name="watch_token",
            field=models.CharField(max_length=64, null=True),
        ),
        migrations.RunPython(fill_tokens, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="game",
            name="replay_token",
            field=models.CharField(
                default=apps.play.models.new_link_token, max_length=64, unique=True
            ),
        ),
        migrations.AlterField(
            model_name="game",
            name="watch_token",
            field=models.CharField(
                default=apps.play.models.new_link_token, max_length=64, unique=True
            ),
        ),
        migrations.CreateModel(
            name="GameWatcher",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("created", models.DateTimeField(auto_now_add=True)),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=models.deletion.CASCADE,
                        related_name="watchers",
                        to="play.game",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=models.deletion.CASCADE, to=settings.AUTH_USER_MODEL
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("game", "user"), name="game_watcher_unique_user"
                    )
                ]
            },
        ),
    ]
