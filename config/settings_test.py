"""The settings pytest runs with (pyproject's DJANGO_SETTINGS_MODULE): the site's own, plus what
only a test run wants. Servers the tests start use config.settings, like production."""

from config.settings import *  # noqa: F403

# Creating users is most tests' setup; the real hasher is slow on purpose. Tests of hashing name
# the hashers they need.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
