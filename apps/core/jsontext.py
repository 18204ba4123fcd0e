"""JSON text for the hot paths (seat views, the game state): orjson, json's meaning kept."""

from __future__ import annotations

import dataclasses
import json
import threading
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

import orjson


def _orjson(value: Any) -> bytes:
    """orjson's text of `value`, dicts with keys other than strings included (as json writes
    them). Tried first without OPT_NON_STR_KEYS: that option slows every dict, and the states
    and views hold string keys only (HeroQuest's state and Zargon's view a third faster)."""
    try:
        return orjson.dumps(value)
    except TypeError:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def json_text(value: Any) -> str:
    """`value` as compact JSON text: orjson's (several times faster than json), or json's for
    what orjson does not encode (integers past 64 bits). Both give the same JSON value: orjson
    writes non-ASCII characters as they are where json escapes them. Tuples are written as
    lists, and a dataclass instance as its fields (`GameFace.state_for_text`)."""
    try:
        return _orjson(value).decode()
    except TypeError:
        return json.dumps(value, separators=(",", ":"), default=_fields)


def json_read_back(value: Any) -> Any:
    """`value` as its JSON text reads back (tuples become lists, keys strings): what a JSON
    column gives back. Through orjson both ways (six times faster than json for an event), or
    json's for what orjson does not encode (integers past 64 bits, which orjson would read back
    as floats)."""
    try:
        return orjson.loads(_orjson(value))
    except TypeError:
        return json.loads(json.dumps(value))


def _fields(value: Any) -> dict[str, Any]:
    """A dataclass instance as orjson writes one whose attributes are its fields."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    raise TypeError(f"{type(value).__name__} is not JSON")


class SharedParts:
    """The JSON text of values that many documents share, encoded once per value.

    A game may hand the same object to many seat views while it stays the same (HeroQuest's map:
    27 KB of Zargon's 40 KB view, unchanged by most actions), and never changes it once handed
    out. Such a value's text is kept by the object's identity: the kept entry holds the object,
    so its id is not reused while the entry lives, and the text is exactly what encoding it again
    would give. Least recently used dropped first; thread-safe (request threads share it).
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._texts: OrderedDict[int, tuple[Any, orjson.Fragment]] = OrderedDict()
        self._lock = threading.Lock()

    def fragment(self, value: Any) -> orjson.Fragment:
        """`value`'s JSON text as a fragment orjson writes as it is (TypeError as `orjson.dumps`
        for what orjson does not encode)."""
        key = id(value)
        with self._lock:
            kept = self._texts.get(key)
            if kept is not None and kept[0] is value:
                self._texts.move_to_end(key)
                return kept[1]
        fragment = orjson.Fragment(_orjson(value))
        with self._lock:
            self._texts[key] = (value, fragment)
            self._texts.move_to_end(key)
            while len(self._texts) > self.size:
                self._texts.popitem(last=False)
        return fragment

    def clear(self) -> None:
        with self._lock:
            self._texts.clear()

    def __len__(self) -> int:
        return len(self._texts)


# Two shared parts a game at most (HeroQuest's map as Zargon and as the heroes see it), for the
# 128 games a process keeps states of (apps/play/state_cache.py).
shared_parts = SharedParts(size=256)


def json_text_sharing(value: dict[str, Any], shared: Iterable[str]) -> str:
    """`json_text(value)`, with the values under the keys `shared` written from `shared_parts`
    (values a game shares and never changes; `GameFace.shared_view_parts`)."""
    swapped = dict(value)
    try:
        for key in shared:
            if isinstance(swapped.get(key), dict | list):
                swapped[key] = shared_parts.fragment(swapped[key])
        return _orjson(swapped).decode()
    except TypeError:
        return json_text(value)
