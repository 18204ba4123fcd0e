"""The campaign ledger (issue 21): every purchase, sale, wield, gift and quest end is written by
the service that makes the change, in its transaction, naming who acted; refusals write nothing;
entries are never changed; the campaign page lists them newest first by display name and says
what the campaign's owner may do."""

import html
from typing import Any

import pytest
from django.test import Client

from apps.accounts.models import User
from apps.campaigns import errors, services
from apps.campaigns.models import Campaign, CharacterSheet, LedgerEntry
from apps.campaigns.selectors import MINUS
from apps.quests.models import QuestDefinition
from tests.conftest import PASSWORD, make_user
from tests.play.conftest import client_for

from .conftest import CampaignGame
from .quest_ends import win

pytestmark = pytest.mark.django_db


def sheet(campaign: Campaign, hero: str) -> CharacterSheet:
    return CharacterSheet.objects.get(campaign=campaign, hero=hero, fallen=False)


def played_by(campaign: Campaign, hero: str, player: User, **fields: Any) -> CharacterSheet:
    """The hero's sheet, its player `player` (as a quest's end makes them), with `fields`."""
    CharacterSheet.objects.filter(pk=sheet(campaign, hero).pk).update(owner=player, **fields)
    return sheet(campaign, hero)


def entries(campaign: Campaign) -> list[LedgerEntry]:
    return list(LedgerEntry.objects.filter(campaign=campaign).order_by("id"))


def row(entry: LedgerEntry) -> tuple[Any, ...]:
    return (entry.kind, entry.sheet.hero, entry.actor, entry.item, entry.gold, entry.potions)


@pytest.fixture
def player(campaign: Campaign) -> User:
    return make_user(display_name="Mira of the Marches")


# --- each kind of entry, by the service that makes the change ----------------------------------


def test_a_purchase_is_written_by_the_heros_player(campaign: Campaign, player: User) -> None:
    dwarf = played_by(campaign, "dwarf", player, gold=600)

    services.armory_buy(sheet=dwarf, item="battle_axe", user=player)
    services.armory_buy(sheet=sheet(campaign, "dwarf"), item="helmet", user=player)

    axe, helmet = entries(campaign)
    assert row(axe) == ("purchase", "dwarf", player, "battle_axe", -450, 0)
    assert axe.details == {"how": "wielded"}
    assert row(helmet) == ("purchase", "dwarf", player, "helmet", -125, 0)
    assert helmet.details == {"how": "worn"}
    assert axe.created <= helmet.created


def test_the_owner_buying_for_someone_elses_hero_is_written_as_the_owner(
    campaign: Campaign, owner: User, player: User
) -> None:
    elf = played_by(campaign, "elf", player, gold=100)

    services.armory_buy(sheet=elf, item="dagger", user=owner)

    [entry] = entries(campaign)
    assert row(entry) == ("purchase", "elf", owner, "dagger", -25, 0)
    assert entry.details == {"how": "carried"}  # the shortsword is better: the dagger is carried


def test_a_sale_and_a_wield_are_written(campaign: Campaign, owner: User, player: User) -> None:
    barbarian = played_by(campaign, "barbarian", player, items=["dagger", "shortsword"])

    paid = services.armory_sell(sheet=barbarian, item="dagger", user=owner)
    services.sheet_wield(sheet=sheet(campaign, "barbarian"), weapon="shortsword", user=player)

    sale, wield = entries(campaign)
    assert row(sale) == ("sale", "barbarian", owner, "dagger", paid, 0) and paid == 12
    assert row(wield) == ("wield", "barbarian", player, "shortsword", 0, 0)
    assert wield.details == {"instead_of": "broadsword"}


def test_gifts_of_gold_and_potions_are_written_with_giver_and_taker(
    campaign: Campaign, owner: User, player: User
) -> None:
    barbarian = played_by(campaign, "barbarian", player, gold=60, potions=2)
    dwarf = sheet(campaign, "dwarf")

    services.gold_give(from_sheet=barbarian, to_sheet=dwarf, amount=25, user=owner)
    services.potions_give(from_sheet=barbarian, to_sheet=dwarf, count=1, user=player)

    gold, potion = entries(campaign)
    assert row(gold) == ("gift", "barbarian", owner, "", -25, 0)
    assert row(potion) == ("gift", "barbarian", player, "", 0, -1)
    assert gold.to_sheet == potion.to_sheet == dwarf


