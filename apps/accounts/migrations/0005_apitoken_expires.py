from datetime import timedelta

from django.conf import settings
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def expire_existing_tokens(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """Tokens issued before expiry existed expire API_TOKEN_TTL_DAYS after their issue."""
    api_token = apps.get_model("accounts", "ApiToken")
    ttl = timedelta(days=settings.API_TOKEN_TTL_DAYS)
    for token in api_token.objects.all():
        token.expires = token.created + ttl
        token.save(update_fields=["expires"])


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_confirm_actions"),
    ]

    operations = [
        migrations.AddField(
            model_name="apitoken",
            name="expires",
            field=models.DateTimeField(null=True),
        ),
        migrations.RunPython(expire_existing_tokens, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="apitoken",
            name="expires",
            field=models.DateTimeField(),
        ),
    ]
