"""Why campaigns refuse a request (messages a player can read)."""

from __future__ import annotations

from apps.core.errors import Refusal


class CampaignError(Refusal):
    """A request the rules of campaigns refuse."""

    status = 422


class CampaignNotFound(CampaignError):
    """No such campaign or sheet, or the user may not see it (existence is not revealed)."""

    status = 404
