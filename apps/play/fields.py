"""A JSON column that keeps the document exactly as written, object key order included."""

import json
from typing import TYPE_CHECKING, Any

from django.db import models
from django.db.backends.base.base import BaseDatabaseWrapper

if TYPE_CHECKING:
    _Field = models.Field[Any, Any]
else:
    _Field = models.Field


class OrderedJSONField(_Field):
    """JSON stored as text.

    PostgreSQL's jsonb (Django's JSONField) sorts object keys, but the engine's state is only
    lossless with its key order: its dicts iterate in insertion order (which monster of a room is
    revealed first, and so gets the lower public id). Text keeps the order on every database, so
    a game loaded from the row plays on exactly as its replay from the log does.
    """

    def get_internal_type(self) -> str:
        return "TextField"

    def from_db_value(self, value: Any, expression: Any, connection: BaseDatabaseWrapper) -> Any:
        return None if value is None else json.loads(value)

    def to_python(self, value: Any) -> Any:
        return json.loads(value) if isinstance(value, str) else value

    def get_prep_value(self, value: Any) -> Any:
        return None if value is None else json.dumps(value, separators=(",", ":"))

    def value_to_string(self, obj: models.Model) -> str:
        return json.dumps(self.value_from_object(obj))
