"""A campaign quest pays the reward of the quest file it was launched with: an admin's edit of
the quest in the workshop while the game runs changes only games launched after it."""

from apps.campaigns.models import Campaign
from apps.quests.models import QuestDefinition
from apps.quests.services import quest_save_edit

from .conftest import CampaignGame
from .quest_ends import win


def test_the_reward_is_the_one_promised_at_launch(
    campaign: Campaign, campaign_game: CampaignGame
) -> None:
    game, _ = campaign_game()
    vault = QuestDefinition.objects.get(slug="ashen_vault")
    quest_save_edit(
        definition=vault, source=vault.source.replace("reward_gold: 200", "reward_gold: 900")
    )

    win(game)

    shares = sorted(s.gold for s in campaign.sheets.filter(fallen=False))
    assert shares == [200 // 4] * 4
