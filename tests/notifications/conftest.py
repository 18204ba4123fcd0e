"""Notification fixtures: users, and Celery tasks run in-process (eagerly)."""

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.mail import EmailMessage, EmailMultiAlternatives

from apps.accounts.models import User
from config.celery import app

_names = itertools.count(1)


def make_user(username: str | None = None, **fields: Any) -> User:
    username = username or f"reader{next(_names)}"
    user: User = get_user_model().objects.create_user(
        username=username, email=f"{username}@example.com", password="x", **fields
    )
    return user


@pytest.fixture(autouse=True)
def celery_eager() -> Iterator[None]:
    """Tasks enqueued in these tests run in-process; tests/play/test_play_turns.py keeps one
    test that goes through a real worker."""
    saved = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved
    # A task sent here cached this thread's result backend (disabled): let later tests that
    # configure one (tests/config/test_celery.py) get theirs.
    app._backend_cache = None
    app._local.__dict__.pop("backend", None)


def html_part(email: EmailMessage) -> str:
    """The HTML alternative of an email (every notification email has one)."""
    assert isinstance(email, EmailMultiAlternatives)
    [(html, mimetype)] = email.alternatives
    assert mimetype == "text/html"
    return str(html)
