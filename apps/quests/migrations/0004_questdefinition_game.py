"""A scenario belongs to a game (every definition so far is a HeroQuest quest)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("quests", "0003_revisions")]

    operations = [
        migrations.AddField(
            model_name="questdefinition",
            name="kind",
            field=models.CharField(default="heroquest", max_length=20),
        ),
    ]
