"""The links a host shares, unguessable: game ids are sequential, and walking them must lead
nowhere (issue 22).

- The spectators' link of an invite-only room (`/games/watch/<Game.watch_token>/`): a logged-in
  person who opens it while the room lets spectators watch is recorded as the game's watcher
  (`GameWatcher`) and from then on watches it like any spectator, at `/games/<id>/`, its API and
  its socket, until the host switches spectators off. A listed room's game needs no link: the
  lobby lists it. Without the link the game's id answers a stranger 404, as a missing game.
- The public replay's link (`/replays/<Game.replay_token>/`): anyone, logged in or not, watches
  the replay with it once the quest is over and while the host keeps it public. A running game,
  a private replay and a wrong token all answer the same 404: nothing says which.

Members keep their own URLs (`/games/<id>/`, `/games/<id>/replay/`).
"""

from __future__ import annotations

from django.db import IntegrityError, transaction

from apps.play.errors import GameNotFound
from apps.play.models import Game, GameWatcher
from apps.play.selectors import AnyUser
from apps.rooms.services import room_member_seat

NO_SUCH_REPLAY = "There is no such replay."


def game_watch_by_link(*, token: str, user: AnyUser) -> Game:
    """The game whose spectators' link this is, `user` recorded as its watcher (members are
    simply members). GameNotFound for a wrong token, or while the room lets nobody watch."""
    game = Game.objects.select_related("room").filter(watch_token=token).first()
    if game is None or not user.is_authenticated:
        raise GameNotFound("There is no such game.")
    if room_member_seat(room=game.room, user=user) is not None:
        return game
    if not game.room.allow_spectators:
        raise GameNotFound("There is no such game.")
    try:
        with transaction.atomic():
            GameWatcher.objects.get_or_create(game=game, user=user)
    except IntegrityError:  # the same person's two tabs at once: recorded by the other
        pass
    return game


def game_by_replay_link(*, token: str) -> Game:
    """The finished game whose public replay this link is (GameNotFound otherwise, the same
    answer for a running game, a private replay and a wrong token)."""
    game = Game.objects.select_related("room").filter(replay_token=token).first()
    if game is None or not game.replay_public or not game.outcome:
        raise GameNotFound(NO_SUCH_REPLAY)
    return game
