"""Celery tasks of play: the turns sweep (apps/play/turns.py), the AI seat's turns in solo
rooms (apps/play/ai_seat.py) and the seats' standing orders (apps/play/orders.py).

Tasks only translate; the work is in `turns` and `ai_seat`. "Your turn" notifications need no
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
    from apps.play.orders import orders_sweep  # noqa: PLC0415
    from apps.play.turns import turns_sweep  # noqa: PLC0415

    report = turns_sweep().as_dict()
    report["orders"] = orders_sweep()  # standing orders a lost task left waiting
    return report


@shared_task(name="play.ai_seat_play")
def ai_seat_play(game_id: int) -> int:
    """Play the AI seat's turn of a solo game (nothing if it is not its turn)."""
    # ai_seat imports services, which import this module to enqueue: imported at run time.
    from apps.play.ai_seat import ai_seat_play as play  # noqa: PLC0415

    return play(game_id=game_id)


def ai_seat_enqueue(game_id: int) -> None:
    """Enqueue `play.ai_seat_play` (the action service calls this in `transaction.on_commit`)."""
    try:
        ai_seat_play.delay(game_id)
    except Exception:  # the sweep plays a stalled AI turn (ai_seat_sweep) a little later
        logger.exception("could not enqueue the AI of game %s", game_id)


@shared_task(name="play.orders_play")
def orders_play(game_id: int) -> int:
    """Play the standing orders of the seat now to move (nothing if it has none)."""
    # orders imports services, which import this module to enqueue: imported at run time.
    from apps.play.orders import orders_play as play  # noqa: PLC0415

    return play(game_id=game_id)


def orders_enqueue(game_id: int) -> None:
    """Enqueue `play.orders_play` (in `transaction.on_commit`: the action service, the orders
    API). A lost task leaves the orders waiting: the player plays the turn."""
    try:
        orders_play.delay(game_id)
    except Exception:
        logger.exception("could not enqueue the standing orders of game %s", game_id)
