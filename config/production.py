"""Production profile: `DJANGO_SETTINGS_MODULE=config.production`.

Requires SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL and REDIS_URL in the environment; passes
`manage.py check --deploy` with no warnings.
"""

from .settings import *  # noqa: F403
from .settings import env

DEBUG = False
SECRET_KEY = env.str("SECRET_KEY")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS")
STORAGES["staticfiles"] = {  # noqa: F405
    "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
}

# Trust X-Forwarded-Proto only when a proxy that sets it is configured: with daphne exposed
# directly, any client could claim https.
if env.bool("SECURE_PROXY_SSL_HEADER_TRUSTED", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
# Load balancers probe over plain HTTP: a redirect would hide the 503 they look for.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
