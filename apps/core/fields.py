"""Model fields for the hot paths."""

from __future__ import annotations

import json
from typing import Any

import orjson
from django import forms
from django.db import models
from django.db.models.query_utils import DeferredAttribute

from apps.core.jsontext import json_text


class JSONText(str):
    """A JSON value's text as the database gave it, not decoded yet: what a `JSONTextField`
    attribute holds until it is first read, and what `values()` gives."""

    __slots__ = ()


def stored_json_text(instance: models.Model, attname: str) -> str | None:
    """The text `instance`'s `JSONTextField` `attname` was read as, if the value has not been
    read since (so it is exactly what the row holds); else None."""
    value = instance.__dict__.get(attname)
    return value if type(value) is JSONText else None


class _DecodedOnRead(DeferredAttribute):
    """A `JSONTextField`'s attribute: the row's text kept as it came, decoded on first read."""

    def __get__(self, instance: Any, cls: Any = None) -> Any:
        if instance is None:
            return self
        value = super().__get__(instance, cls)
        if type(value) is JSONText:
            value = JSONTextField.decode(value)
            instance.__dict__[self.field.attname] = value
        return value

    def __set__(self, instance: Any, value: Any) -> None:
        instance.__dict__[self.field.attname] = value


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

    Decoded when the attribute is first read, not when the row is: until then the instance
    holds the row's text (`JSONText`, `stored_json_text`), which a reader that knows the value
    already compares instead of decoding 16 KB (apps/play/state_cache.py), and which a save
    writes back as it came. `values()` gives that text.
    """

    descriptor_class = _DecodedOnRead

    description = "A JSON value, kept as text"
    # What django-stubs types a model's attribute by: any JSON value, as for its JSONField.
    _pyi_private_set_type: Any
    _pyi_private_get_type: Any

    def get_prep_value(self, value: Any) -> Any:
        if value is None:
            return None
        if type(value) is JSONText:
            return str(value)  # the row's text, never decoded: it goes back as it came
        return json_text(value)

    def pre_save(self, model_instance: models.Model, add: bool) -> Any:
        text = stored_json_text(model_instance, self.attname)
        return super().pre_save(model_instance, add) if text is None else text

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        return None if value is None else JSONText(value)

    @staticmethod
    def decode(text: str) -> Any:
        """The value `text` holds, read as Django's JSONField reads it; text that is not JSON
        comes back as it is."""
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            return str(text)

    def to_python(self, value: Any) -> Any:
        return value

    def value_to_string(self, obj: Any) -> Any:
        return self.value_from_object(obj)

    def formfield(self, **kwargs: Any) -> Any:  # type: ignore[override]
        return models.Field.formfield(self, form_class=forms.JSONField, **kwargs)
