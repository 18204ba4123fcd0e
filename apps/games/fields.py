"""The field names of a game state's dataclasses, found once per class.

Both engines write and copy their states by walking their dataclasses' fields by hand, after
every action; `dataclasses.fields()` builds its tuple anew at every call, a third of storing a
HeroQuest state.
"""

from __future__ import annotations

from dataclasses import fields

_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def field_names(cls: type) -> tuple[str, ...]:
    """The names of dataclass `cls`'s fields, in order."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return names
