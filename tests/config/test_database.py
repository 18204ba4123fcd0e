"""PostgreSQL gets each statement's values apart from its text, and a connection prepares the
statements it runs again and again (config/settings.py): PostgreSQL then reuses their plans
instead of parsing, analysing and planning each one anew."""

import psycopg
import pytest
from django.conf import settings
from django.db import connection

from apps.accounts.models import User


@pytest.mark.postgres
def test_a_statement_run_again_and_again_is_prepared_on_postgresql(postgres: None) -> None:
    threshold = settings.DATABASES["default"]["OPTIONS"]["prepare_threshold"]
    for number in range(threshold + 1):
        list(User.objects.filter(username=f"nobody-{number}"))

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s",
            ['%FROM "accounts_user" WHERE "accounts_user"."username" = $1%'],
        )
        (prepared,) = cursor.fetchone()
    assert prepared == 1


@pytest.mark.postgres
def test_values_travel_apart_from_the_statement_on_postgresql(postgres: None) -> None:
    """A value is never spliced into the text (no client-side binding): a quote in it is only a
    character."""
    with connection.cursor() as cursor:
        assert not isinstance(cursor.cursor, psycopg.ClientCursor)
    name = "o'brien\\'; SELECT 1; --"
    User.objects.create_user(username=name, password="a long enough password 1")
    assert User.objects.get(username=name).username == name
