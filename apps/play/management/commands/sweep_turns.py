"""`manage.py sweep_turns`: one sweep of reminders and timeouts, the same code the beat runs.

Safe to run any time, and twice: each reminder and timeout happens once (apps/play/turns.py).
"""

import json
from typing import Any

from django.core.management.base import BaseCommand

from apps.play.tasks import sweep_turns


class Command(BaseCommand):
    help = "Send the reminders that are due and end the turns past their deadline (one sweep)."

    def handle(self, *args: Any, **options: Any) -> None:
        report = sweep_turns()  # the task's own body, run here rather than through the broker
        self.stdout.write(json.dumps(report, sort_keys=True))
