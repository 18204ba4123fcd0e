"""A queryset compiled to SQL once per database, then run with other values (hot paths only).

Building and compiling a queryset with subqueries costs far more Python than running it: the
row an action locks (the game, its room, the acting seat, the heroes' settings and any stored
answer, in one statement) took a quarter of a web process's CPU under load just to be built and
compiled, every action. `PreparedQuery` builds the queryset once with placeholder values,
compiles it, notes which SQL parameters are the placeholders, and from then on only swaps the
values in, runs the SQL and builds the instance the way Django's ModelIterable does (converters,
`select_related` objects, annotations).

Only for querysets whose SQL does not depend on the values (no `__in` lists, no None turned into
IS NULL): the placeholders must each appear as parameters, or preparing fails loudly, and a
value must be of its placeholder's type. A datetime placeholder (compared with a DateTimeField)
is found and filled as the backend adapts it (`adapt_datetimefield_value`: text on SQLite).

The converters of the row's columns are found once per connection (as `results_iter` finds them
on every call, through `get_converters`) and applied as `apply_converters` applies them: finding
them was a tenth of the action's lock query, Python's part of it, on every action.

It reads Django internals (the compiler's `klass_info`, `select`, `col_count` and
`annotation_col_map`, `get_converters`, `get_related_populators`):
tests/core/test_core_prepared_pins.py pins their source and signatures, so a Django upgrade that
moves them fails there, loudly, with what to check; tests/play/test_play_prepared_rows.py
compares each prepared row (the action path's, the view GET's, the sockets') with its queryset's.
"""

from __future__ import annotations

import copy
import functools
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar

from django.db import connections, transaction
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators  # type: ignore[attr-defined]
from django.db.models.sql.compiler import SQLCompiler

M = TypeVar("M", bound=Model)


class PreparationError(Exception):
    """The queryset's SQL cannot be reused with other values."""


@dataclass(frozen=True)
class _Compiled(Generic[M]):
    model: type[M]
    compiler: SQLCompiler
    sql: str
    params: tuple[Any, ...]
    slots: tuple[str | None, ...]  # per SQL parameter: the placeholder it stands for, or None
    # per SQL parameter: how a value for its placeholder becomes the parameter (None: no slot)
    adapters: tuple[Callable[[Any], Any] | None, ...]
    init_list: tuple[str, ...]
    fields_start: int
    fields_end: int
    populators: tuple[Any, ...]
    annotations: tuple[tuple[str, int], ...]
    locks: bool


# Per converted column: its position, its converters, its expression.
_Converters = tuple[tuple[int, tuple[Callable[..., Any], ...], Any], ...]


def _converted(row: tuple[Any, ...], converters: _Converters, connection: Any) -> list[Any]:
    """The row with its columns' values converted, as `SQLCompiler.apply_converters` does."""
    values = list(row)
    for position, functions, expression in converters:
        value = values[position]
        for function in functions:
            value = function(value, expression, connection)
        values[position] = value
    return values


def _selected(compiler: SQLCompiler) -> list[Any]:
    """The row's columns' expressions, as `SQLCompiler.results_iter` takes them."""
    assert compiler.select is not None  # set by as_sql
    return [column[0] for column in compiler.select[0 : compiler.col_count]]


