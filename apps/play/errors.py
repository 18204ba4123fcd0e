"""Why play refuses a request: one exception class per answer, each with its HTTP status.

Every message is one a player can read, and leaks nothing hidden.
"""

from __future__ import annotations

from typing import Any

from apps.core.errors import Refusal


class PlayError(Refusal):
    """A refused request; `status` is the HTTP status the API answers with."""

    status = 400


class GameNotFound(PlayError):
    """No such game or room, or the user is not a member (existence is not revealed)."""

    status = 404


class LaunchRefused(PlayError):
    """The room cannot be launched now (not full, already launched)."""

    status = 409


class NotHost(PlayError):
    status = 403


class MalformedAction(PlayError):
    """The action JSON or the idempotency key is malformed."""

    status = 400


class NotYourTurn(PlayError):
    """The seat may not send this action: not its turn, not its hero, or Zargon's only."""

    status = 403


class SpectatorsOnlyWatch(PlayError):
    """A spectator tried to act or to speak: they watch, read-only."""

    status = 403


class ActionRejected(PlayError):
    """The engine refused the action; `message` is the engine's reason."""

    status = 422


class StaleVersion(PlayError):
    """The client's expected version is not the game's; it should fetch the view again."""

    status = 409

    def __init__(self, current_version: int) -> None:
        super().__init__(
            f"The game has moved on to version {current_version}: fetch the view and try again."
        )
        self.current_version = current_version

    def body(self) -> dict[str, Any]:
        return {**super().body(), "version": self.current_version}


class ChatRefused(PlayError):
    """A chat message the table does not take: empty or too long (`message` says which)."""

    status = 422


class NotTheNarrator(PlayError):
    """Only Zargon's player speaks as the narrator."""

    status = 403


class ChatTooFast(PlayError):
    """Too many chat messages in a short time: wait a little."""

    status = 429


class TableRefused(PlayError):
    """A pause, resume, seat change or ending that the game's state does not allow now."""

    status = 409


class ReplayBroken(PlayError):
    """The log no longer replays from its seed (`manage.py verify_quest` says where)."""

    status = 409


class OrdersRefused(PlayError):
    """Standing orders the game refuses (each problem in a player's words), or a game that
    takes none."""

    status = 422
