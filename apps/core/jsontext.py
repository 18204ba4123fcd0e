"""JSON text for the hot paths (seat views, the game state): orjson, json's meaning kept."""

from __future__ import annotations

import json
from typing import Any

import orjson


def json_text(value: Any) -> str:
    """`value` as compact JSON text: orjson's (several times faster than json), or json's for
    what orjson does not encode (integers past 64 bits). Both give the same JSON value: orjson
    writes non-ASCII characters as they are where json escapes them."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(value, separators=(",", ":"))
