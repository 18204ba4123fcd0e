"""One base for every app's refusals, each carrying the HTTP status the API answers with.

Services raise a subclass; config/api.py turns any of them into `{"detail": message}` with that
status (one ninja exception handler), and HTML views show `message`. Messages are ones a player
can read and leak nothing hidden.
"""

from __future__ import annotations

from typing import Any


class Refusal(Exception):
    """A request the site refuses; `status` is the HTTP status the API answers with."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def body(self) -> dict[str, Any]:
        """The JSON the API answers with (subclasses add fields the client needs)."""
        return {"detail": self.message}


class Forbidden(Refusal):
    status = 403


class NotFound(Refusal):
    """No such thing, or the user may not see it (existence is not revealed)."""

    status = 404


class Conflict(Refusal):
    """The thing's state does not allow this now."""

    status = 409


class Unprocessable(Refusal):
    """Well-formed, but the rules refuse it."""

    status = 422


class TooMany(Refusal):
    """Too many requests in a short time: wait a little."""

    status = 429
