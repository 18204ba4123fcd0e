"""Shared test fixtures and personas.

Tests that need PostgreSQL or Redis skip on the embedded default, but never when CI=true: CI
exports DATABASE_URL and REDIS_URL, and a skip there would hide a broken service.
"""

import itertools
import os
import shutil
import tempfile
import threading
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.sync import SyncToAsync
from channels.layers import channel_layers
from django.conf import settings
from django.contrib.auth.models import Permission
from django.core.cache import cache
from django.db import connection, connections
from django.test import Client

from apps.accounts.models import User
from apps.play.consumers import VIEW_BUILD_THREADS, _view_builders
from apps.play.state_cache import state_cache
from apps.play.view_cache import shared_views, view_cache
from config.celery import app as celery_app

IN_CI = os.environ.get("CI", "").lower() == "true"
PASSWORD = "lantern-crypt-7781"
_names = itertools.count(1)


def make_user(
    username: str | None = None,
    *,
    staff: bool = False,
    perms: tuple[str, ...] = (),
    **fields: Any,
) -> User:
    """A user made as sign-up makes one, with PASSWORD; a fresh name unless given. `perms` are
    "app_label.codename" permissions (a typo raises DoesNotExist); `fields` other User fields."""
    username = username or f"player{next(_names)}"
    user: User = User.objects.create_user(
        username=username,
        email=f"{username}@example.com",
        password=PASSWORD,
        is_staff=staff,
        **fields,
    )
    for perm in perms:
        app_label, codename = perm.split(".", 1)
        user.user_permissions.add(
            Permission.objects.get(content_type__app_label=app_label, codename=codename)
        )
    return user


def client_for(user: User) -> Client:
    """A test client logged in as `user`."""
    client = Client()
    client.force_login(user)
    return client


# --- the cast: the same people in every folder's tests ------------------------------------------


@pytest.fixture
def host(db: None) -> User:
    """Hosts the room under test (seat 1 when the test seats her)."""
    return make_user("hostess")


@pytest.fixture
def alice(db: None) -> User:
    return make_user("alice")


@pytest.fixture
def bob(db: None) -> User:
    return make_user("bob")


@pytest.fixture
def player(db: None) -> User:
    """A signed-up player with nothing else about her (accounts' tests)."""
    return make_user("brenna")


@pytest.fixture
def editor(db: None) -> User:
    """A staff member allowed to add, change and view quests (not a superuser)."""
    return make_user(
        "editor",
        staff=True,
        perms=(
            "quests.add_questdefinition",
            "quests.change_questdefinition",
            "quests.view_questdefinition",
        ),
    )


@pytest.fixture
def celery_eager() -> Iterator[None]:
    """Tasks enqueued in a test run in-process, not through the broker that a dev worker may be
    consuming. Directories whose code enqueues tasks use it for every test (an autouse fixture
    in their conftest); tests/play/test_play_turns.py keeps one test through a real worker."""
    saved = celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates
    celery_app.conf.task_always_eager = celery_app.conf.task_eager_propagates = True
    yield
    celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = saved
    # A task sent here cached this thread's result backend (disabled): let later tests that
    # configure one (tests/config/test_celery.py) get theirs.
    celery_app._backend_cache = None
    celery_app._local.__dict__.pop("backend", None)


@pytest.fixture(scope="session", autouse=True)
def threads_give_back_their_connections(
    django_db_setup: None, django_db_blocker: Any
) -> Iterator[None]:
    """Close the connections of threads that outlive the tests before the test database is
    dropped (PostgreSQL refuses to drop a database someone is connected to): asgiref's one
    thread for `sync_to_async`, whose connection nothing closes, and the sockets' view
    builders, which close theirs after each build unless the build ends between tests, where
    pytest-django's blocker makes closing an open connection raise."""
    yield
    with django_db_blocker.unblock():
        SyncToAsync.single_thread_executor.submit(connections.close_all).result()
        each_thread_once = threading.Barrier(VIEW_BUILD_THREADS)

        def close() -> None:
            each_thread_once.wait(timeout=10)
            connections.close_all()

        for closing in [_view_builders.submit(close) for _ in range(VIEW_BUILD_THREADS)]:
            closing.result()


