"""Solo play: the AI sits in the game's AI seat of rooms created with `ai_seat="ai"` (HeroQuest:
the monster AI plays Zargon).

When the seat's turn comes, the action service enqueues `play.ai_seat_play` after the commit; it
plays the seat's turn at once with `ai_seat_play`: each action the game's AI picks (the face's
`ai_action`, always one of the legal actions) goes through the action service as a system
action, one transaction each, so every action is announced on its own and the players' boards
move step by step. A short pause between actions (`AI_STEP_SECONDS`) lets a browser draw each
step.

Each action is keyed by (game, version) and sent with the version it was chosen in, so a second
runner (a duplicate task, or the sweep's safety net in `ai_seat_stalled_games`) either replays
the same receipt or finds the game moved on: the turn is played once.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from apps.play.errors import ActionRejected, PlayError, StaleVersion
from apps.play.models import Game
from apps.play.selectors import game_face_of, game_state_in_play
from apps.play.services import game_system_act, system_key
from apps.rooms.models import Room

logger = logging.getLogger(__name__)

# An AI turn is a few dozen actions; this only stops a runaway loop.
MAX_AI_ACTIONS = 1000
# The sweep restarts the AI of a solo game whose AI turn waited this long (a lost task).
STALLED_AFTER = timedelta(minutes=2)


def _ai_game(game_id: int) -> Game | None:
    """The game if its AI seat is to move now, in a solo room in play."""
    game = Game.objects.select_related("room").filter(pk=game_id).first()
    if game is None or game.room.status != Room.Status.PLAYING or game.outcome:
        return None
    ai_seat = game.room.ai_seat_number
    return game if ai_seat is not None and game.to_move == [ai_seat] else None


def ai_seat_play(*, game_id: int, pause: float | None = None) -> int:
    """Play the AI seat's turn of a solo game, action by action; how many actions were played.

    Does nothing unless the game is a solo room's and its AI seat is to move. `pause` (default
    `settings.AI_STEP_SECONDS`) is the wait between two actions.
    """
    pause = settings.AI_STEP_SECONDS if pause is None else pause
    game = _ai_game(game_id)
    state: Any = None if game is None else game_state_in_play(game=game)
    played = 0
    for _ in range(MAX_AI_ACTIONS):
        if game is None or game.outcome:
            break
        seat = game.room.ai_seat_number
        if seat is None or game.to_move != [seat]:
            break
        action = game_face_of(game).ai_action(state, seat)
        if action is None:
            break
        if played and pause > 0:
            time.sleep(pause)  # let the boards draw the last step before the next one
        try:
            applied = game_system_act(
                game_id=game.pk,
                seat=seat,
                action=action,
                expected_version=game.version,
                key=system_key(kind="ai", game_id=game.pk, version=game.version),
            )
        except StaleVersion:  # another runner moved the game on: look again
            game = _ai_game(game_id)
            state = None if game is None else game_state_in_play(game=game)
            continue
        except ActionRejected as exc:  # the AI only picks legal actions: a bug if reached
            logger.error("game %s: the AI's %s was refused: %s", game.pk, action, exc)
            break
        except PlayError as exc:
            logger.warning("game %s: the AI stopped: %s", game.pk, exc.message)
            break
        if applied.state is None:  # a replayed key: another runner played it; look again
            game = _ai_game(game_id)
            state = None if game is None else game_state_in_play(game=game)
            continue
        game, state = applied.game, applied.state
        played += 1
    return played


def ai_seat_stalled_games(*, now: datetime) -> QuerySet[Game]:
    """Solo games whose AI turn should have been played by now (its task was lost)."""
    return Game.objects.filter(
        outcome="",
        paused_at__isnull=True,  # the host paused it: the sweep leaves it alone
        room__status=Room.Status.PLAYING,
        room__ai_seat=Room.AiSeat.AI,
        turn_started__lt=now - STALLED_AFTER,
    )


def ai_seat_sweep(*, now: datetime | None = None) -> list[int]:
    """Play the AI turns that solo games are stuck in; the ids of the games played."""
    now = now or timezone.now()
    played = []
    for game_id in list(ai_seat_stalled_games(now=now).values_list("pk", flat=True)):
        if ai_seat_play(game_id=game_id, pause=0):
            played.append(game_id)
    return played
