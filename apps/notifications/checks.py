"""System checks of the notifications app: `manage.py check --deploy` says what production lacks."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Tags, Warning, register

# Email backends that deliver nothing to anyone: the console (the worker's log), memory, nowhere.
UNDELIVERED_BACKENDS = {
    "django.core.mail.backends.console.EmailBackend": "prints every email to the worker's log",
    "django.core.mail.backends.locmem.EmailBackend": "keeps every email in memory",
    "django.core.mail.backends.dummy.EmailBackend": "drops every email",
    "django.core.mail.backends.filebased.EmailBackend": "writes every email to a file",
}


@register(Tags.compatibility, deploy=True)
def email_is_delivered(app_configs: Any = None, **kwargs: Any) -> list[Warning]:
    """With EMAIL_URL unset the site runs, and no player ever gets an email: say so."""
    what = UNDELIVERED_BACKENDS.get(str(settings.EMAIL_BACKEND))
    if what is None:
        return []
    return [
        Warning(
            f"Email is not sent: the email backend {what} (EMAIL_URL is not set), so no turn "
            "notice, reminder or password reset reaches anyone.",
            hint="Set EMAIL_URL, e.g. EMAIL_URL=smtp+tls://user:password@smtp.example.com:587.",
            id="notifications.W001",
        )
    ]
