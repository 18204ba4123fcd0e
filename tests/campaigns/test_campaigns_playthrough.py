"""A campaign plays the first three quests of the Cinder Saga through the real services.

Each quest is launched from the campaign, played to the brink of its end in the stored state and
ended by a real action (tests/campaigns/quest_ends.py: no dice). Between quests the heroes use the
armory and give each other gold and potions. Along the way: a lost quest replayed, a fallen hero
replaced, a retreat and a retry, and gold, equipment and artifacts carried from quest to quest.
"""

import pytest

from apps.accounts.models import User
from apps.campaigns import selectors, services
from apps.campaigns.models import Campaign, CharacterSheet
from apps.games.heroquest.engine.saga import saga_quests
from apps.play.models import Game
from apps.play.selectors import game_seat_view
from apps.rooms.models import Room
from tests.conftest import make_user

from .conftest import CampaignGame
from .quest_ends import lose, retreat, win

pytestmark = pytest.mark.django_db

REWARD = {q.slug: q.reward_gold for q in saga_quests()}


def party(campaign: Campaign) -> dict[str, CharacterSheet]:
    return {s.hero: s for s in campaign.sheets.filter(fallen=False)}


def statuses(campaign: Campaign) -> list[str]:
    return [step.status for step in selectors.campaign_saga(campaign=campaign)]


def in_game(game: Game) -> dict[str, dict[str, object]]:
    """The heroes as the hero seat sees them when the quest starts."""
    return {h["hero"]: h for h in game_seat_view(game=game, seat=2)["heroes"]}


def test_a_party_plays_the_first_three_quests_of_the_saga(
    campaign: Campaign, owner: User, campaign_game: CampaignGame
) -> None:
    player = make_user()

    # --- The Ashen Vault, first try: every hero falls. The quest stays next; four new heroes.
    game, _ = campaign_game(player=player)
    assert game.room.quest.slug == "ashen_vault"
    first_names = {h: s.name for h, s in party(campaign).items()}
    lose(game)
    assert statuses(campaign) == ["next", "locked", "locked", "locked"]
    heroes = party(campaign)
    assert all(heroes[h].name != first_names[h] for h in heroes)
    assert campaign.sheets.filter(fallen=True).count() == 4

    # --- The Ashen Vault again: won, but the Wizard falls. Found gold, a potion and an artifact.
    game, _ = campaign_game(player=player)
    assert game.room.quest.slug == "ashen_vault"
    fallen_wizard = heroes["wizard"]
    win(
        game,
        fallen=("wizard",),
        found={
            "barbarian": {"gold": 400, "artifacts": ["Emberbrand"]},
            "dwarf": {"gold": 250, "potions": 2},
        },
    )
    assert statuses(campaign) == ["done", "next", "locked", "locked"]
    share = REWARD["ashen_vault"] // 3  # three survivors
    heroes = party(campaign)
    assert heroes["barbarian"].gold == 400 + share
    assert heroes["barbarian"].artifacts == ["Emberbrand"]
    assert (heroes["dwarf"].gold, heroes["dwarf"].potions) == (250 + share, 2)
    assert heroes["elf"].gold == share
    wizard = heroes["wizard"]
    assert wizard.pk != fallen_wizard.pk and (wizard.gold, wizard.quests_completed) == (0, [])
    assert wizard.owner == player  # the same player takes the new hero
    assert all(heroes[h].quests_completed == ["ashen_vault"] for h in ("barbarian", "dwarf", "elf"))

    # --- Between quests: the armory, a weapon picked, gifts to the new Wizard.
    barbarian, dwarf = heroes["barbarian"], heroes["dwarf"]
    services.armory_buy(sheet=barbarian, item="battle_axe", user=player)  # wielded: 4 dice
    services.sheet_wield(sheet=barbarian, weapon="broadsword", user=player)  # the player's pick
    services.armory_buy(sheet=dwarf, item="broadsword", user=player)  # wielded, shortsword spare
    assert services.armory_sell(sheet=dwarf, item="shortsword", user=player) == 75
    services.gold_give(from_sheet=dwarf, to_sheet=wizard, amount=40, user=player)
    services.potions_give(from_sheet=dwarf, to_sheet=wizard, count=1, user=player)
    heroes = party(campaign)
    barbarian, dwarf, wizard = heroes["barbarian"], heroes["dwarf"], heroes["wizard"]
    assert (barbarian.gold, barbarian.weapon, barbarian.items) == (
        400 + share - 450,
        "broadsword",
        ["battle_axe"],
    )
    assert (dwarf.gold, dwarf.weapon, dwarf.items, dwarf.potions) == (
        250 + share - 250 + 75 - 40,
        "broadsword",
        [],
        1,
    )
    assert (wizard.gold, wizard.potions) == (40, 1)

    # --- The Smoke Warrens, first try: the party retreats. No reward, found gold kept.
    game, _ = campaign_game(player=player)
    assert game.room.quest.slug == "smoke_warrens"
    seen = in_game(game)
    assert (seen["barbarian"]["weapon"], seen["barbarian"]["attack"]) == ("broadsword", 3 + 1)
    assert seen["barbarian"]["artifacts"] == ["Emberbrand"]  # its +1 attack die counted above
    assert (seen["dwarf"]["weapon"], seen["dwarf"]["attack"]) == ("broadsword", 3)
    assert (seen["wizard"]["gold"], seen["wizard"]["potions"]) == (40, 1)
    before = {h: s.gold for h, s in party(campaign).items()}
    retreat(game, found={"elf": {"gold": before["elf"] + 20}})
    assert statuses(campaign) == ["done", "next", "locked", "locked"]
    after = {h: s.gold for h, s in party(campaign).items()}
    assert after == {**before, "elf": before["elf"] + 20}
    assert all("smoke_warrens" not in s.quests_completed for s in party(campaign).values())

    # --- The Smoke Warrens, tried again: won. The Dwarf finds the Ember Key.
    game, _ = campaign_game(player=player)
    assert game.room.quest.slug == "smoke_warrens"
    win(game, found={"dwarf": {"artifacts": ["Ember Key"]}})
    assert statuses(campaign) == ["done", "done", "next", "locked"]
    share = REWARD["smoke_warrens"] // 4
    assert {h: s.gold for h, s in party(campaign).items()} == {
        h: gold + share for h, gold in after.items()
    }

    # --- The Sealed Forge: the key and everything else came along; won.
    game, _ = campaign_game(player=player)
    assert game.room.quest.slug == "sealed_forge"
    seen = in_game(game)
    assert seen["dwarf"]["artifacts"] == ["Ember Key"]
    assert seen["barbarian"]["items"] == ["battle_axe"]
    win(game)
    assert statuses(campaign) == ["done", "done", "done", "next"]

    heroes = party(campaign)
    assert heroes["barbarian"].quests_completed == ["ashen_vault", "smoke_warrens", "sealed_forge"]
    assert heroes["wizard"].quests_completed == ["smoke_warrens", "sealed_forge"]
    assert heroes["barbarian"].artifacts == ["Emberbrand"]
    assert heroes["dwarf"].artifacts == ["Ember Key"]
    assert [r.campaign_link.outcome for r in campaign_rooms_in_order(campaign)] == [
        "zargon",
        "heroes",
        "retreat",
        "heroes",
        "heroes",
    ]


def campaign_rooms_in_order(campaign: Campaign) -> list[Room]:
    return [room for step in selectors.campaign_saga(campaign=campaign) for room in step.tries]
