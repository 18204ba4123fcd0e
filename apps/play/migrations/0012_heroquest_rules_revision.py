"""HeroQuest's rules gained a revision (apps/games/heroquest/engine/options.py, RULES_REVISION):
every game launched before it is played, and replayed, by revision 1, the rules it started with.
Its options and its state's options both say so, so it plays on and verifies as it always did."""

from typing import Any

from django.db import migrations


def forwards(apps: Any, schema_editor: Any) -> None:
    Game = apps.get_model("play", "Game")
    for game in Game.objects.filter(kind="heroquest").iterator():
        if "rules_revision" in (game.options or {}):
            continue
        game.options = {**(game.options or {}), "rules_revision": 1}
        if isinstance(game.state, dict) and isinstance(game.state.get("options"), dict):
            game.state = {**game.state, "options": {**game.state["options"], "rules_revision": 1}}
        game.save(update_fields=["options", "state"])


class Migration(migrations.Migration):
    dependencies = [("play", "0011_game_kind_row_readers_settings")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
