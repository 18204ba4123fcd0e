"""Campaign fixtures: the play fixtures (users, the Ashen Vault row) and a campaign."""

from collections.abc import Callable
from typing import Any

import pytest

from apps.accounts.models import User
from apps.campaigns import services
from apps.campaigns.models import Campaign
from apps.play.models import Game
from apps.play.services import game_launch
from apps.quests.models import QuestDefinition
from apps.quests.services import quest_sync_shipped
from apps.rooms.services import room_seat_take
from tests.conftest import make_user
from tests.play.conftest import quest  # noqa: F401  (a fixture)


@pytest.fixture(autouse=True)
def tasks_run_eagerly(celery_eager: None) -> None:
    """Launches and quest ends enqueue notifications; they run in-process (tests/conftest.py)."""


@pytest.fixture
def owner(db: None) -> User:
    return make_user()


@pytest.fixture
def campaign(owner: User, quest: QuestDefinition) -> Campaign:  # noqa: F811
    quest_sync_shipped()  # the rest of the saga: the Smoke Warrens, the Sealed Forge, ...
    return services.campaign_create(owner=owner, name="The Lantern Company")


CampaignGame = Callable[..., tuple[Game, dict[int, User]]]


@pytest.fixture
def campaign_game(campaign: Campaign, owner: User) -> CampaignGame:
    """Launch the campaign's next quest in a 2-seat room: the owner is Zargon, seat 2 the heroes."""

    def make(player: User | None = None, seed: int = 1, **_: Any) -> tuple[Game, dict[int, User]]:
        room = services.campaign_room_create(
            campaign=campaign, host=owner, name="Next quest", seat_count=2
        )
        player = player or make_user()
        room_seat_take(room_id=room.pk, user=owner, number=1)
        # A campaign room seats strangers by its invite only.
        room_seat_take(room_id=room.pk, user=player, number=2, invite_code=room.invite_code)
        return game_launch(room_id=room.pk, user=owner, seed=seed), {1: owner, 2: player}

    return make
