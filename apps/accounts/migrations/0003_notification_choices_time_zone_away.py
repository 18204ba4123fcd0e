from django.db import migrations, models


def turn_email_from_flag(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    User.objects.filter(email_on_turn=False).update(turn_email="never")


def flag_from_turn_email(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    User.objects.filter(turn_email="never").update(email_on_turn=False)


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0002_apitoken_and_case_insensitive_uniques"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="turn_email",
            field=models.CharField(
                choices=[
                    ("immediately", "Right away"),
                    ("digest", "In one daily digest"),
                    ("never", "Never"),
                ],
                default="immediately",
                max_length=12,
                verbose_name="email me when it is my turn",
            ),
        ),
        migrations.RunPython(turn_email_from_flag, flag_from_turn_email),
        migrations.RemoveField(model_name="user", name="email_on_turn"),
        migrations.RenameField(model_name="user", old_name="email_reminders", new_name="reminders"),
        migrations.AlterField(
            model_name="user",
            name="reminders",
            field=models.BooleanField(default=True, verbose_name="remind me before a turn deadline"),
        ),
        migrations.AddField(
            model_name="user",
            name="email_chat",
            field=models.BooleanField(default=False, verbose_name="email me table talk"),
        ),
        migrations.AddField(
            model_name="user",
            name="time_zone",
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.AddField(
            model_name="user",
            name="away_until",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="user",
            name="digest_sent_at",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
    ]