def test_a_won_quest_writes_each_heros_reward_and_a_fallen_heros_loss(
    campaign: Campaign, campaign_game: CampaignGame
) -> None:
    game, _ = campaign_game()
    first = str(game.state["turn"]["hero"])
    fallen = next(h for h in ("dwarf", "elf", "wizard") if h != first)
    CharacterSheet.objects.filter(pk=sheet(campaign, fallen).pk).update(gold=15)
    old = sheet(campaign, fallen)

    win(game, fallen=(fallen,), found={first: {"gold": 30, "artifacts": ["Emberbrand"]}})

    by_hero = {e.sheet.hero: e for e in entries(campaign)}
    assert set(by_hero) == {"barbarian", "dwarf", "elf", "wizard"}
    share = 200 // 3  # the Ashen Vault's reward, split between the three survivors
    winner = by_hero[first]
    assert row(winner) == ("reward", first, None, "", 30 + share, 0)
    assert winner.room_id == game.room_id
    assert winner.details["share"] == share and winner.details["outcome"] == "heroes"
    assert winner.details["found"] == ["Emberbrand"] and winner.details["lost"] == []
    lost = by_hero[fallen]
    assert lost.sheet == old and row(lost)[:5] == ("fallen", fallen, None, "", -15)
    assert lost.details["successor"] == sheet(campaign, fallen).name
    assert lost.details["lost"] == [old.weapon]


def test_refusals_and_an_abandoned_quest_write_nothing(
    campaign: Campaign, owner: User, player: User
) -> None:
    wizard = played_by(campaign, "wizard", player, gold=10)
    with pytest.raises(errors.CampaignError):
        services.armory_buy(sheet=wizard, item="cloak", user=owner)
    with pytest.raises(errors.CampaignError):
        services.armory_buy(sheet=wizard, item="staff", user=make_user())  # not a member
    with pytest.raises(errors.CampaignError):
        services.gold_give(from_sheet=wizard, to_sheet=wizard, amount=5, user=owner)
    with pytest.raises(errors.CampaignError):
        services.gold_give(
            from_sheet=wizard, to_sheet=sheet(campaign, "elf"), amount=50, user=owner
        )
    room = services.campaign_room_create(campaign=campaign, host=owner, name="Stuck", seat_count=2)
    services.campaign_record_outcome(
        room=room, outcome="abandoned", heroes={"wizard": {"gold": 99}}, reward_gold=200
    )

    assert entries(campaign) == []


def test_staff_changing_a_sheet_in_the_admin_is_written_by_name(campaign: Campaign) -> None:
    staff = User.objects.create_superuser(username="root", email="r@example.com", password=PASSWORD)
    client = Client()
    client.force_login(staff)
    elf = sheet(campaign, "elf")
    form = {
        "campaign": campaign.pk,
        "hero": "elf",
        "name": elf.name,
        "owner": "",
        "body_max": elf.body_max,
        "mind_max": elf.mind_max,
        "gold": 75,
        "potions": 0,
        "weapon": elf.weapon,
        "armour": "[]",
        "items": '["dagger"]',
        "artifacts": "[]",
        "quests_completed": "[]",
    }

    response = client.post(f"/admin/campaigns/charactersheet/{elf.pk}/change/", form)
    client.post(f"/admin/campaigns/charactersheet/{elf.pk}/change/", form)  # nothing changed

    assert response.status_code == 302
    [entry] = entries(campaign)
    assert row(entry) == ("admin", "elf", staff, "", 75, 0)
    assert entry.details == {"found": ["dagger"], "lost": []}


# --- append-only ---------------------------------------------------------------------------------


def test_the_ledger_is_append_only_but_goes_with_its_campaign(
    campaign: Campaign, owner: User
) -> None:
    barbarian = played_by(campaign, "barbarian", owner, gold=50)
    services.armory_buy(sheet=barbarian, item="dagger", user=owner)
    [entry] = entries(campaign)

    entry.gold = 0
    with pytest.raises(TypeError, match="append-only"):
        entry.save()
    with pytest.raises(TypeError, match="append-only"):
        entry.delete()
    with pytest.raises(TypeError, match="append-only"):
        LedgerEntry.objects.filter(campaign=campaign).delete()
    assert LedgerEntry.objects.get(pk=entry.pk).gold == -25

    owner.delete()  # the owner's campaigns go, and their ledgers with them

    assert not LedgerEntry.objects.filter(pk=entry.pk).exists()


def test_a_deleted_actor_leaves_the_entry(campaign: Campaign, player: User) -> None:
    dwarf = played_by(campaign, "dwarf", player, gold=50)
    services.armory_buy(sheet=dwarf, item="dagger", user=player)

    player.delete()

    [entry] = entries(campaign)
    assert entry.actor is None and entry.item == "dagger"


