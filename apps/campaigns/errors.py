"""Why campaigns refuse a request (messages a player can read)."""

from __future__ import annotations


class CampaignError(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class CampaignNotFound(CampaignError):
    """No such campaign or sheet, or the user may not see it (existence is not revealed)."""
