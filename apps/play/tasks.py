"""Celery tasks of play: telling players their turn came, the turns sweep (apps/play/turns.py),
and the monster AI's Zargon phases in solo rooms (apps/play/zargon_ai.py).

Tasks only translate (JSON arguments in, a service call); the work is in `turns`.
"""

from __future__ import annotations

import logging
from datetime import datetime

from celery import shared_task
from django.utils.dateparse import parse_datetime

logger = logging.getLogger(__name__)


@shared_task(name="play.turn_passed")
def turn_passed(game_id: int, version: int, turn_started: str | None) -> int:
    """Notify the players now to move in `game_id` (or everyone of the outcome)."""
    from apps.play.turns import turn_notify  # turns imports services, which enqueues this task

    started = parse_datetime(turn_started) if turn_started else None
    return turn_notify(game_id=game_id, version=version, turn_started=started)


@shared_task(name="play.zargon_ai_play")
def zargon_ai_play(game_id: int) -> int:
    """Play Zargon's phase of a solo game with the monster AI (nothing if it is not his turn)."""
    from apps.play.zargon_ai import zargon_ai_play as play  # it imports services, which enqueue

    return play(game_id=game_id)


@shared_task(name="play.sweep_turns")
def sweep_turns() -> dict[str, list[int]]:
    """Reminders and timeouts of every game in play (Celery beat runs it every minute)."""
    from apps.play.turns import turns_sweep

    return turns_sweep().as_dict()


def turn_passed_enqueue(game_id: int, version: int, turn_started: datetime | None) -> None:
    """Enqueue `play.turn_passed` (the action service calls this in `transaction.on_commit`)."""
    try:
        turn_passed.delay(game_id, version, turn_started.isoformat() if turn_started else None)
    except Exception:  # the action is committed; a broker outage only costs the notification
        logger.exception("could not enqueue the turn notification of game %s", game_id)


def zargon_ai_enqueue(game_id: int) -> None:
    """Enqueue `play.zargon_ai_play` (the action service calls this in `transaction.on_commit`)."""
    try:
        zargon_ai_play.delay(game_id)
    except Exception:  # the sweep plays a stalled solo phase (zargon_ai_sweep) a little later
        logger.exception("could not enqueue the monster AI of game %s", game_id)
