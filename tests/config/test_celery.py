import os
import uuid
from collections.abc import Iterator

import pytest
from celery.contrib.testing.worker import start_worker
from celery.signals import worker_process_shutdown
from django.conf import settings

from apps.core.gathering import Gatherer
from config.celery import app, ping


@pytest.fixture
def worker() -> Iterator[str]:
    # A real worker thread consuming the configured broker (the filesystem transport by default,
    # Redis when REDIS_URL is set); results come back through an in-process backend. It listens
    # on a queue of its own: a dev worker (make run) or another test run on the same broker
    # would otherwise take the task and the result would never come back here.
    queue = f"test-ping-{uuid.uuid4().hex[:12]}"
    app.conf.result_backend = "cache+memory://"
    forget_the_backend()
    try:
        with start_worker(
            app, pool="solo", perform_ping_check=False, shutdown_timeout=10, queues=[queue]
        ):
            yield queue
    finally:
        app.conf.result_backend = None
        forget_the_backend()


def forget_the_backend() -> None:
    # Celery builds its result backend once and keeps it (per thread, or app-wide when it is
    # thread safe): an earlier test that touched `app.backend` would leave the disabled one.
    app._backend_cache = None
    app._local.__dict__.pop("backend", None)


def test_a_real_worker_runs_a_task_sent_through_the_broker(worker: str) -> None:
    result = ping.apply_async(ignore_result=False, queue=worker)

    assert result.get(timeout=20) == "pong"


def test_the_broker_is_redis_when_redis_url_is_set(redis_url: str) -> None:
    assert settings.CELERY_BROKER_URL == redis_url
    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1)
        assert conn.transport_cls in ("redis", "rediss") or "redis" in conn.as_uri()


def test_a_worker_child_sends_what_it_gathered_as_it_stops() -> None:
    # Billiard's children leave with os._exit, past atexit: the signal is their last word.
    sent: list[list[int]] = []
    gatherer = Gatherer(sent.append, window=60, most=20, name="test")
    gatherer.add([41, 42])

    worker_process_shutdown.send(sender=None, pid=os.getpid(), exitcode=0)

    assert sent == [[41, 42]]
    assert gatherer.held() == 0
