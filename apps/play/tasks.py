"""Celery tasks of play: the turns sweep (apps/play/turns.py).

Tasks only translate; the work is in `turns`. "Your turn" notifications need no task of their
own: the action service writes them into the notifications outbox (apps/play/notices.py).
"""

from __future__ import annotations

from celery import shared_task


@shared_task(name="play.sweep_turns")
def sweep_turns() -> dict[str, list[int]]:
    """Reminders and timeouts of every game in play (Celery beat runs it every minute)."""
    from apps.play.turns import turns_sweep  # turns imports services, which import tasks' app

    return turns_sweep().as_dict()
