"""The character-sheet admin checks a sheet with the engine's own tables (as the armory checks a
player's purchase), and a launch refuses a sheet stored with what the engine cannot play, in words
(409), never with a 500 (issue 22)."""

from typing import Any

import pytest
from django.test import Client

from apps.accounts.models import User
from apps.campaigns import services
from apps.campaigns.models import Campaign, CharacterSheet
from apps.rooms.services import room_seat_take
from tests.conftest import PASSWORD, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client() -> Client:
    User.objects.create_superuser(username="root", email="root@example.com", password=PASSWORD)
    client = Client()
    client.force_login(User.objects.get(username="root"))
    return client


def sheet_form(sheet: CharacterSheet, **changes: Any) -> dict[str, Any]:
    data = {
        "campaign": sheet.campaign_id,
        "hero": sheet.hero,
        "name": sheet.name,
        "owner": "",
        "body_max": sheet.body_max,
        "mind_max": sheet.mind_max,
        "gold": sheet.gold,
        "potions": sheet.potions,
        "weapon": sheet.weapon,
        "armour": "[]",
        "items": "[]",
        "artifacts": "[]",
        "quests_completed": "[]",
    }
    return {**data, **changes}


def save(client: Client, sheet: CharacterSheet, **changes: Any) -> Any:
    return client.post(
        f"/admin/campaigns/charactersheet/{sheet.pk}/change/", sheet_form(sheet, **changes)
    )


def barbarian(campaign: Campaign) -> CharacterSheet:
    return campaign.sheets.get(hero="barbarian")


def test_the_sheet_admin_refuses_an_unknown_weapon_and_says_which(
    admin_client: Client, campaign: Campaign
) -> None:
    sheet = barbarian(campaign)

    response = save(admin_client, sheet, weapon="excalibur")

    assert response.status_code == 200  # the form again, with its errors
    assert "Unknown weapon &#x27;excalibur&#x27; (weapons: " in response.content.decode()
    sheet.refresh_from_db()
    assert sheet.weapon == "broadsword"


@pytest.mark.parametrize(
    ("field", "value", "shown"),
    [
        ("items", '["banana"]', "Unknown carried item &#x27;banana&#x27;"),
        ("armour", '["tinfoil"]', "Unknown armour &#x27;tinfoil&#x27;"),
        ("armour", '"helmet"', "Armour must be a list of armour names"),
        ("artifacts", '["Holy Grail"]', "Unknown artifact &#x27;Holy Grail&#x27;"),
    ],
)
def test_the_sheet_admin_refuses_what_the_engine_does_not_know(
    admin_client: Client, campaign: Campaign, field: str, value: str, shown: str
) -> None:
    sheet = barbarian(campaign)

    response = save(admin_client, sheet, **{field: value})

    assert response.status_code == 200
    assert shown in response.content.decode()
    sheet.refresh_from_db()
    assert getattr(sheet, field) == []


def test_the_sheet_admin_refuses_what_this_hero_may_not_use(
    admin_client: Client, campaign: Campaign
) -> None:
    wizard = campaign.sheets.get(hero="wizard")

    response = save(admin_client, wizard, weapon="battle_axe")

    assert "The Wizard cannot wield a battle_axe." in response.content.decode()


def test_the_sheet_admin_saves_what_the_engine_plays(
    admin_client: Client, campaign: Campaign
) -> None:
    sheet = barbarian(campaign)

    response = save(
        admin_client, sheet, weapon="battle_axe", armour='["helmet"]', items='["dagger"]', gold=40
    )

    assert response.status_code == 302
    sheet.refresh_from_db()
    assert (sheet.weapon, sheet.armour, sheet.items, sheet.gold) == (
        "battle_axe",
        ["helmet"],
        ["dagger"],
        40,
    )


def test_a_launch_with_a_bad_stored_sheet_is_refused_in_words_not_500(
    campaign: Campaign, owner: User
) -> None:
    CharacterSheet.objects.filter(campaign=campaign, hero="barbarian").update(
        weapon="excalibur", items=["banana"]
    )
    room = services.campaign_room_create(campaign=campaign, host=owner, name="Next", seat_count=2)
    player = make_user()
    room_seat_take(room_id=room.pk, user=owner, number=1)
    room_seat_take(room_id=room.pk, user=player, number=2, invite_code=room.invite_code)
    host = Client()
    host.force_login(owner)

    api = host.post(f"/api/rooms/{room.pk}/launch")
    page = host.post(f"/rooms/{room.pk}/launch", follow=True)

    assert api.status_code == 409
    detail = api.json()["detail"]
    assert detail.startswith("Brakka's character sheet cannot start a quest: unknown weapon")
    assert "unknown carried item 'banana'" in detail
    assert "An administrator must correct the sheet first." in detail
    assert page.status_code == 200
    assert "cannot start a quest" in page.content.decode()
    room.refresh_from_db()
    assert room.status == "open"
