"""The watchers read a view frame's version from its head (tests/load/loadtest.py)."""

from __future__ import annotations

import pytest

from apps.play.view_cache import SeatView
from tests.load.loadtest import frame_version


def view_frame(version: int) -> bytes:
    view = SeatView(game_id=7, seat=1, version=version, json='{"round":2,"log":["é"]}')
    return view.frame().encode()


@pytest.mark.parametrize("check", [False, True])
def test_a_view_frame_as_the_site_sends_it_gives_its_version(check: bool) -> None:
    assert frame_version(view_frame(1234), check=check) == 1234


def test_a_frame_that_is_not_a_view_gives_none() -> None:
    assert frame_version(b'{"type":"chat","message":{"text":"hello"}}') is None
    assert frame_version(b'{"type":"error","detail":"slow down"}') is None


def test_a_view_frame_written_another_way_is_read_whole() -> None:
    assert frame_version(b'{"type": "view", "version": 3, "view": {"round": 1}}') == 3


def test_a_checked_frame_whose_body_disagrees_with_its_head_stops_the_watcher() -> None:
    lying = b'{"type":"view","version":5,"view":{},"version":6}'

    assert frame_version(lying) == 5
    with pytest.raises(AssertionError, match="version"):
        frame_version(lying, check=True)
