"""The Celery application; tasks live in each app's tasks.py."""

import os

from celery import Celery

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


@app.task(name="config.ping")
def ping() -> str:
    """A task that does nothing: lets health checks and tests see a worker consume the broker."""
    return "pong"
