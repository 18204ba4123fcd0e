"""A game keeps the quest file it was launched with (Game.quest_source): an admin's later edit or
restore changes the quest for new rooms only."""

import pytest

from apps.play.models import Game
from apps.play.selectors import game_scenario
from apps.play.services import game_launch
from apps.quests.models import QuestDefinition
from apps.quests.services import quest_revision_restore, quest_save_edit
from apps.rooms import services as rooms
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


def launch(host_name: str, player_name: str) -> Game:
    """A two-seat Ashen Vault game launched through the rooms and play services."""
    host, player = make_user(host_name), make_user(player_name)
    room = rooms.room_create(host=host, name=f"{host_name}'s table", seat_count=2)
    rooms.room_seat_take(room_id=room.pk, user=host, number=1)
    rooms.room_seat_take(room_id=room.pk, user=player, number=2)
    return game_launch(room_id=room.pk, user=host, seed=7)


def test_a_game_launched_before_an_edit_keeps_its_source(vault: QuestDefinition) -> None:
    shipped = vault.source
    before = launch("ada", "bram")

    edited = shipped.replace("name: The Ashen Vault", "name: The Ashen Vault (hard)")
    quest_save_edit(definition=vault, source=edited)
    after = launch("cora", "dov")

    before.refresh_from_db()
    assert before.quest_source == shipped
    assert game_scenario(game=before).name == "The Ashen Vault"
    assert after.quest_source == edited
    assert game_scenario(game=after).name == "The Ashen Vault (hard)"


def test_restoring_a_revision_leaves_running_games_alone(vault: QuestDefinition) -> None:
    edited = vault.source.replace("reward_gold: 200", "reward_gold: 300")
    quest_save_edit(definition=vault, source=edited)
    game = launch("ada", "bram")

    quest_revision_restore(revision=vault.revisions.get(number=1), author=None)

    game.refresh_from_db()
    assert game_scenario(game=game).reward_gold == 300
    vault.refresh_from_db()
    assert "reward_gold: 200" in vault.source
