"""The campaign pages: list, create, the party, next quest, armory and giving gold."""

import pytest
from django.test import Client

from apps.accounts.models import User
from apps.campaigns.models import Campaign, CampaignRoom, CharacterSheet
from apps.quests.models import QuestDefinition
from apps.rooms.models import Room
from tests.conftest import make_user
from tests.play.conftest import client_for

from .conftest import CampaignGame
from .quest_ends import retreat

pytestmark = pytest.mark.django_db


def test_create_a_campaign_and_see_the_party(owner: User, quest: QuestDefinition) -> None:
    client = client_for(owner)
    assert client.get("/campaigns/new").status_code == 200

    response = client.post("/campaigns/new", {"name": "Ember Road"})

    campaign = Campaign.objects.get(name="Ember Road")
    assert response.status_code == 302 and response["Location"] == f"/campaigns/{campaign.pk}/"
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    for s in campaign.sheets.all():
        assert s.name in page and f'id="sheet-{s.hero}"' in page
    assert "Start next quest" in page
    listing = client.get("/campaigns/").content.decode()
    assert "Ember Road" in listing
    assert 'href="/campaigns/"' in listing  # the nav link


def test_strangers_see_nothing(campaign: Campaign) -> None:
    stranger = client_for(make_user())
    sheet = campaign.sheets.first()
    assert sheet is not None
    assert stranger.get(f"/campaigns/{campaign.pk}/").status_code == 404
    assert stranger.get(f"/campaigns/{campaign.pk}/heroes/{sheet.pk}/armory").status_code == 404
    response = stranger.post(
        f"/campaigns/{campaign.pk}/heroes/{sheet.pk}/armory", {"item": "dagger"}
    )
    assert response.status_code == 404
    assert "Lantern" not in stranger.get("/campaigns/").content.decode()
    assert Client().get("/campaigns/").status_code == 302  # to the login page


def test_a_campaign_room_is_joined_by_invite_only(campaign: Campaign, owner: User) -> None:
    """Its seats lead to the party's sheets: a stranger neither sees it in the lobby nor takes
    one of its free seats, and so never reads the sheets; the invited friend does both."""
    client_for(owner).post(f"/campaigns/{campaign.pk}/next", {"name": "Into the vault", "seats": 3})
    room = Room.objects.get(name="Into the vault")
    stranger, friend = client_for(make_user()), client_for(make_user())

    assert "Into the vault" not in stranger.get("/").content.decode()
    assert stranger.get(f"/rooms/{room.pk}/").status_code == 404
    assert stranger.post(f"/rooms/{room.pk}/seats/2/take").status_code == 404
    assert stranger.post(f"/api/rooms/{room.pk}/seats/2").status_code == 404
    assert stranger.get(f"/campaigns/{campaign.pk}/").status_code == 404
    assert not room.seats.filter(user__isnull=False).exists()

    friend.post(f"/rooms/{room.pk}/seats/2/take", {"invite": room.invite_code})
    assert room.seats.get(number=2).user is not None
    assert "The Lantern Company" in friend.get(f"/campaigns/{campaign.pk}/").content.decode()


def test_start_the_next_quest(campaign: Campaign, owner: User) -> None:
    client = client_for(owner)
    response = client.post(f"/campaigns/{campaign.pk}/next", {"name": "Into the vault", "seats": 3})
    room = Room.objects.get(name="Into the vault")
    assert response["Location"] == f"/rooms/{room.pk}/"
    assert CampaignRoom.objects.get(room=room).campaign == campaign
    assert "Into the vault" in client.get(f"/campaigns/{campaign.pk}/").content.decode()


def test_the_armory_page_lists_prices_and_reasons(campaign: Campaign, owner: User) -> None:
    client = client_for(owner)
    wizard = CharacterSheet.objects.get(campaign=campaign, hero="wizard")
    wizard.gold = 120
    wizard.save()
    url = f"/campaigns/{campaign.pk}/heroes/{wizard.pk}/armory"

    page = client.get(url).content.decode()
    assert "Broadsword" in page and "250 gold" in page
    assert "The Wizard cannot wield a broadsword." in page
    assert "3 attack dice; not for the Wizard" in page  # what the broadsword does

    response = client.post(url, {"item": "dagger"})
    assert response.status_code == 302
    assert f"{wizard.name} bought the dagger." in client.get(url).content.decode()  # named
    wizard.refresh_from_db()
    assert (wizard.gold, wizard.items) == (95, ["dagger"])
    client.post(url, {"item": "broadsword"})
    wizard.refresh_from_db()
    assert wizard.gold == 95


