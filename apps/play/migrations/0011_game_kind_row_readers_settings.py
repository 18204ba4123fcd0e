"""Games know their game; who is to move and the round live on the row; the players' private
settings move from `HeroSetting` rows into `Game.settings`.

Every game so far is HeroQuest's: its seats to move and round are read once from its stored
state here (HeroQuest's state JSON: `phase`, `turn.hero`, `round`, `seats`, `outcome`), and its
heroes' auto-drink settings become `{hero: {"auto_drink": on}}`.
"""

from typing import Any

from django.db import migrations, models

# HeroQuest's seating (docs/rules.md 1), frozen as it was when this migration was written: a
# migration never imports a game's code, which may change after it.
_SEATING: dict[int, dict[str, int]] = {
    2: {"barbarian": 2, "dwarf": 2, "elf": 2, "wizard": 2},
    3: {"barbarian": 2, "dwarf": 2, "elf": 3, "wizard": 3},
    4: {"barbarian": 2, "dwarf": 2, "elf": 3, "wizard": 4},
    5: {"barbarian": 2, "dwarf": 3, "elf": 4, "wizard": 5},
}


def _to_move(state: dict[str, Any], seats: int) -> list[int]:
    if state.get("outcome"):
        return []
    if state.get("phase") == "monsters":
        return [1]
    hero = (state.get("turn") or {}).get("hero")
    seat = _SEATING.get(seats, {}).get(hero) if hero else None
    return [] if seat is None else [seat]


def forwards(apps: Any, schema_editor: Any) -> None:
    Game = apps.get_model("play", "Game")
    HeroSetting = apps.get_model("play", "HeroSetting")
    settings: dict[int, dict[str, Any]] = {}
    for row in HeroSetting.objects.all().iterator():
        settings.setdefault(row.game_id, {})[row.hero] = {"auto_drink": row.auto_drink}
    for game in Game.objects.all().iterator():
        state = game.state if isinstance(game.state, dict) else {}
        game.to_move = _to_move(state, game.seats)
        game.round = int(state.get("round") or 0)
        game.settings = settings.get(game.pk, {})
        game.save(update_fields=["to_move", "round", "settings"])


def backwards(apps: Any, schema_editor: Any) -> None:
    Game = apps.get_model("play", "Game")
    HeroSetting = apps.get_model("play", "HeroSetting")
    for game in Game.objects.exclude(settings={}).iterator():
        for hero, values in game.settings.items():
            if isinstance(values, dict) and "auto_drink" in values:
                HeroSetting.objects.create(game=game, hero=hero, auto_drink=values["auto_drink"])


class Migration(migrations.Migration):
    dependencies = [("play", "0010_event_key"), ("rooms", "0006_room_game_and_ai_seat")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="kind",
            field=models.CharField(default="heroquest", max_length=20),
        ),
        migrations.AddField(model_name="game", name="to_move", field=models.JSONField(default=list)),
        migrations.AddField(
            model_name="game", name="round", field=models.PositiveIntegerField(default=0)
        ),
        migrations.AddField(model_name="game", name="settings", field=models.JSONField(default=dict)),
        migrations.AlterField(
            model_name="game", name="outcome", field=models.CharField(blank=True, max_length=20)
        ),
        migrations.AlterField(
            model_name="chatmessage",
            name="kind",
            field=models.CharField(
                choices=[
                    ("player", "A player"),
                    ("narrator", "The narrator (the game master's seat)"),
                    ("parchment", "The scenario's parchment"),
                ],
                default="player",
                max_length=10,
            ),
        ),
        migrations.RunPython(forwards, backwards),
        migrations.DeleteModel(name="HeroSetting"),
    ]
