"""Solo play: the monster AI sits in Zargon's seat of rooms created with `zargon="ai"`.

When the heroes' turns are over, the action service enqueues `play.zargon_ai_play` after the
commit; it plays Zargon's phase at once with `zargon_ai_play`: each action the AI picks
(the engine's `ai`, always one of the legal actions) goes through `quest_apply_action` as a
system
action, one transaction each, so every action is announced on its own and the players' boards
move monster by monster, step by step. A short pause between actions (`ZARGON_AI_STEP_SECONDS`)
lets a browser draw each step.

Each action is keyed by (game, version) and sent with the version it was chosen in, so a second
runner (a duplicate task, or the sweep's safety net in `zargon_ai_stalled_games`) either replays the
same receipt or finds the game moved on: the phase is played once.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from apps.games.heroquest import engine as rules
from apps.games.heroquest.engine.ai import next_monster_action
from apps.games.heroquest.engine.data import ZARGON_SEAT
from apps.play.errors import ActionRejected, PlayError, StaleVersion
from apps.play.models import Game
from apps.play.selectors import game_state
from apps.play.services import quest_apply_action, system_key
from apps.rooms.models import Room

logger = logging.getLogger(__name__)

# A Zargon phase is a few dozen actions; this only stops a runaway loop.
MAX_AI_ACTIONS = 1000
# The sweep restarts the AI of a solo game whose Zargon phase waited this long (a lost task).
STALLED_AFTER = timedelta(minutes=2)


def _ai_game(game_id: int) -> Game | None:
    """The game if the AI is to move in it now: a solo room in play, Zargon's phase."""
    game = Game.objects.select_related("room").filter(pk=game_id).first()
    if (
        game is None
        or not game.room.zargon_is_ai
        or game.room.status != Room.Status.PLAYING
        or game.outcome
    ):
        return None
    return game


def zargon_ai_play(*, game_id: int, pause: float | None = None) -> int:
    """Play Zargon's phase of a solo game, action by action; how many actions were played.

    Does nothing unless the game is a solo room's and it is Zargon's turn to move. `pause` (default
    `settings.ZARGON_AI_STEP_SECONDS`) is the wait between two actions.
    """
    pause = settings.ZARGON_AI_STEP_SECONDS if pause is None else pause
    played = 0
    for _ in range(MAX_AI_ACTIONS):
        game = _ai_game(game_id)
        if game is None:
            break
        state = game_state(game=game)
        if rules.seats_to_move(state) != [ZARGON_SEAT]:
            break
        action = next_monster_action(state)
        if action is None:
            break
        if played and pause > 0:
            time.sleep(pause)  # let the boards draw the last step before the next one
        try:
            quest_apply_action(
                game_id=game.pk,
                seat=ZARGON_SEAT,
                action=rules.action_to_json(action),
                expected_version=game.version,
                key=system_key(kind="ai", game_id=game.pk, version=game.version),
                system=True,
            )
        except StaleVersion:
            continue  # another runner moved the game on: look again
        except ActionRejected as exc:  # the AI only picks legal actions: a bug if reached
            logger.error("game %s: the AI's %s was refused: %s", game.pk, action, exc)
            break
        except PlayError as exc:
            logger.warning("game %s: the AI stopped: %s", game.pk, exc.message)
            break
        played += 1
    return played


def zargon_ai_stalled_games(*, now: datetime) -> QuerySet[Game]:
    """Solo games whose Zargon phase should have been played by now (its task was lost)."""
    return Game.objects.filter(
        outcome="",
        paused_at__isnull=True,  # the host paused it: the sweep leaves it alone
        room__status=Room.Status.PLAYING,
        room__zargon=Room.Zargon.AI,
        turn_started__lt=now - STALLED_AFTER,
    )


def zargon_ai_sweep(*, now: datetime | None = None) -> list[int]:
    """Play the Zargon phases that solo games are stuck in; the ids of the games played."""
    now = now or timezone.now()
    played = []
    for game_id in list(zargon_ai_stalled_games(now=now).values_list("pk", flat=True)):
        if zargon_ai_play(game_id=game_id, pause=0):
            played.append(game_id)
    return played
