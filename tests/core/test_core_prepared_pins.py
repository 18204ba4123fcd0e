"""The Django internals `apps.core.prepared` relies on, pinned: an upgrade that moves them fails.

`PreparedQuery` compiles a queryset once and then does, per call, what Django's `ModelIterable`
does with a compiled query: converters as `SQLCompiler.results_iter` finds them (`get_converters`,
once per connection) and applies them (`apply_converters`), the
instance through `Model.from_db`, the `select_related` objects through `get_related_populators`
and `RelatedPopulator.populate`, the annotations through `annotation_col_map`. The shapes it reads
(`klass_info["select_fields"]`, `compiler.select` entries whose first item has `.target.attname`,
`annotation_col_map` of names to columns) are built by `SQLCompiler.get_select`.

When a test here fails after an upgrade: read the named piece of Django on the new version beside
`PreparedQuery.first` / `_prepare`, fix `apps/core/prepared.py` if it no longer matches what
`ModelIterable.__iter__` does, run tests/core/test_core_prepared.py,
tests/play/test_play_prepared_rows.py and tests/play/test_play_costs.py on PostgreSQL, then update
the pins below. The behaviour tests (a prepared query gives what its queryset gives) are in
tests/core/test_core_prepared.py; the action path's own query, its shapes and its row against its
queryset's, in tests/play/test_play_prepared_rows.py.
"""

import hashlib
import inspect
from collections.abc import Callable
from typing import Any

import django
import pytest
from django.db.models import Model, query
from django.db.models.sql.compiler import SQLCompiler

# Checked against this Django (pyproject.toml allows 5.2.x only).
CHECKED_DJANGO = (5, 2)

# sha256 of the source, first 16 hex digits, as of Django 5.2.19.
PINNED: dict[str, tuple[Callable[..., Any] | type, str]] = {
    "django.db.models.query.ModelIterable.__iter__": (
        query.ModelIterable.__iter__,
        "c2a744b8c18e0b4a",
    ),
    "django.db.models.query.get_related_populators": (
        query.get_related_populators,  # type: ignore[attr-defined]
        "979430eb75b93969",
    ),
    "django.db.models.query.RelatedPopulator": (
        query.RelatedPopulator,  # type: ignore[attr-defined]
        "4cc87fb0e18cb0ce",
    ),
    "django.db.models.sql.compiler.SQLCompiler.results_iter": (
        SQLCompiler.results_iter,
        "d279d61b80a3a115",
    ),
    "django.db.models.sql.compiler.SQLCompiler.get_converters": (
        SQLCompiler.get_converters,
        "c6c8c1b71882ee8b",
    ),
    "django.db.models.sql.compiler.SQLCompiler.apply_converters": (
        SQLCompiler.apply_converters,
        "c034ce3e5090aa2e",
    ),
    "django.db.models.sql.compiler.SQLCompiler.get_select": (
        SQLCompiler.get_select,
        "12c5003d7ab4bf35",
    ),
    "django.db.models.Model.from_db": (Model.from_db, "eba347895d11fa79"),
}


def digest(obj: Callable[..., Any] | type) -> str:
    return hashlib.sha256(inspect.getsource(obj).encode()).hexdigest()[:16]


def test_django_is_the_minor_version_prepared_queries_were_checked_against() -> None:
    assert django.VERSION[:2] == CHECKED_DJANGO, (
        f"Django {django.get_version()}: apps/core/prepared.py was checked against "
        f"{CHECKED_DJANGO}; see this file's docstring before raising the pin"
    )


@pytest.mark.parametrize("name", sorted(PINNED))
def test_the_django_code_prepared_queries_imitate_is_unchanged(name: str) -> None:
    obj, pinned = PINNED[name]
    assert digest(obj) == pinned, (
        f"{name} changed in Django {django.get_version()}: check apps/core/prepared.py against "
        "it (this file's docstring says how), then update its pin"
    )


def test_the_signatures_prepared_queries_call_are_unchanged() -> None:
    def parameters(func: Callable[..., Any]) -> list[str]:
        return list(inspect.signature(func).parameters)

    assert parameters(query.get_related_populators) == ["klass_info", "select", "db"]  # type: ignore[attr-defined]
    assert parameters(query.RelatedPopulator.populate) == ["self", "row", "from_obj"]  # type: ignore[attr-defined]
    assert parameters(SQLCompiler.get_converters) == ["self", "expressions"]
    assert parameters(Model.from_db) == ["db", "field_names", "values"]  # a classmethod
