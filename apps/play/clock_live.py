"""Every clock change reaches every open page of the game: a pause, a resume, an away player's
clock moving. After commit the game's group gets `{"type": "game.clock"}` (no content); each
socket sends `{"type": "clock"}` and the page fetches its clock bar again (static/js/clock.js).
A new deadline that comes with a new turn needs nothing here: the page follows the turn.
"""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from apps.accounts.models import User
from apps.accounts.services import away_changed
from apps.core.realtime import game_group, poke_on_commit
from apps.play.selectors import game_ids_in_play

CLOCK_MESSAGE = {"type": "game.clock"}


def game_clock_changed(*, game_id: int) -> None:
    """Call inside the transaction that changed the game's clock: its pages redraw it after
    commit (a lost poke costs nothing but a stale clock until the next turn or reload)."""
    poke_on_commit(group=game_group(game_id=game_id), message=CLOCK_MESSAGE)


@receiver(away_changed, dispatch_uid="play.away_moves_clocks")
def _away_moves_clocks(sender: type[User], user: User, **kwargs: Any) -> None:
    for game_id in game_ids_in_play(user=user):
        game_clock_changed(game_id=game_id)
