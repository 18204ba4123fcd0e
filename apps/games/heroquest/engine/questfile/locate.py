"""Finding the line of a field in the YAML source, and writing fields and values in messages."""

from __future__ import annotations

from typing import Any

import yaml

from apps.games.heroquest.engine.quest import Square

Loc = tuple[str | int, ...]


class Locator:
    """Maps a field location (e.g. `("doors", 3, "between")`) to a line in the YAML source."""

    def __init__(self, root: yaml.Node | None) -> None:
        self.root = root
        # Each mapping's keys, indexed when first looked up: a lookup per problem would
        # otherwise scan the mapping, and a file with thousands of bad keys took seconds.
        self._keys: dict[int, dict[str, tuple[yaml.Node, yaml.Node]]] = {}

    def _child(self, node: yaml.Node, step: str | int) -> tuple[yaml.Node | None, yaml.Node | None]:
        if not isinstance(node, yaml.MappingNode):
            return child_nodes(node, step)
        keys = self._keys.get(id(node))
        if keys is None:
            keys = {}
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode):
                    keys[key.value] = (key, value)  # the last duplicate wins, as in PyYAML
            self._keys[id(node)] = keys
        return keys.get(str(step), (None, None))

    def node(self, loc: Loc) -> yaml.Node | None:
        node = self.root
        for step in loc:
            node = self._child(node, step)[1] if node is not None else None
        return node

    def line(self, loc: Loc) -> int | None:
        node = self.root
        if node is None:
            return None
        line = node.start_mark.line + 1
        for step in loc:
            key, child = self._child(node, step)
            if child is None:
                break
            line = (key if key is not None else child).start_mark.line + 1
            node = child
        return line


def child_nodes(node: yaml.Node, step: str | int) -> tuple[yaml.Node | None, yaml.Node | None]:
    """The (key node, value node) one step below `node`, or (None, None)."""
    if isinstance(node, yaml.MappingNode):
        found: tuple[yaml.Node | None, yaml.Node | None] = (None, None)
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value == str(step):
                found = (key, value)  # the last duplicate wins, as in PyYAML
        return found
    if (
        isinstance(node, yaml.SequenceNode)
        and isinstance(step, int)
        and 0 <= step < len(node.value)
    ):
        return None, node.value[step]
    return None, None


def field_name(loc: Loc) -> str:
    out = ""
    for step in loc:
        if isinstance(step, int):
            out += f"[{step}]"
        else:
            out += f".{step}" if out else str(step)
    return out


def shown(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, bool | int | float):
        return str(value).lower() if isinstance(value, bool) else str(value)
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def sq(square: Square) -> str:
    return f"({square[0]}, {square[1]})"
