"""Campaign services through the real play service: launch, outcome write-back, armory, gold."""

import uuid
from collections.abc import Callable
from typing import Any

import pytest

from apps.accounts.models import User
from apps.campaigns import errors, selectors, services
from apps.campaigns.models import Campaign, CampaignRoom, CharacterSheet
from apps.games.heroquest import engine as rules
from apps.games.heroquest.engine.data import HEROES
from apps.play.models import Game
from apps.play.selectors import game_seat_view, game_state
from apps.play.services import quest_apply_action
from apps.rooms.models import Room
from tests.conftest import make_user

from .conftest import CampaignGame

pytestmark = pytest.mark.django_db


def sheet(campaign: Campaign, hero: str) -> CharacterSheet:
    return CharacterSheet.objects.get(campaign=campaign, hero=hero, fallen=False)


def edit_state(game: Game, change: Callable[[rules.State], None]) -> None:
    """Change the stored engine state directly (to reach a quest's end quickly)."""
    state = game_state(game=game)
    change(state)
    game.state = state.to_json()
    game.save(update_fields=["state"])


def escape_with(game: Game, fallen: tuple[str, ...] = (), gold: int = 30) -> dict[str, Any]:
    """End the quest: the villain is down, the current hero stands on the stairway with `gold`,
    the `fallen` heroes have fallen and everyone else has escaped already; then escape."""
    hero = ""

    def change(s: rules.State) -> None:
        nonlocal hero
        hero = str(s.turn.hero)
        s.villain_defeated = True
        for name, h in s.heroes.items():
            if name == hero:
                h.position = min(s.quest.stairway)
                h.gold, h.potions = gold, 2
            else:
                h.position = None
                h.status = "fallen" if name in fallen else "escaped"
                if name in fallen:
                    h.body = 0

    edit_state(game, change)
    return quest_apply_action(
        game_id=game.pk,
        seat=2,
        action={"type": "escape", "hero": hero},
        expected_version=game.version,
        key=uuid.uuid4().hex,
    ) | {"hero": hero}


def test_a_new_campaign_has_the_four_starting_sheets(campaign: Campaign) -> None:
    sheets = list(campaign.sheets.all())
    assert sorted(s.hero for s in sheets) == ["barbarian", "dwarf", "elf", "wizard"]
    for s in sheets:
        stats = HEROES[s.hero]
        assert (s.body_max, s.mind_max, s.weapon) == (stats.body, stats.mind, stats.weapon)
        assert (s.gold, s.potions, s.fallen, s.quests_completed) == (0, 0, False, [])
        assert s.name


def test_a_campaign_room_launches_with_the_sheets(
    campaign: Campaign, campaign_game: CampaignGame
) -> None:
    barbarian = sheet(campaign, "barbarian")
    barbarian.weapon, barbarian.gold, barbarian.armour = "battle_axe", 77, ["helmet"]
    barbarian.save()

    game, _ = campaign_game()

    view = game_seat_view(game=game, seat=2)
    hero = next(h for h in view["heroes"] if h["hero"] == "barbarian")
    assert (hero["weapon"], hero["gold"], hero["armour"]) == ("battle_axe", 77, ["helmet"])
    assert hero["name"] == barbarian.name
    assert game.options["heroes"]["barbarian"]["gold"] == 77
    assert (
        selectors.campaign_hero_options(
            room=Room.objects.create(
                name="x", host=campaign.owner, quest=game.room.quest, seat_count=2
            )
        )
        is None
    )


def test_a_won_quest_is_written_back(campaign: Campaign, campaign_game: CampaignGame) -> None:
    game, users = campaign_game()

    response = escape_with(game, gold=30)

    game.refresh_from_db()
    assert game.outcome == "heroes"
    hero = response["hero"]
    share = 200 // 4  # the Ashen Vault's reward, split between the four survivors
    for s in campaign.sheets.all():
        assert not s.fallen
        assert s.quests_completed == ["ashen_vault"]
        assert s.owner == users[2]  # the player who played the hero
        assert s.body_max == HEROES[s.hero].body  # Body restored (the maxima are kept)
        expected = (30 + share, 2) if s.hero == hero else (share, 0)
        assert (s.gold, s.potions) == expected
    assert CampaignRoom.objects.get(room=game.room).outcome == "heroes"


