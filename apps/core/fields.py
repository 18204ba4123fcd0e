"""Model fields for the hot paths."""

from __future__ import annotations

import json
from typing import Any

import orjson
from django.db import models
from django.db.models.fields.json import KeyTransform


class FastJSONField(models.JSONField):
    """Django's JSONField, its values read by orjson: json's decoder reading a game's state was
    6% of a busy web process's samples, orjson's takes two fifths of its time.

    For columns whose values hold no integer past 64 bits, which orjson reads as a float (json
    reads it exact): a game's state is one (its seed has 63 bits, `game_launch`; the engines keep
    their dice streams in 64). What orjson refuses (NaN, a lone surrogate) json reads as Django
    does.
    """

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if value is None or self.decoder is not None:
            return super().from_db_value(value, expression, connection)
        if isinstance(expression, KeyTransform) and not isinstance(value, str):
            return value  # SQLite extracts a key's non-string values in their SQL types
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:
            pass
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value

    def deconstruct(self) -> Any:
        # The column is Django's JSONField's: migrations see that field, so switching a field
        # to this one (or back) needs no migration, and SQLite rebuilds no table for it.
        name, _path, args, kwargs = super().deconstruct()
        return name, "django.db.models.JSONField", args, kwargs
