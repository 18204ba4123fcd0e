"""A quest whose source is its newest shipped revision again (an admin restored it before a
restore could give the quest back to its file, issue 21) follows the shipped file once more:
`origin="shipped"`, so `load_quests` updates it again. Nothing else changes."""

from django.db import migrations


def restored_shipped_quests_follow_the_file(apps, schema_editor):
    QuestDefinition = apps.get_model("quests", "QuestDefinition")
    QuestRevision = apps.get_model("quests", "QuestRevision")
    for definition in QuestDefinition.objects.filter(origin="admin"):
        shipped = (
            QuestRevision.objects.filter(definition=definition, note="shipped")
            .order_by("-number")
            .first()
        )
        if shipped is not None and shipped.source == definition.source:
            QuestDefinition.objects.filter(pk=definition.pk).update(origin="shipped")


class Migration(migrations.Migration):
    dependencies = [("quests", "0004_questdefinition_game")]

    operations = [
        migrations.RunPython(restored_shipped_quests_follow_the_file, migrations.RunPython.noop),
    ]