class PreparedQuery(Generic[M]):
    """`build(**values)` -> a queryset of one model; `first(**values)` runs it prepared, or
    `all(**values)` for a query made with `many=True` (compiled without `first`'s LIMIT 1).

    `placeholders` gives each value a stand-in that appears nowhere else in the SQL's parameters
    (a negative id, a key no client can send): its positions are where the real values go.
    """

    def __init__(
        self, build: Callable[..., QuerySet[M]], *, many: bool = False, **placeholders: Any
    ) -> None:
        self._build = build
        self._many = many
        self._placeholders = placeholders
        self._compiled: dict[str, _Compiled[M]] = {}
        # Per connection (one a thread), gone with it: nothing kept refers to it.
        self._converters: weakref.WeakKeyDictionary[Any, _Converters] = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()

    def first(self, *, using: str = "default", **values: Any) -> M | None:
        """The first row for these values, as `build(**values).first()` would give it."""
        if self._many:
            raise PreparationError("A query prepared with many=True gives all its rows.")
        rows = self._rows(using, values, many=False)
        return self._instance(rows[0], using) if rows else None

    def all(self, *, using: str = "default", **values: Any) -> list[M]:
        """Every row for these values, as `list(build(**values))` would give them."""
        if not self._many:
            raise PreparationError("A query prepared for `first` gives one row: use many=True.")
        return [self._instance(row, using) for row in self._rows(using, values, many=True)]

    def _rows(self, using: str, values: dict[str, Any], *, many: bool) -> list[tuple[Any, ...]]:
        compiled = self._compiled_for(using)
        if compiled.locks and not connections[using].in_atomic_block:
            # What QuerySet.select_for_update checks: a lock outside a transaction is no lock.
            raise PreparationError("A locking query must run inside a transaction.")
        slots = zip(compiled.slots, compiled.adapters, compiled.params, strict=True)
        params = [
            p if name is None or adapt is None else adapt(values[name]) for name, adapt, p in slots
        ]
        with connections[using].cursor() as cursor:
            cursor.execute(compiled.sql, params)
            if many:
                return cursor.fetchall()
            row = cursor.fetchone()
            return [] if row is None else [row]

    def _instance(self, row: tuple[Any, ...], using: str) -> M:
        """The model instance of `row`, its related objects and annotations set, as Django's
        ModelIterable builds it."""
        compiled = self._compiled_for(using)
        connection = connections[using]
        converted = _converted(row, self._converters_for(compiled, connection), connection)
        obj = compiled.model.from_db(
            using, compiled.init_list, converted[compiled.fields_start : compiled.fields_end]
        )
        for populator in compiled.populators:
            populator.populate(converted, obj)
        for name, position in compiled.annotations:
            setattr(obj, name, converted[position])
        return obj

    def _converters_for(self, compiled: _Compiled[M], connection: Any) -> _Converters:
        """The row's converters on `connection` (this thread's), found once per connection as
        `SQLCompiler.results_iter` finds them on every call: a backend's converters are its
        connection's."""
        found = self._converters.get(connection)
        if found is None:
            compiler = copy.copy(compiled.compiler)
            compiler.connection = connection
            by_position = compiler.get_converters(_selected(compiler))
            found = tuple((pos, tuple(c), e) for pos, (c, e) in by_position.items())
            self._converters[connection] = found
        return found

    def _compiled_for(self, using: str) -> _Compiled[M]:
        compiled = self._compiled.get(using)
        if compiled is None:
            with self._lock:
                compiled = self._compiled.get(using) or self._prepare(using)
                self._compiled[using] = compiled
        return compiled

    def _prepare(self, using: str) -> _Compiled[M]:
        built = self._build(**self._placeholders)
        queryset = built if self._many else built[:1]
        compiler = queryset.query.get_compiler(using=using)
        # Django refuses to compile a locking query outside a transaction; `first` checks that.
        with transaction.atomic(using=using, savepoint=False):
            sql, params = compiler.as_sql()
        ops = connections[using].ops
        slots = tuple(self._slot_of(p, ops) for p in params)
        adapters = tuple(
            None if name is None else _adapter(self._placeholders[name], p, ops)
            for name, p in zip(slots, params, strict=True)
        )
        missing = set(self._placeholders) - set(slots)
        if missing:
            raise PreparationError(f"Placeholders not among the SQL's parameters: {missing}")
        klass_info = compiler.klass_info
        assert klass_info is not None and compiler.select is not None  # set by as_sql
        if compiler.has_composite_fields(_selected(compiler)):
            raise PreparationError("Composite fields are not supported.")
        select_fields = klass_info["select_fields"]
        start, end = select_fields[0], select_fields[-1] + 1
        return _Compiled(
            model=queryset.model,
            compiler=compiler,
            sql=sql,
            params=tuple(params),
            slots=slots,
            adapters=adapters,
            init_list=tuple(f[0].target.attname for f in compiler.select[start:end]),
            fields_start=start,
            fields_end=end,
            populators=tuple(get_related_populators(klass_info, compiler.select, using)),
            annotations=tuple(compiler.annotation_col_map.items()),
            locks=queryset.query.select_for_update,
        )

    def _slot_of(self, param: Any, ops: Any) -> str | None:
        for name, placeholder in self._placeholders.items():
            if isinstance(param, type(placeholder)) and param == placeholder:
                return name
            if isinstance(placeholder, datetime) and param == _as_datetime_param(placeholder, ops):
                return name
        return None


def _as_datetime_param(value: datetime, ops: Any) -> Any:
    """A datetime as the backend passes it compared with a DateTimeField (SQLite: as text)."""
    return ops.adapt_datetimefield_value(value)


def _adapter(placeholder: Any, param: Any, ops: Any) -> Callable[[Any], Any]:
    """How a value for `placeholder` becomes its SQL parameter `param`: a datetime as the
    backend adapts it; anything else keeps the parameter's own type (PostgreSQL's compiler
    wraps ints: Int4...)."""
    if isinstance(placeholder, datetime):
        return functools.partial(_as_datetime_param, ops=ops)
    return type(param)
