"""JSON text for the hot paths (apps/core/jsontext.py): a part many documents share is encoded
once, and every document reads exactly as if encoded whole."""

import dataclasses
import gc
import json
import weakref
from typing import Any

import orjson
import pytest

from apps.core.jsontext import (
    SharedParts,
    json_read_back,
    json_text,
    json_text_sharing,
    shared_parts,
)


class Part(list[int]):
    """A list that can be watched with a weak reference."""


def test_a_shared_part_is_encoded_once_and_written_as_encoding_it_again_would() -> None:
    parts = SharedParts(size=4)
    board = {"squares": [{"x": 1, "y": 2, "walls": "NE"}], "name": "Ashen Vault"}

    first = parts.fragment(board)
    assert parts.fragment(board) is first
    assert json.loads(orjson.dumps(first)) == board


def test_an_equal_value_that_is_another_object_gets_text_of_its_own() -> None:
    parts = SharedParts(size=4)
    board, other = {"open": False}, {"open": False}

    assert parts.fragment(board) is not parts.fragment(other)
    assert len(parts) == 2


def test_a_kept_part_is_held_so_its_identity_is_never_taken_by_another_value() -> None:
    parts = SharedParts(size=4)
    value = Part([1, 2, 3])
    watched = weakref.ref(value)
    parts.fragment(value)
    del value
    gc.collect()

    assert watched() is not None  # alive while kept: no new value can have its id


def test_at_most_the_set_number_of_parts_are_kept_the_least_recently_used_dropped() -> None:
    parts = SharedParts(size=2)
    a, b, c = Part([1]), Part([2]), Part([3])
    text_of_a = parts.fragment(a)
    parts.fragment(b)
    parts.fragment(a)  # used again: b is now the oldest
    parts.fragment(c)

    assert len(parts) == 2
    assert parts.fragment(a) is text_of_a


def test_a_document_with_shared_parts_reads_as_the_document_encoded_whole() -> None:
    shared_parts.clear()
    board = {"squares": [{"x": x, "walls": "N"} for x in range(5)], "title": "Trial — ünïcode"}
    view = {"seat": 2, "map": board, "log": [{"text": "A door opens."}], "outcome": None}

    for _ in range(2):  # the first builds the part's text, the second reuses it
        assert json_text_sharing(view, {"map", "absent"}) == json_text(view)


def test_only_the_named_parts_and_only_objects_and_lists_are_shared() -> None:
    shared_parts.clear()
    view = {"map": {"width": 26}, "log": [1, 2], "seat": 3, "round": 4}

    json_text_sharing(view, {"map", "seat"})

    assert len(shared_parts) == 1  # the map: the log is not named, the seat is a number


def test_a_value_orjson_does_not_encode_falls_back_to_json_text() -> None:
    view = {"map": {"seed": 2**70}, "seat": 1}

    assert json.loads(json_text_sharing(view, {"map"})) == view


@dataclasses.dataclass
class Piece:
    name: str
    square: tuple[int, int]


def test_a_dataclass_is_written_as_its_fields_and_a_tuple_as_a_list_by_either_encoder() -> None:
    small = {"pieces": [Piece("elf", (3, 4))], "seed": 7}
    big = {"pieces": [Piece("elf", (3, 4))], "seed": 2**70}  # past orjson: json writes it
    written = [{"name": "elf", "square": [3, 4]}]

    assert json.loads(json_text(small)) == {"pieces": written, "seed": 7}
    assert json.loads(json_text(big)) == {"pieces": written, "seed": 2**70}


def test_what_is_not_json_still_fails_to_encode() -> None:
    with pytest.raises(TypeError):
        json_text({"when": object()})


def test_keys_other_than_strings_are_written_as_json_writes_them_on_every_path() -> None:
    shared_parts.clear()
    counts = {1: "one", 2.5: "two and a half", False: "no", None: "none"}
    view = {"map": {3: [1, 2]}, "counts": counts, "seat": 1}
    as_json = json.dumps(view, separators=(",", ":"))

    assert json.loads(json_text(view)) == json.loads(as_json)
    assert json.loads(json_text_sharing(view, {"map"})) == json.loads(as_json)
    assert json.loads(orjson.dumps(shared_parts.fragment(view["map"]))) == {"3": [1, 2]}


def test_a_document_of_string_keys_reads_the_same_with_or_without_orjsons_key_option() -> None:
    view = {"seat": 2, "map": {"squares": [{"x": 1, "walls": "NE"}]}, "title": "Trïal"}

    assert json_text(view) == orjson.dumps(view, option=orjson.OPT_NON_STR_KEYS).decode()


@pytest.mark.parametrize(
    "value",
    [
        {"type": "move", "path": [(1, 2), (3, 4)], "dice": [], "redacted": None, "seq": 7},
        {"seat": 2, "action": {"type": "end_turn", "hero": "elf"}, "system": False},
        {1: "one", False: "no", None: "none"},
        ["Zargon\u2019s lair", 2**40, -3, 1.5, False],
        {"huge": 2**70, "path": ((1, 2),)},
    ],
)
def test_a_value_read_back_is_what_json_reads_back(value: Any) -> None:
    assert json_read_back(value) == json.loads(json.dumps(value))


def test_an_integer_past_64_bits_reads_back_whole() -> None:
    assert json_read_back({"n": 2**70 + 1})["n"] == 2**70 + 1