def test_a_fallen_hero_is_replaced_next_quest(
    campaign: Campaign, campaign_game: CampaignGame
) -> None:
    game, users = campaign_game()
    first = game.state["turn"]["hero"]
    fallen = next(h for h in ("dwarf", "elf", "wizard") if h != first)
    old = sheet(campaign, fallen)

    escape_with(game, fallen=(fallen,))

    old.refresh_from_db()
    assert old.fallen and old.quests_completed == []
    survivors = [s for s in campaign.sheets.filter(fallen=False) if s.hero != fallen]
    assert all(s.gold >= 200 // 3 for s in survivors)
    fresh = sheet(campaign, fallen)
    assert fresh.pk != old.pk and fresh.name != old.name
    assert (fresh.gold, fresh.body_max, fresh.owner) == (0, HEROES[fallen].body, users[2])

    game2, _ = campaign_game(player=users[2])
    names = {h["hero"]: h["name"] for h in game_seat_view(game=game2, seat=2)["heroes"]}
    assert names[fallen] == fresh.name


def test_a_lost_quest_keeps_what_survivors_carry(campaign: Campaign, owner: User) -> None:
    room = services.campaign_room_create(campaign=campaign, host=owner, name="Doom", seat_count=2)
    finals = {
        "barbarian": {"status": "fallen", "gold": 50, "potions": 1, "weapon": "broadsword"},
        "dwarf": {"status": "escaped", "gold": 40, "potions": 1, "weapon": "handaxe"},
        "elf": {"status": "fallen", "gold": 0, "weapon": "shortsword"},
        "wizard": {"status": "fallen", "gold": 0, "weapon": ""},
    }
    for _ in range(2):  # recorded once only
        services.campaign_record_outcome(
            room=room, outcome="zargon", heroes=finals, reward_gold=200
        )

    dwarf = sheet(campaign, "dwarf")
    assert (dwarf.gold, dwarf.potions, dwarf.weapon, dwarf.quests_completed) == (
        40,
        1,
        "handaxe",
        [],
    )
    assert campaign.sheets.filter(fallen=True).count() == 3
    assert sheet(campaign, "barbarian").gold == 0


def test_armory_buy(campaign: Campaign, owner: User) -> None:
    dwarf = sheet(campaign, "dwarf")
    dwarf.gold = 300
    dwarf.save()

    services.armory_buy(sheet=dwarf, item="broadsword", user=owner)

    dwarf.refresh_from_db()
    assert (dwarf.gold, dwarf.weapon, dwarf.items) == (50, "broadsword", ["shortsword"])
    services.armory_buy(sheet=dwarf, item="dagger", user=owner)
    dwarf.refresh_from_db()
    assert (dwarf.gold, dwarf.weapon, dwarf.items) == (25, "broadsword", ["shortsword", "dagger"])


@pytest.mark.parametrize(
    ("hero", "gold", "weapon", "armour", "item", "reason"),
    [
        ("dwarf", 100, "shortsword", [], "broadsword", "has 100 gold"),
        ("wizard", 999, "dagger", [], "broadsword", "Wizard cannot wield"),
        ("wizard", 999, "dagger", [], "chain_mail", "Wizard cannot wear"),
        ("barbarian", 999, "battle_axe", [], "shield", "two-handed"),
        ("barbarian", 999, "broadsword", ["shield"], "battle_axe", "two-handed"),
        ("barbarian", 999, "broadsword", ["helmet"], "helmet", "already wears"),
        ("barbarian", 999, "broadsword", [], "cloak_of_fire", "does not sell"),
    ],
)
def test_armory_refusals_change_nothing(
    campaign: Campaign,
    owner: User,
    hero: str,
    gold: int,
    weapon: str,
    armour: list[str],
    item: str,
    reason: str,
) -> None:
    s = sheet(campaign, hero)
    s.gold, s.weapon, s.armour = gold, weapon, armour
    s.save()

    with pytest.raises(errors.CampaignError, match=reason):
        services.armory_buy(sheet=s, item=item, user=owner)

    s.refresh_from_db()
    assert (s.gold, s.weapon, s.armour, s.items) == (gold, weapon, armour, [])
    listed = {i.item: i.problem for i in selectors.armory_items(sheet=s)}
    if item in listed:
        assert reason in (listed[item] or "")


def test_the_armory_is_closed_during_a_quest(
    campaign: Campaign, owner: User, campaign_game: CampaignGame
) -> None:
    campaign_game()
    s = sheet(campaign, "dwarf")
    s.gold = 1000
    s.save()
    with pytest.raises(errors.CampaignError, match="on a quest"):
        services.armory_buy(sheet=s, item="dagger", user=owner)
    with pytest.raises(errors.CampaignError, match="on a quest"):
        services.gold_give(from_sheet=s, to_sheet=sheet(campaign, "elf"), amount=5)
    assert sheet(campaign, "dwarf").gold == 1000


def test_outsiders_cannot_buy_or_give(campaign: Campaign) -> None:
    stranger = make_user()
    s = sheet(campaign, "dwarf")
    s.gold = 500
    s.save()
    with pytest.raises(errors.CampaignNotFound):
        services.armory_buy(sheet=s, item="dagger", user=stranger)
    with pytest.raises(errors.CampaignNotFound):
        services.gold_give(from_sheet=s, to_sheet=sheet(campaign, "elf"), amount=5, user=stranger)
    with pytest.raises(errors.CampaignNotFound):
        selectors.campaign_for_user(campaign_id=campaign.pk, user=stranger)
    assert sheet(campaign, "dwarf").gold == 500


def test_a_player_manages_only_their_own_hero(campaign: Campaign) -> None:
    player, other = make_user(), make_user()
    dwarf, elf = sheet(campaign, "dwarf"), sheet(campaign, "elf")
    dwarf.owner, dwarf.gold, elf.owner, elf.gold = player, 100, other, 100
    dwarf.save()
    elf.save()
    with pytest.raises(errors.CampaignError, match="Only"):
        services.armory_buy(sheet=elf, item="dagger", user=player)
    services.armory_buy(sheet=dwarf, item="dagger", user=player)
    assert sheet(campaign, "dwarf").gold == 75


def test_gold_give(campaign: Campaign, owner: User) -> None:
    dwarf, elf = sheet(campaign, "dwarf"), sheet(campaign, "elf")
    dwarf.gold = 60
    dwarf.save()

    services.gold_give(from_sheet=dwarf, to_sheet=elf, amount=25, user=owner)

    assert (sheet(campaign, "dwarf").gold, sheet(campaign, "elf").gold) == (35, 25)
    with pytest.raises(errors.CampaignError, match="only 35"):
        services.gold_give(from_sheet=dwarf, to_sheet=elf, amount=36)
    with pytest.raises(errors.CampaignError):
        services.gold_give(from_sheet=dwarf, to_sheet=elf, amount=0)
    other = services.campaign_create(owner=owner, name="Another")
    with pytest.raises(errors.CampaignNotFound):
        services.gold_give(from_sheet=dwarf, to_sheet=sheet(other, "elf"), amount=1)
    assert (sheet(campaign, "dwarf").gold, sheet(campaign, "elf").gold) == (35, 25)


def test_one_quest_at_a_time(campaign: Campaign, owner: User) -> None:
    services.campaign_room_create(campaign=campaign, host=owner, name="First", seat_count=2)
    with pytest.raises(errors.CampaignError, match="not over yet"):
        services.campaign_room_create(campaign=campaign, host=owner, name="Second", seat_count=2)
    with pytest.raises(errors.CampaignError, match="owner"):
        services.campaign_room_create(
            campaign=campaign, host=make_user(), name="Third", seat_count=2
        )


def test_a_hero_who_threw_every_weapon_starts_without_one(
    campaign: Campaign, campaign_game: CampaignGame
) -> None:
    wizard = sheet(campaign, "wizard")
    wizard.weapon = ""
    wizard.save()
    game, _ = campaign_game()
    hero = next(h for h in game_seat_view(game=game, seat=2)["heroes"] if h["hero"] == "wizard")
    assert hero["weapon"] in (None, "")


def test_an_artifact_found_in_a_quest_stays_on_the_character_sheet(
    campaign: Campaign, campaign_game: CampaignGame
) -> None:
    game, users = campaign_game()
    finder = str(game.state["turn"]["hero"])

    def found_emberbrand(s: rules.State) -> None:
        s.heroes[finder].artifacts = ["Emberbrand"]

    edit_state(game, found_emberbrand)
    escape_with(game)

    assert sheet(campaign, finder).artifacts == ["Emberbrand"]
    game2, _ = campaign_game(player=users[2])
    hero = next(h for h in game_seat_view(game=game2, seat=2)["heroes"] if h["hero"] == finder)
    assert hero["artifacts"] == ["Emberbrand"]
    assert hero["attack"] == rules.data.WEAPONS[hero["weapon"]].attack + 1  # it still works


def test_a_retreat_gives_no_reward_and_leaves_the_quest_to_try_again(
    campaign: Campaign, campaign_game: CampaignGame
) -> None:
    game, _ = campaign_game()
    hero = ""

    def everyone_else_left(s: rules.State) -> None:
        nonlocal hero
        hero = str(s.turn.hero)
        for name, h in s.heroes.items():
            if name == hero:
                h.position, h.gold = min(s.quest.stairway), 35
            else:
                h.position, h.status = None, "escaped"

    edit_state(game, everyone_else_left)
    quest_apply_action(
        game_id=game.pk,
        seat=2,
        action={"type": "escape", "hero": hero},
        expected_version=game.version,
        key=uuid.uuid4().hex,
    )
    game.refresh_from_db()
    assert game.outcome == "retreat"
    assert CampaignRoom.objects.get(room=game.room).outcome == "retreat"
    for s in campaign.sheets.all():
        assert s.quests_completed == [] and not s.fallen
        assert s.gold == (35 if s.hero == hero else 0)  # found gold kept, no reward