# --- the campaign page ---------------------------------------------------------------------------


def test_the_campaign_page_shows_the_ledger_newest_first_by_display_name(
    campaign: Campaign, owner: User, player: User, quest: QuestDefinition
) -> None:
    User.objects.filter(pk=owner.pk).update(display_name="Zed the Dungeon Master")
    barbarian = played_by(campaign, "barbarian", player, gold=100, potions=1)
    dwarf = sheet(campaign, "dwarf")
    services.armory_buy(sheet=barbarian, item="dagger", user=player)
    services.gold_give(from_sheet=barbarian, to_sheet=dwarf, amount=20, user=owner)
    services.potions_give(from_sheet=barbarian, to_sheet=dwarf, count=1, user=owner)
    services.armory_sell(sheet=sheet(campaign, "barbarian"), item="dagger", user=owner)

    page = html.unescape(client_for(player).get(f"/campaigns/{campaign.pk}/").content.decode())

    assert (
        "As the campaign's owner, Zed the Dungeon Master can buy, sell and give for any hero; "
        'everything is in <a href="#ledger">the ledger</a>.'
    ) in page
    ledger = page[page.index('id="ledger"') :]
    sale = ledger.index("Sold the dagger to the armory for 12 gold")
    potion = ledger.index("Gave 1 potion of healing to Durin the Dwarf")
    gold = ledger.index("Gave 20 gold to Durin the Dwarf")
    bought = ledger.index("Bought the dagger for 25 gold (carried)")
    assert sale < potion < gold < bought  # newest first
    assert ledger.count("Zed the Dungeon Master") == 3
    assert ledger.count("Mira of the Marches") == 1
    assert owner.username not in ledger and player.username not in ledger  # names, not logins
    assert ledger.count("Brakka the Barbarian") == 4
    assert f"{MINUS}25" in ledger and "+12" in ledger and f"{MINUS}20" in ledger
    owners_view = client_for(owner).get(f"/campaigns/{campaign.pk}/").content.decode()
    assert "As the campaign's owner, Zed the Dungeon Master (you) can buy" in owners_view


def test_the_page_tells_a_quests_end_and_a_fallen_hero(
    campaign: Campaign, campaign_game: CampaignGame
) -> None:
    game, users = campaign_game()
    first = str(game.state["turn"]["hero"])
    fallen = next(h for h in ("dwarf", "elf", "wizard") if h != first)
    old = sheet(campaign, fallen)

    win(game, fallen=(fallen,), found={first: {"gold": 30, "artifacts": ["Emberbrand"]}})

    page = client_for(users[2]).get(f"/campaigns/{campaign.pk}/").content.decode()
    ledger = html.unescape(page[page.index('id="ledger"') :])
    share = 200 // 3
    assert (
        f"Came back from the Ashen Vault (won): +{30 + share} gold ({share} of it the reward); "
        "found Emberbrand"
    ) in ledger
    assert (
        ledger.count(f"Came back from the Ashen Vault (won): +{share} gold (the quest's reward)<")
        == 2
    )
    successor = sheet(campaign, fallen)
    assert (
        f"Fell in the Ashen Vault, losing the {old.weapon}; {successor.name} is the "
        f"party's new {successor.get_hero_display()}"
    ) in ledger
    assert ledger.count("The quest's end") == 4


def test_the_page_shows_fifty_entries_then_the_rest_on_asking(
    campaign: Campaign, owner: User
) -> None:
    barbarian = played_by(campaign, "barbarian", owner, gold=1000)
    for _ in range(26):
        services.armory_buy(sheet=sheet(campaign, "barbarian"), item="dagger", user=owner)
        services.armory_sell(sheet=sheet(campaign, "barbarian"), item="dagger", user=owner)
    assert barbarian.pk and len(entries(campaign)) == 52
    client = client_for(owner)

    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    whole = client.get(f"/campaigns/{campaign.pk}/?ledger=all").content.decode()

    assert page.count('class="ledger-') == 50 and "Show the 2 older entries" in page
    assert whole.count('class="ledger-') == 52 and "older entr" not in whole


def test_an_empty_ledger_says_what_it_will_hold(campaign: Campaign, owner: User) -> None:
    page = client_for(owner).get(f"/campaigns/{campaign.pk}/").content.decode()

    assert "Nothing yet: purchases, sales, gifts and what each quest brings back" in page
