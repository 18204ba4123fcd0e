"""Rows written with SQL built once per model and column list (hot paths' writes only).

An action appends its log rows and saves its game row; the worker saves each notification it
delivers, for nearly every turn that passes. Through the ORM (`bulk_create`,
`save(update_fields=...)`) each write built a query and compiled it again: 13% of a web
process's time under load (py-spy, docs/operations.md "Speed"), more than running the SQL. Here
the statement text is made once per model and columns, from the model's public `_meta` and the
connection's `quote_name`, and each write only turns its values into parameters: through each
field's own `pre_save` and `get_db_prep_save` (so `auto_now` fields, enum values and JSON are
what the ORM writes), JSON text made by orjson (`json_text`).

No signals are sent and no instance gets its new primary key: for rows nobody listens to (the
game's log rows, the game row the action locked, a delivered notification's row).
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


def _update_statement(
    instance: Model, fields: Sequence[str], connection: BaseDatabaseWrapper, alias: str
) -> tuple[str, list[Any]]:
    names = tuple(fields)
    model = type(instance)
    params = [_db_value(_column_field(model, n), instance, connection, False) for n in names]
    params.append(instance.pk)
    return _update_sql(model, names, connection.vendor, alias), params


def row_update(instance: Model, fields: Sequence[str]) -> None:
    """`instance.save(update_fields=fields)` in one UPDATE, without signals."""
    alias = router.db_for_write(type(instance), instance=instance)
    connection = connections[alias]
    sql, params = _update_statement(instance, fields, connection, alias)
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


def _insert_statement(
    instances: Sequence[Model], connection: BaseDatabaseWrapper, alias: str
) -> tuple[str, list[Any]]:
    model = type(instances[0])
    fields = _insert_fields(model)
    params = [_db_value(f, row, connection, True) for row in instances for f in fields]
    return _insert_sql(model, len(instances), connection.vendor, alias), params


def rows_insert(instances: Sequence[Model]) -> None:
    """`bulk_create(instances)` of one model in one INSERT, without their new primary keys."""
    if not instances:
        return
    alias = router.db_for_write(type(instances[0]))
    connection = connections[alias]
    sql, params = _insert_statement(instances, connection, alias)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def rows_insert_returning_pks(instances: Sequence[Model]) -> None:
    """`bulk_create(instances)` of one model in one INSERT, each instance given its new primary
    key (as `bulk_create` gives them where the database returns rows: PostgreSQL, SQLite 3.35+;
    elsewhere it is `bulk_create`)."""
    if not instances:
        return
    model = type(instances[0])
    alias = router.db_for_write(model)
    connection = connections[alias]
    if not connection.features.can_return_rows_from_bulk_insert:
        model._default_manager.using(alias).bulk_create(instances)
        return
    sql, params = _insert_statement(instances, connection, alias)
    pk = model._meta.pk
    sql += f" RETURNING {connection.ops.quote_name(pk.column)}"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        keys = [row[0] for row in cursor.fetchall()]
    for instance, key in zip(instances, keys, strict=True):
        instance.pk = key
        instance._state.adding = False
        instance._state.db = alias


def rows_insert_then_update(
    instances: Sequence[Model], instance: Model, fields: Sequence[str]
) -> None:
    """`rows_insert(instances)`, then `row_update(instance, fields)`.

    On PostgreSQL in one statement, the INSERT in a WITH (which runs to completion whether or not
    the UPDATE reads it): one round trip to the database instead of two. Each round trip cost the
    web process about 0.1 ms of CPU, and the database as much again. Elsewhere, one after the
    other.
    """
    alias = router.db_for_write(type(instance), instance=instance)
    connection = connections[alias]
    if (
        not instances
        or connection.vendor != "postgresql"
        or router.db_for_write(type(instances[0])) != alias
    ):
        rows_insert(instances)
        row_update(instance, fields)
        return
    insert_sql, insert_params = _insert_statement(instances, connection, alias)
    update_sql, update_params = _update_statement(instance, fields, connection, alias)
    sql = f"WITH appended AS ({insert_sql}) {update_sql}"
    with connection.cursor() as cursor:
        cursor.execute(sql, insert_params + update_params)
