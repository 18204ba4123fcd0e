"""The settings pytest runs with (pyproject's DJANGO_SETTINGS_MODULE): the site's own, plus what
only a test run wants. Servers the tests start use config.settings, like production."""

import os
from urllib.parse import urlsplit

# Under pytest-xdist (`make test` runs the engines' tests on every core) each worker has a test
# database of its own (pytest-django), and here a Redis database of its own too: the games of
# two workers have the same ids, and so the same channel groups. Set before the site's settings
# read it, and in the environment, so that the servers a test starts use the same one.
_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if _worker.startswith("gw") and os.environ.get("REDIS_URL"):
    _redis = urlsplit(os.environ["REDIS_URL"])
    _db = int(_redis.path.strip("/") or 0) + 1 + int(_worker[2:])
    os.environ["REDIS_URL"] = _redis._replace(path=f"/{_db}").geturl()

from config.settings import *  # noqa: E402, F403

# Creating users is most tests' setup; the real hasher is slow on purpose. Tests of hashing name
# the hashers they need.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Each commit's notices go to the broker as they did before gathering (apps/core/gathering.py):
# a test's broker and eager mode are switched around it, and a task sent later by a thread would
# meet the next test's. tests/core/test_core_gathering.py tests the gathering itself.
NOTIFICATIONS_GATHER_SECONDS = 0.0
