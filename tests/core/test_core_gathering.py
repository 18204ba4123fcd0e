"""A gatherer holds what it is handed for its window, then sends it all in one call (in parts of
at most `most`); a failed send loses only that part; a process sends what it holds on exit."""

import logging
import os
import threading
import time

import pytest

from apps.core.gathering import Gatherer, gatherers_flush


class Recorder:
    def __init__(self, *, fail_first: bool = False) -> None:
        self.sent: list[list[int]] = []
        self.fail_first = fail_first
        self.arrived = threading.Event()

    def __call__(self, items: list[int]) -> None:
        if self.fail_first:
            self.fail_first = False
            raise ConnectionError("the broker is down")
        self.sent.append(items)
        self.arrived.set()


def sent_within(recorder: Recorder, seconds: float = 5.0) -> list[list[int]]:
    assert recorder.arrived.wait(seconds), "nothing was sent"
    return recorder.sent


def test_what_arrives_within_the_window_is_sent_in_one_call() -> None:
    recorder = Recorder()
    gatherer = Gatherer(recorder, window=0.2, most=20, name="test")

    gatherer.add([1, 2])
    gatherer.add([3])

    assert sent_within(recorder) == [[1, 2, 3]]
    assert gatherer.held() == 0


def test_a_burst_larger_than_most_is_sent_in_parts() -> None:
    recorder = Recorder()
    gatherer = Gatherer(recorder, window=10, most=2, name="test")
    gatherer.add([1, 2, 3, 4, 5])

    gatherer.flush()

    assert recorder.sent == [[1, 2], [3, 4], [5]]


def test_a_failed_send_is_logged_and_later_items_are_still_sent(
    caplog: pytest.LogCaptureFixture,
) -> None:
    recorder = Recorder(fail_first=True)
    gatherer = Gatherer(recorder, window=0.01, most=20, name="test")

    with caplog.at_level(logging.ERROR, logger="apps.core.gathering"):
        gatherer.add([1])
        deadline = time.monotonic() + 5
        while gatherer.held() or not caplog.records:
            assert time.monotonic() < deadline, "the failed send was never tried"
            time.sleep(0.01)
        gatherer.add([2])
        assert sent_within(recorder) == [[2]]

    assert "test: 1 items not sent" in caplog.text


def test_flush_sends_what_is_held_at_once_as_a_process_does_on_exit() -> None:
    recorder = Recorder()
    gatherer = Gatherer(recorder, window=60, most=20, name="test")
    gatherer.add([7, 8])

    gatherer.flush()

    assert recorder.sent == [[7, 8]]
    assert gatherer.held() == 0


def test_a_forked_child_starts_empty_and_sends_only_its_own() -> None:
    recorder = Recorder()
    gatherer = Gatherer(recorder, window=60, most=20, name="test")
    gatherer.add([1])

    pid = os.fork()
    if pid == 0:  # the child: the parent's item is not its to send
        held = gatherer.held()
        gatherer.add([2])
        gatherer.flush()
        os._exit(0 if held == 0 and recorder.sent == [[2]] else 1)
    _, status = os.waitpid(pid, 0)

    assert os.waitstatus_to_exitcode(status) == 0
    assert gatherer.held() == 1


def test_every_gatherer_sends_what_it_holds_when_the_process_flushes_them_all() -> None:
    first, second = Recorder(), Recorder()
    Gatherer(first, window=60, most=20, name="first").add([1])
    kept = Gatherer(second, window=60, most=20, name="second")
    kept.add([2, 3])

    gatherers_flush()

    assert first.sent == [[1]]
    assert second.sent == [[2, 3]]