@pytest.fixture(autouse=True)
def fresh_caches() -> Iterator[None]:
    """Each test starts with empty caches: rolled-back rows may come back under the same ids."""
    view_cache.clear()
    state_cache.clear()
    shared_views.socket_seats_forget()
    yield
    view_cache.clear()
    state_cache.clear()
    shared_views.socket_seats_forget()
    cache.clear()


@pytest.fixture(autouse=True)
def fresh_channel_layer() -> Iterator[None]:
    """Each test gets channel layer objects of its own. channels keeps one per process, and
    channels-redis's remembers the receives in flight and their event loop: a test whose socket
    was still receiving when its loop closed (a timeout on a loaded machine) left every later
    test's receive on a lock of that dead loop (CI: "Lock ... is bound to a different event
    loop", four websocket tests in a row)."""
    yield
    channel_layers.backends.clear()


def _skip_or_fail(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"{reason}, but CI=true: CI must test the real services")
    pytest.skip(reason)


@pytest.fixture(autouse=True)
def own_rate_limits(settings: Any) -> None:
    """Each test counts its own rate limits: the cache gets a key prefix of its own (clearing
    a shared Redis database would wipe the channel layer and the broker too)."""
    settings.CACHES = {
        name: {**config, "KEY_PREFIX": uuid.uuid4().hex} for name, config in settings.CACHES.items()
    }


@pytest.fixture
def postgres(db: None) -> None:
    if connection.vendor != "postgresql":
        _skip_or_fail("needs PostgreSQL (set DATABASE_URL)")


@pytest.fixture
def redis_url() -> str:
    if not settings.REDIS_URL:
        _skip_or_fail("needs Redis (set REDIS_URL)")
    return str(settings.REDIS_URL)


_LAYER_FOLDER = pytest.StashKey[str]()
_CACHE_FOLDER = pytest.StashKey[str]()


def pytest_configure(config: pytest.Config) -> None:
    """Give this test run a channel-layer file of its own (the SQLite layer, without Redis).

    The web server and worker processes that tests start inherit it through the environment, so they
    share it with this process; a `make run` or another test run in the same checkout does not.
    """
    backend: dict[str, Any] = settings.CHANNEL_LAYERS["default"]
    if backend["BACKEND"] == "config.channel_layer.SQLiteChannelLayer":
        folder = tempfile.mkdtemp(prefix="channel-layer-")
        config.stash[_LAYER_FOLDER] = folder
        path = os.path.join(folder, "channels.sqlite3")
        os.environ["CHANNEL_LAYER_FILE"] = path
        backend["CONFIG"] = {**backend.get("CONFIG", {}), "path": path}
    # The same for the file cache (without Redis): this run's own, shared with its servers.
    cache: dict[str, Any] = settings.CACHES["default"]
    if cache["BACKEND"] == "django.core.cache.backends.filebased.FileBasedCache":
        folder = tempfile.mkdtemp(prefix="cache-")
        config.stash[_CACHE_FOLDER] = folder
        os.environ["CACHE_DIR"] = cache["LOCATION"] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    for key in (_LAYER_FOLDER, _CACHE_FOLDER):
        if folder := config.stash.get(key, None):
            shutil.rmtree(folder, ignore_errors=True)


_REAL_SERVICE_FIXTURES = {"postgres": "PostgreSQL", "redis_url": "Redis"}
_real_service_tests: dict[str, list[str]] = {}


def pytest_report_header(config: pytest.Config) -> str:
    layer = str(settings.CHANNEL_LAYERS["default"]["BACKEND"]).rsplit(".", 1)[-1]
    database = str(settings.DATABASES["default"]["ENGINE"]).rsplit(".", 1)[-1]
    broker = str(settings.CELERY_BROKER_URL).split(":", 1)[0]
    return f"services: database {database}, channel layer {layer}, broker {broker}"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        used = [name for f, name in _REAL_SERVICE_FIXTURES.items() if f in fixtures]
        if used:
            _real_service_tests[item.nodeid] = used


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Name the tests that really ran on PostgreSQL or Redis (CI's proof that it used them)."""
    passed = [
        (report.nodeid, _real_service_tests[report.nodeid])
        for report in terminalreporter.stats.get("passed", [])
        if report.when == "call" and report.nodeid in _real_service_tests
    ]
    if passed:
        terminalreporter.section("passed on the real services")
        for nodeid, services in passed:
            terminalreporter.write_line(f"{' + '.join(services)}: {nodeid}")