def test_give_gold_form(campaign: Campaign, owner: User) -> None:
    client = client_for(owner)
    dwarf = CharacterSheet.objects.get(campaign=campaign, hero="dwarf")
    elf = CharacterSheet.objects.get(campaign=campaign, hero="elf")
    dwarf.gold = 50
    dwarf.save()
    assert f'name="s{dwarf.pk}-amount"' in client.get(f"/campaigns/{campaign.pk}/").content.decode()

    client.post(
        f"/campaigns/{campaign.pk}/heroes/{dwarf.pk}/give",
        {f"s{dwarf.pk}-to_sheet": elf.pk, f"s{dwarf.pk}-amount": 20},
    )

    dwarf.refresh_from_db()
    elf.refresh_from_db()
    assert (dwarf.gold, elf.gold) == (30, 20)


def test_the_admin_lists_campaigns_and_sheets(campaign: Campaign, owner: User) -> None:
    owner.is_staff = owner.is_superuser = True
    owner.save()
    client = client_for(owner)
    assert "Lantern" in client.get("/admin/campaigns/campaign/").content.decode()
    assert client.get(f"/admin/campaigns/campaign/{campaign.pk}/change/").status_code == 200
    assert client.get("/admin/campaigns/charactersheet/").status_code == 200


def test_an_unlaunched_campaign_room_can_be_abandoned_so_the_next_quest_can_start(
    campaign: Campaign, owner: User
) -> None:
    client = client_for(owner)
    client.post(f"/campaigns/{campaign.pk}/next", {"name": "Never launched", "seats": 2})
    stuck = Room.objects.get(name="Never launched")
    refused = client.post(f"/campaigns/{campaign.pk}/next", {"name": "Second try", "seats": 2})
    assert not Room.objects.filter(name="Second try").exists(), refused

    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert "Abandon this room" in page
    response = client.post(f"/campaigns/{campaign.pk}/rooms/{stuck.pk}/abandon")

    assert response.status_code == 302
    assert not CampaignRoom.objects.filter(room=stuck).exists()
    assert not Room.objects.filter(pk=stuck.pk).exists()  # really gone: not left waiting
    client.post(f"/campaigns/{campaign.pk}/next", {"name": "Second try", "seats": 2})
    assert CampaignRoom.objects.filter(room__name="Second try", campaign=campaign).exists()


def test_a_launched_campaign_room_cannot_be_abandoned(
    campaign: Campaign, owner: User, campaign_game: CampaignGame
) -> None:
    game, _ = campaign_game()

    response = client_for(owner).post(f"/campaigns/{campaign.pk}/rooms/{game.room_id}/abandon")

    assert response.status_code == 302
    assert CampaignRoom.objects.filter(room_id=game.room_id).exists()


def test_only_the_campaign_owner_may_abandon_a_room(campaign: Campaign, owner: User) -> None:
    client_for(owner).post(f"/campaigns/{campaign.pk}/next", {"name": "Mine", "seats": 2})
    room = Room.objects.get(name="Mine")
    stranger = client_for(make_user())

    response = stranger.post(f"/campaigns/{campaign.pk}/rooms/{room.pk}/abandon")

    assert response.status_code == 404
    assert CampaignRoom.objects.filter(room=room).exists()


def test_try_again_defaults_to_the_partys_seat_count(
    campaign: Campaign, owner: User, campaign_game: CampaignGame
) -> None:
    game, _ = campaign_game()  # a 2-seat party
    retreat(game)
    page = client_for(owner).get(f"/campaigns/{campaign.pk}/").content.decode()
    assert "Try again" in page
    assert '<option value="2" selected>' in page  # not 5
