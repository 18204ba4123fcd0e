"""Shared test fixtures.

Tests that need PostgreSQL or Redis skip on the embedded default, but never when CI=true: CI
exports DATABASE_URL and REDIS_URL, and a skip there would hide a broken service.
"""

import os

import pytest
from django.conf import settings
from django.db import connection

IN_CI = os.environ.get("CI", "").lower() == "true"


def _skip_or_fail(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"{reason}, but CI=true: CI must test the real services")
    pytest.skip(reason)


@pytest.fixture
def postgres(db: None) -> None:
    if connection.vendor != "postgresql":
        _skip_or_fail("needs PostgreSQL (set DATABASE_URL)")


@pytest.fixture
def redis_url() -> str:
    if not settings.REDIS_URL:
        _skip_or_fail("needs Redis (set REDIS_URL)")
    return str(settings.REDIS_URL)
