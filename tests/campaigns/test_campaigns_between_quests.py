"""Between quests (docs/rules.md 10 and 12): the armory buys back at half price, a hero picks the
weapon it wields, and heroes give each other gold and potions. Refusals change nothing."""

import pytest

from apps.accounts.models import User
from apps.campaigns import errors, selectors, services
from apps.campaigns.models import Campaign, CharacterSheet
from apps.games.heroquest.engine.data import ARMOUR, TOOL_KIT_PRICE, WEAPONS
from apps.play.selectors import game_seat_view
from tests.conftest import make_user
from tests.play.conftest import client_for

from .conftest import CampaignGame
from .quest_ends import lose

pytestmark = pytest.mark.django_db


def sheet(campaign: Campaign, hero: str) -> CharacterSheet:
    return CharacterSheet.objects.get(campaign=campaign, hero=hero, fallen=False)


def equip(campaign: Campaign, hero: str, **fields: object) -> CharacterSheet:
    s = sheet(campaign, hero)
    for name, value in fields.items():
        setattr(s, name, value)
    s.save()
    return s


def kit(s: CharacterSheet) -> tuple[int, str, list[str], list[str], bool]:
    s.refresh_from_db()
    return (s.gold, s.weapon, s.items, s.armour, s.tool_kit)


# --- selling -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("item", "paid"),
    [
        ("dagger", 12),  # 25 // 2: half price, rounded down
        ("battle_axe", 225),
        ("helmet", 62),
        ("plate_mail", 425),
        ("tool_kit", 125),
    ],
)
def test_the_armory_buys_back_at_half_price_rounded_down(
    campaign: Campaign, owner: User, item: str, paid: int
) -> None:
    price = {**{w: v.price for w, v in WEAPONS.items()}, **{a: v.price for a, v in ARMOUR.items()}}
    assert paid == price.get(item, TOOL_KIT_PRICE) // 2
    dwarf = equip(
        campaign,
        "dwarf",
        gold=5,
        items=[item] if item in WEAPONS else [],
        armour=[item] if item in ARMOUR else [],
        tool_kit=item == "tool_kit",
    )

    assert services.armory_sell(sheet=dwarf, item=item, user=owner) == paid

    assert kit(dwarf) == (5 + paid, "shortsword", [], [], False)


def test_a_spare_is_sold_before_the_wielded_weapon(campaign: Campaign, owner: User) -> None:
    barbarian = equip(campaign, "barbarian", items=["broadsword", "dagger"])

    services.armory_sell(sheet=barbarian, item="broadsword", user=owner)

    assert kit(barbarian) == (125, "broadsword", ["dagger"], [], False)


def test_selling_the_wielded_weapon_wields_the_best_carried_one(
    campaign: Campaign, owner: User
) -> None:
    barbarian = equip(campaign, "barbarian", items=["dagger", "crossbow", "shortsword"])

    services.armory_sell(sheet=barbarian, item="broadsword", user=owner)
    assert kit(barbarian) == (125, "shortsword", ["dagger", "crossbow"], [], False)

    services.armory_sell(sheet=barbarian, item="shortsword", user=owner)
    services.armory_sell(sheet=barbarian, item="dagger", user=owner)
    assert kit(barbarian)[1:3] == ("crossbow", [])  # only a crossbow left: wielded
    services.armory_sell(sheet=barbarian, item="crossbow", user=owner)
    assert kit(barbarian)[1:3] == ("", [])  # bare-handed


@pytest.mark.parametrize(
    ("item", "reason"),
    [
        ("battle_axe", "has no battle axe to sell"),
        ("cloak_of_fire", "has no cloak of fire to sell"),
        ("tool_kit", "has no tool kit to sell"),
        ("", "has no"),
    ],
)
def test_selling_what_the_hero_does_not_own_is_refused(
    campaign: Campaign, owner: User, item: str, reason: str
) -> None:
    dwarf = equip(campaign, "dwarf", artifacts=["cloak_of_fire"], gold=3)

    with pytest.raises(errors.CampaignError, match=reason):
        services.armory_sell(sheet=dwarf, item=item, user=owner)

    assert kit(dwarf) == (3, "shortsword", [], [], False)


