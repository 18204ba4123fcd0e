"""Celery tasks of play: the turns sweep (apps/play/turns.py) and the monster AI's Zargon phases
in solo rooms (apps/play/zargon_ai.py).

Tasks only translate; the work is in `turns` and `zargon_ai`. "Your turn" notifications need no
task of their own: the action service writes them into the notifications outbox
(apps/play/notices.py).
"""

from __future__ import annotations

import logging

from celery import shared_task

logger = logging.getLogger(__name__)


@shared_task(name="play.sweep_turns")
def sweep_turns() -> dict[str, list[int]]:
    """Reminders and timeouts of every game in play (Celery beat runs it every minute)."""
    # Services import this module to enqueue; the work is imported when the task runs.
    from apps.play.turns import turns_sweep  # noqa: PLC0415

    return turns_sweep().as_dict()


@shared_task(name="play.zargon_ai_play")
def zargon_ai_play(game_id: int) -> int:
    """Play Zargon's phase of a solo game with the monster AI (nothing if it is not his turn)."""
    # zargon_ai imports services, which import this module to enqueue: imported at run time.
    from apps.play.zargon_ai import zargon_ai_play as play  # noqa: PLC0415

    return play(game_id=game_id)


def zargon_ai_enqueue(game_id: int) -> None:
    """Enqueue `play.zargon_ai_play` (the action service calls this in `transaction.on_commit`)."""
    try:
        zargon_ai_play.delay(game_id)
    except Exception:  # the sweep plays a stalled solo phase (zargon_ai_sweep) a little later
        logger.exception("could not enqueue the monster AI of game %s", game_id)
