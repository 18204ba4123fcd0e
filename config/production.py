"""Production profile: `DJANGO_SETTINGS_MODULE=config.production`.

Requires SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL and REDIS_URL in the environment; with
EMAIL_URL set too it passes `manage.py check --deploy` with no warnings (without it the check
warns: no email would reach anyone, apps/notifications/checks.py).
"""

from django.core.exceptions import ImproperlyConfigured

from .settings import *  # noqa: F403
from .settings import env

# Without these the default profile would quietly fall back to SQLite and in-memory stand-ins,
# which a multi-process deployment cannot share.
for _required in ("DATABASE_URL", "REDIS_URL"):
    if not env.str(_required, default=""):
        raise ImproperlyConfigured(
            f"config.production needs {_required} in the environment "
            "(e.g. DATABASE_URL=postgres://user@host:5432/name, REDIS_URL=redis://host:6379/0)."
        )

DEBUG = False
SECRET_KEY = env.str("SECRET_KEY")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS")
STORAGES["staticfiles"] = {  # noqa: F405
    "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
}

# Trust X-Forwarded-Proto only when a proxy that sets it is configured: with the server exposed
# directly, any client could claim https.
if env.bool("SECURE_PROXY_SSL_HEADER_TRUSTED", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
# Load balancers probe over plain HTTP: a redirect would hide the 503 they look for.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
# Trying the profile over plain http before TLS is set up (README, Deploying):
# SECURE_SSL_REDIRECT=false SECURE_COOKIES=false; `check --deploy` then warns about both.
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env.bool("SECURE_COOKIES", default=True)
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

# Never let a user's webhook or push address reach a private or loopback address (SSRF).
OUTBOUND_ALLOW_PRIVATE = False
