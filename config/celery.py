"""The Celery application; tasks live in each app's tasks.py."""

import os

from celery import Celery
from celery.signals import worker_process_shutdown

from apps.core.gathering import gatherers_flush

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("ashen_vault")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.on_after_configure.connect
def _ensure_filesystem_broker_folders(sender: Celery, **kwargs: object) -> None:
    """The embedded (filesystem) broker needs its folders before a worker or producer starts."""
    options = sender.conf.broker_transport_options or {}
    for key in ("data_folder_in", "data_folder_out", "processed_folder", "control_folder"):
        if folder := options.get(key):
            os.makedirs(folder, exist_ok=True)


@worker_process_shutdown.connect
def _send_what_the_child_gathered(**kwargs: object) -> None:
    """A worker's child leaves with `os._exit`, past `atexit`: what it gathered for other
    processes (turn notices its tasks committed, apps/core/gathering.py) goes out now rather than
    waiting for the outbox's sweep."""
    gatherers_flush()


@app.task(name="config.ping")
def ping() -> str:
    """A task that does nothing: lets health checks and tests see a worker consume the broker."""
    return "pong"