def test_the_sell_and_wield_buttons_on_the_armory_page(campaign: Campaign, owner: User) -> None:
    client = client_for(owner)
    dwarf = equip(campaign, "dwarf", items=["handaxe"], armour=["helmet"])
    url = f"/campaigns/{campaign.pk}/heroes/{dwarf.pk}"
    page = client.get(f"{url}/armory").content.decode()
    assert "Sell helmet" in page and "Wield handaxe" in page and "62 gold" in page

    client.post(f"{url}/sell", {"item": "helmet"})
    response = client.post(f"{url}/wield", {"weapon": "handaxe"}, follow=True)

    assert kit(dwarf) == (62, "handaxe", ["shortsword"], [], False)
    assert "now wields the handaxe" in response.content.decode()
    refused = client.post(f"{url}/sell", {"item": "plate_mail"}, follow=True)
    assert "has no plate mail to sell" in refused.content.decode()


# --- wielding ----------------------------------------------------------------------------------


def test_a_hero_wields_a_carried_weapon_and_the_engine_attacks_with_it(
    campaign: Campaign, owner: User, campaign_game: CampaignGame
) -> None:
    barbarian = equip(campaign, "barbarian", items=["battle_axe"])

    services.sheet_wield(sheet=barbarian, weapon="battle_axe", user=owner)

    assert kit(barbarian)[1:3] == ("battle_axe", ["broadsword"])
    game, _ = campaign_game()
    hero = next(h for h in game_seat_view(game=game, seat=2)["heroes"] if h["hero"] == "barbarian")
    assert (hero["weapon"], hero["attack"]) == ("battle_axe", WEAPONS["battle_axe"].attack)
    assert game.state["heroes"]["barbarian"]["weapon"] == "battle_axe"


def test_a_hero_may_wield_a_weaker_weapon(campaign: Campaign, owner: User) -> None:
    dwarf = equip(campaign, "dwarf", items=["dagger"])

    services.sheet_wield(sheet=dwarf, weapon="dagger", user=owner)

    assert kit(dwarf)[1:3] == ("dagger", ["shortsword"])


@pytest.mark.parametrize(
    ("hero", "items", "armour", "weapon", "reason"),
    [
        ("barbarian", [], [], "battle_axe", "carries no battle axe"),
        ("barbarian", [], [], "broadsword", "carries no broadsword"),  # wielded, not carried
        ("barbarian", ["helmet"], [], "helmet", "carries no helmet"),
        ("wizard", ["shortsword"], [], "shortsword", "The Wizard cannot wield a shortsword"),
        ("barbarian", ["battle_axe"], ["shield"], "battle_axe", "two-handed"),
    ],
)
def test_wielding_refusals_change_nothing(
    campaign: Campaign,
    owner: User,
    hero: str,
    items: list[str],
    armour: list[str],
    weapon: str,
    reason: str,
) -> None:
    s = equip(campaign, hero, items=items, armour=armour)
    before = kit(s)

    with pytest.raises(errors.CampaignError, match=reason):
        services.sheet_wield(sheet=s, weapon=weapon, user=owner)

    assert kit(s) == before


# --- giving ------------------------------------------------------------------------------------


def test_give_potions(campaign: Campaign, owner: User) -> None:
    dwarf, elf = equip(campaign, "dwarf", potions=3), sheet(campaign, "elf")

    services.potions_give(from_sheet=dwarf, to_sheet=elf, count=2, user=owner)

    assert (sheet(campaign, "dwarf").potions, sheet(campaign, "elf").potions) == (1, 2)


