"""Model fields for the hot paths."""

from __future__ import annotations

import json
from typing import Any

import orjson
from django import forms
from django.db import models

from apps.core.jsontext import json_text


class JSONTextField(models.TextField):
    """A JSON value kept in a text column: for values written and read whole, never queried.

    A game's 16 KB state is rewritten by every action and read back by the next. In a jsonb
    column PostgreSQL parsed it on every write and printed it again on every read: per update
    and read of a state, 1.6-1.7 ms of PostgreSQL's time against 0.95 ms as text
    (docs/operations.md "Speed"). As text it goes in as orjson writes it (`json_text`) and
    comes back as it went in, object keys in their order.

    Read by orjson, several times faster than json. So it is for values with no integer past
    64 bits, which orjson reads as a float where json reads it exact: a game's state is one (its
    seed has 63 bits, `game_launch`; the engines keep their dice streams in 64). What orjson
    refuses (NaN, a lone surrogate) json reads; text that is not JSON comes back as it is.

    Like Django's JSONField, a value is the decoded JSON: `to_python` and the serializers
    (dumpdata, loaddata) pass it through as it is, and a form edits it as JSON.
    """

    description = "A JSON value, kept as text"
    # What django-stubs types a model's attribute by: any JSON value, as for its JSONField.
    _pyi_private_set_type: Any
    _pyi_private_get_type: Any

    def get_prep_value(self, value: Any) -> Any:
        return None if value is None else json_text(value)

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if value is None:
            return None
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:
            pass
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value

    def to_python(self, value: Any) -> Any:
        return value

    def value_to_string(self, obj: Any) -> Any:
        return self.value_from_object(obj)

    def formfield(self, **kwargs: Any) -> Any:  # type: ignore[override]
        return models.Field.formfield(self, form_class=forms.JSONField, **kwargs)
