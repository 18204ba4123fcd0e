"""A busy process runs at most REQUEST_RUNNING requests at once (config/request_threads.py)."""

import threading
import time

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import override_settings

from config.request_threads import RunningRequestsCap


@override_settings(REQUEST_RUNNING=2)
def test_requests_past_the_cap_wait_their_turn_and_are_all_answered() -> None:
    running, most = 0, 0
    lock = threading.Lock()

    def view(request: HttpRequest) -> HttpResponse:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        time.sleep(0.05)
        with lock:
            running -= 1
        return HttpResponse("ok")

    cap = RunningRequestsCap(view)
    answers: list[int] = []
    threads = [
        threading.Thread(target=lambda: answers.append(cap(HttpRequest()).status_code))
        for _ in range(6)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert answers == [200] * 6
    assert most == 2


def test_a_request_that_fails_gives_its_turn_back() -> None:
    def broken(request: HttpRequest) -> HttpResponse:
        raise RuntimeError("the view failed")

    cap = RunningRequestsCap(broken)
    for _ in range(10):  # more than REQUEST_RUNNING: each failure gave its turn back
        with pytest.raises(RuntimeError):
            cap(HttpRequest())
    assert cap.turns.acquire(blocking=False)
