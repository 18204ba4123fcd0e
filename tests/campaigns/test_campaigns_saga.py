"""The campaign runs the saga (docs/rules.md 12): its quests in order, each done, next or locked;
only the next one may start; a lost or retreated quest stays next and is tried again."""

import pytest

from apps.accounts.models import User
from apps.campaigns import errors, selectors, services
from apps.campaigns.models import Campaign
from apps.games.heroquest.engine.saga import saga_quests
from tests.play.conftest import client_for

from .conftest import CampaignGame
from .quest_ends import lose, retreat, win

pytestmark = pytest.mark.django_db

SAGA = ["ashen_vault", "smoke_warrens", "sealed_forge", "cinder_throne"]


def statuses(campaign: Campaign) -> dict[str, str]:
    return {step.slug: step.status for step in selectors.campaign_saga(campaign=campaign)}


def test_a_new_campaign_starts_the_saga_at_its_first_quest(campaign: Campaign) -> None:
    saga = selectors.campaign_saga(campaign=campaign)

    assert [step.slug for step in saga] == SAGA == [q.slug for q in saga_quests()]
    assert statuses(campaign) == {
        "ashen_vault": "next",
        "smoke_warrens": "locked",
        "sealed_forge": "locked",
        "cinder_throne": "locked",
    }
    next_quest = selectors.campaign_next_quest(campaign=campaign)
    assert next_quest is not None and next_quest.slug == "ashen_vault"


def test_a_won_quest_is_done_and_unlocks_the_next(
    campaign: Campaign, campaign_game: CampaignGame
) -> None:
    game, _ = campaign_game()
    assert game.room.quest.slug == "ashen_vault"

    win(game)

    assert list(statuses(campaign).values()) == ["done", "next", "locked", "locked"]
    game2, _ = campaign_game()  # no quest named: the next one
    assert game2.room.quest.slug == "smoke_warrens"


def test_a_locked_quest_cannot_be_chosen(campaign: Campaign, owner: User) -> None:
    with pytest.raises(errors.CampaignError, match=r"locked.*first complete “The Ashen Vault”"):
        services.campaign_room_create(
            campaign=campaign, host=owner, name="Too soon", seat_count=2, quest_slug="sealed_forge"
        )
    with pytest.raises(errors.CampaignError, match="not part of the campaign's saga"):
        services.campaign_room_create(
            campaign=campaign, host=owner, name="Elsewhere", seat_count=2, quest_slug="nowhere"
        )
    assert not campaign.rooms.exists()


def test_a_done_quest_cannot_be_chosen_again(
    campaign: Campaign, owner: User, campaign_game: CampaignGame
) -> None:
    win(campaign_game()[0])

    with pytest.raises(errors.CampaignError, match="already completed “The Ashen Vault”"):
        services.campaign_room_create(
            campaign=campaign, host=owner, name="Again", seat_count=2, quest_slug="ashen_vault"
        )


def test_a_lost_quest_stays_next_and_is_tried_again(
    campaign: Campaign, campaign_game: CampaignGame
) -> None:
    game, _ = campaign_game()

    lose(game)

    assert statuses(campaign)["ashen_vault"] == "next"
    assert campaign.sheets.filter(fallen=True).count() == 4  # all four replaced
    retry, _ = campaign_game()
    assert retry.room.quest.slug == "ashen_vault"
    win(retry)
    step = selectors.campaign_saga(campaign=campaign)[0]
    assert step.status == "done"
    assert [r.campaign_link.outcome for r in step.tries] == ["zargon", "heroes"]


def test_a_retreat_ends_the_quest_without_reward_and_it_is_tried_again(
    campaign: Campaign, campaign_game: CampaignGame
) -> None:
    game, _ = campaign_game()

    retreat(game, found={"dwarf": {"gold": 40}})

    assert statuses(campaign)["ashen_vault"] == "next"
    sheets = {s.hero: s for s in campaign.sheets.filter(fallen=False)}
    assert {h: s.gold for h, s in sheets.items()} == {
        "barbarian": 0,
        "dwarf": 40,  # found gold is kept, there is no reward
        "elf": 0,
        "wizard": 0,
    }
    assert all(s.quests_completed == [] for s in sheets.values())
    assert campaign_game()[0].room.quest.slug == "ashen_vault"


def test_the_last_quest_done_completes_the_saga(
    campaign: Campaign, owner: User, campaign_game: CampaignGame
) -> None:
    for _ in SAGA:
        win(campaign_game()[0])

    assert set(statuses(campaign).values()) == {"done"}
    assert selectors.campaign_next_quest(campaign=campaign) is None
    with pytest.raises(errors.CampaignError, match="completed every quest"):
        services.campaign_room_create(campaign=campaign, host=owner, name="More", seat_count=2)


def test_the_campaign_page_shows_the_saga_and_starts_the_next_quest(
    campaign: Campaign, owner: User, campaign_game: CampaignGame
) -> None:
    win(campaign_game()[0])
    client = client_for(owner)

    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()

    for slug, status in statuses(campaign).items():
        assert f'<li id="quest-{slug}" class="saga-{status}">' in page
    assert 'name="quest" value="smoke_warrens"' in page
    refused = client.post(
        f"/campaigns/{campaign.pk}/next",
        {"name": "Skip ahead", "seats": 2, "quest": "cinder_throne"},
        follow=True,
    )
    assert "is locked" in refused.content.decode()
    assert not campaign.rooms.filter(room__name="Skip ahead").exists()

    response = client.post(
        f"/campaigns/{campaign.pk}/next", {"name": "Into the smoke", "seats": 2, "quest": ""}
    )

    link = campaign.rooms.get(room__name="Into the smoke")
    assert link.room.quest.slug == "smoke_warrens"
    assert response["Location"] == f"/rooms/{link.room_id}/"
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert "Go to Into the smoke" in page


def test_a_retried_quest_offers_to_try_again(
    campaign: Campaign, owner: User, campaign_game: CampaignGame
) -> None:
    retreat(campaign_game()[0])

    page = client_for(owner).get(f"/campaigns/{campaign.pk}/").content.decode()

    assert "Try again" in page and "retreated" in page


def test_the_campaign_list_says_where_each_party_stands(
    campaign: Campaign, owner: User, campaign_game: CampaignGame
) -> None:
    client = client_for(owner)
    assert "next: The Ashen Vault (chapter 1)" in client.get("/campaigns/").content.decode()

    win(campaign_game()[0])

    assert "next: The Smoke Warrens (chapter 2)" in client.get("/campaigns/").content.decode()
