"""Rows written with SQL built once per model and column list (the action path's writes only).

An action appends its log rows and saves its game row. Through the ORM (`bulk_create`,
`save(update_fields=...)`) each write built a query and compiled it again: 13% of a web
process's time under load (py-spy, docs/operations.md "Speed"), more than running the SQL. Here
the statement text is made once per model and columns, from the model's public `_meta` and the
connection's `quote_name`, and each write only turns its values into parameters: through each
field's own `pre_save` and `get_db_prep_save` (so `auto_now` fields, enum values and JSON are
what the ORM writes), JSON text made by orjson (`json_text`).

No signals are sent and no instance gets its new primary key: for rows nobody listens to (the
game's log rows, the game row the action locked).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from django.db import connections, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, JSONField, Model

from apps.core.jsontext import json_text


def _db_value(
    field: Field[Any, Any], instance: Model, connection: BaseDatabaseWrapper, add: bool
) -> Any:
    value = field.pre_save(instance, add)
    if isinstance(field, JSONField) and field.encoder is None and value is not None:
        if connection.vendor == "postgresql":
            from psycopg.types.json import Jsonb  # noqa: PLC0415  (PostgreSQL only)

            return Jsonb(value, dumps=json_text)
        return json_text(value)
    return field.get_db_prep_save(value, connection)


def _column_field(model: type[Model], name: str) -> Field[Any, Any]:
    field = model._meta.get_field(name)
    assert isinstance(field, Field) and field.concrete, f"{name} is not a column of {model}"
    return field


@functools.cache
def _update_sql(model: type[Model], names: tuple[str, ...], vendor: str, alias: str) -> str:
    quote = connections[alias].ops.quote_name
    columns = ", ".join(f"{quote(_column_field(model, name).column)} = %s" for name in names)
    pk = _column_field(model, model._meta.pk.name)
    return f"UPDATE {quote(model._meta.db_table)} SET {columns} WHERE {quote(pk.column)} = %s"


def row_update(instance: Model, fields: Sequence[str]) -> None:
    """`instance.save(update_fields=fields)` in one UPDATE, without signals."""
    alias = router.db_for_write(type(instance), instance=instance)
    connection = connections[alias]
    names = tuple(fields)
    model = type(instance)
    params = [_db_value(_column_field(model, n), instance, connection, False) for n in names]
    params.append(instance.pk)
    sql = _update_sql(type(instance), names, connection.vendor, alias)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _insert_fields(model: type[Model]) -> list[Field[Any, Any]]:
    return [f for f in model._meta.concrete_fields if not f.primary_key]


@functools.cache
def _insert_sql(model: type[Model], rows: int, vendor: str, alias: str) -> str:
    quote = connections[alias].ops.quote_name
    fields = _insert_fields(model)
    columns = ", ".join(quote(f.column) for f in fields)
    row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    values = ", ".join([row] * rows)
    return f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES {values}"


def rows_insert(instances: Sequence[Model]) -> None:
    """`bulk_create(instances)` of one model in one INSERT, without their new primary keys."""
    if not instances:
        return
    model = type(instances[0])
    alias = router.db_for_write(model)
    connection = connections[alias]
    fields = _insert_fields(model)
    params = [_db_value(f, row, connection, True) for row in instances for f in fields]
    sql = _insert_sql(model, len(instances), connection.vendor, alias)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
