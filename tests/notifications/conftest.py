"""Notification fixtures: Celery tasks run in-process (eagerly), and reading emails."""

import pytest
from django.core.mail import EmailMessage, EmailMultiAlternatives


@pytest.fixture(autouse=True)
def tasks_run_eagerly(celery_eager: None) -> None:
    """Tasks enqueued in these tests run in-process (tests/conftest.py)."""


def html_part(email: EmailMessage) -> str:
    """The HTML alternative of an email (every notification email has one)."""
    assert isinstance(email, EmailMultiAlternatives)
    [(html, mimetype)] = email.alternatives
    assert mimetype == "text/html"
    return str(html)