@pytest.mark.parametrize("field", ["gold", "potions"])
def test_bad_gifts_are_refused_with_a_reason_and_change_nothing(
    campaign: Campaign, owner: User, campaign_game: CampaignGame, field: str
) -> None:
    def give(giver: CharacterSheet, taker: CharacterSheet, amount: int, by: User = owner) -> None:
        if field == "gold":
            services.gold_give(from_sheet=giver, to_sheet=taker, amount=amount, user=by)
        else:
            services.potions_give(from_sheet=giver, to_sheet=taker, count=amount, user=by)

    dwarf = equip(campaign, "dwarf", **{field: 5})
    elf = sheet(campaign, "elf")
    other = services.campaign_create(owner=owner, name="Another party")
    stranger = make_user()

    with pytest.raises(errors.CampaignError, match="has only 5"):
        give(dwarf, elf, 6)
    with pytest.raises(errors.CampaignError, match="themself"):
        give(dwarf, dwarf, 1)
    for bad in (0, -3):
        with pytest.raises(errors.CampaignError, match="at least 1"):
            give(dwarf, elf, bad)
    with pytest.raises(errors.CampaignNotFound):
        give(dwarf, sheet(other, "elf"), 1)  # a hero of another campaign: absent here
    with pytest.raises(errors.CampaignNotFound):
        give(dwarf, elf, 1, by=stranger)
    player = make_user()  # the dwarf's player may not give away the elf's
    equip(campaign, "dwarf", owner=player)
    with pytest.raises(errors.CampaignError, match="Only"):
        give(elf, dwarf, 1, by=player)
    assert (getattr(sheet(campaign, "dwarf"), field), getattr(sheet(campaign, "elf"), field)) == (
        5,
        0,
    )

    game, _ = campaign_game()
    with pytest.raises(errors.CampaignError, match="on a quest"):
        give(dwarf, elf, 1)
    lose(game)  # every hero falls: their sheets are kept, marked fallen
    dwarf.refresh_from_db()
    assert dwarf.fallen
    with pytest.raises(errors.CampaignError, match="has fallen"):
        give(dwarf, sheet(campaign, "elf"), 1)
    with pytest.raises(errors.CampaignError, match="has fallen"):
        give(equip(campaign, "barbarian", **{field: 1}), dwarf, 1)


def test_the_give_potions_form(campaign: Campaign, owner: User) -> None:
    client = client_for(owner)
    dwarf, elf = equip(campaign, "dwarf", potions=2), sheet(campaign, "elf")
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert f'name="p{dwarf.pk}-amount"' in page

    one = client.post(
        f"/campaigns/{campaign.pk}/heroes/{dwarf.pk}/give-potions",
        {f"p{dwarf.pk}-to_sheet": elf.pk, f"p{dwarf.pk}-amount": 1},
        follow=True,
    )
    assert f"gave 1 potion of healing to {elf.name}" in one.content.decode()  # not "1 potions"
    client.post(
        f"/campaigns/{campaign.pk}/heroes/{dwarf.pk}/give-potions",
        {f"p{dwarf.pk}-to_sheet": elf.pk, f"p{dwarf.pk}-amount": 1},
    )
    refused = client.post(
        f"/campaigns/{campaign.pk}/heroes/{elf.pk}/give-potions",
        {f"p{elf.pk}-to_sheet": elf.pk, f"p{elf.pk}-amount": 1},
        follow=True,
    )

    assert (sheet(campaign, "dwarf").potions, sheet(campaign, "elf").potions) == (0, 2)
    assert "Choose another living hero" in refused.content.decode()


def test_the_armory_lists_what_the_hero_owns(campaign: Campaign) -> None:
    wizard = equip(campaign, "wizard", items=["staff"], armour=["bracers"], tool_kit=True)

    owned = {
        (e.item, e.how, e.sell_price, e.may_wield) for e in selectors.sheet_equipment(sheet=wizard)
    }

    assert owned == {
        ("dagger", "wielded", 12, False),
        ("staff", "carried", 50, True),
        ("bracers", "worn", 110, False),
        ("tool_kit", "", 125, False),
    }
