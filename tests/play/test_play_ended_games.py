"""An ended game stays ended (issue 22): after an admin's "End (abandoned)" no seat, no timeout and
no monster AI can act, the outcome is never written back to empty, and the page, the API and the
sockets all show the game as over, although the engine's state itself holds no outcome."""

from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from apps.campaigns import services as campaigns
from apps.campaigns.models import CharacterSheet
from apps.campaigns.selectors import campaign_next_quest
from apps.games.heroquest import engine as rules
from apps.play.ai_seat import ai_seat_play
from apps.play.errors import ActionRejected
from apps.play.models import Game
from apps.play.selectors import game_state
from apps.play.services import game_launch, quest_apply_action
from apps.play.table import game_abandon
from apps.play.turns import game_time_out
from apps.quests.services import quest_sync_shipped
from apps.rooms.models import Room
from apps.rooms.services import room_seat_take
from config.routing import websocket_urlpatterns
from tests.conftest import make_user

from .conftest import GameMaker, client_for, post_action
from .test_play_ai_seat import ambush_hall, solo_game  # noqa: F401  (ambush_hall: a fixture)

ROLL = {"type": "roll_movement", "hero": "barbarian"}


def abandon(game: Game) -> None:
    game_abandon(game_id=game.pk, by=make_user(staff=True))
    game.refresh_from_db()


def assert_still_abandoned(game: Game, version: int) -> None:
    game.refresh_from_db()
    assert game.outcome == "abandoned"
    assert game.version == version
    assert Room.objects.get(pk=game.room_id).status == Room.Status.FINISHED


@pytest.mark.django_db
def test_after_an_admin_ends_a_game_no_seat_can_act(make_game: GameMaker) -> None:
    game, users = make_game(3)
    abandon(game)

    hero = post_action(client_for(users[2]), game.pk, ROLL, game.version)
    settings = post_action(
        client_for(users[2]),
        game.pk,
        {"type": "set_auto_drink", "hero": "barbarian", "on": False},
        0,
    )

    assert (hero.status_code, hero.json()) == (422, {"detail": "The quest is over."})
    assert settings.status_code == 422
    assert_still_abandoned(game, version=0)


@pytest.mark.django_db
def test_after_an_admin_ends_a_game_the_system_cannot_act_either(make_game: GameMaker) -> None:
    game, _ = make_game(2)
    Room.objects.filter(pk=game.room_id).update(turn_time_limit=timedelta(minutes=5))
    abandon(game)

    with pytest.raises(ActionRejected, match="The quest is over"):
        quest_apply_action(
            game_id=game.pk, seat=2, action=ROLL, expected_version=0, key="late", system=True
        )
    assert game_time_out(game_id=game.pk, now=timezone.now() + timedelta(days=1)) is False
    assert_still_abandoned(game, version=0)


@pytest.mark.django_db
def test_after_an_admin_ends_a_solo_game_the_monster_ai_plays_no_more(
    ambush_hall: Any,  # noqa: F811
) -> None:
    game, users = solo_game(quest="ambush_hall")
    client = client_for(users[2])
    for hero in ("barbarian", "dwarf", "elf", "wizard"):  # the AI's phase comes next
        game.refresh_from_db()
        if rules.seats_to_move(game_state(game=game)) != [2]:
            break
        post_action(client, game.pk, {"type": "end_turn", "hero": hero}, game.version)
    game.refresh_from_db()
    version = game.version
    abandon(game)

    assert ai_seat_play(game_id=game.pk, pause=0) == 0
    state = game_state(game=game)
    if rules.seats_to_move(state) == [
        rules.ZARGON_SEAT
    ]:  # even an AI runner already past its check
        action = rules.action_to_json(rules.legal_actions(state, rules.ZARGON_SEAT)[0])
        with pytest.raises(ActionRejected):
            quest_apply_action(
                game_id=game.pk,
                seat=1,
                action=action,
                expected_version=version,
                key="ai-late",
                system=True,
            )
    assert_still_abandoned(game, version=version)


@pytest.mark.django_db
def test_every_read_of_an_ended_game_says_it_is_over(make_game: GameMaker) -> None:
    game, users = make_game(2)
    hero = client_for(users[2])
    assert hero.get(f"/api/games/{game.pk}/view").json()["legal_actions"]  # cached, running
    abandon(game)

    view = hero.get(f"/api/games/{game.pk}/view").json()
    page = hero.get(f"/games/{game.pk}/")

    assert (view["outcome"], view["legal_actions"]) == ("abandoned", [])
    assert page.context["view_json"]["outcome"] == "abandoned"
    assert page.context["view_json"]["legal_actions"] == []
    assert game_state(game=game).outcome is None  # the engine's state never knew
    lobby = hero.get("/").content.decode()
    assert "Over: the game was ended by an administrator" in lobby


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_an_open_socket_is_sent_the_ended_view(make_game: GameMaker) -> None:
    game, users = await sync_to_async(make_game)(2)
    socket = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/games/{game.pk}/")
    socket.scope["user"] = users[2]
    assert (await socket.connect())[0]
    assert (await socket.receive_json_from())["view"]["legal_actions"]

    await sync_to_async(abandon)(game)

    frame = await socket.receive_json_from(timeout=5)
    assert frame["view"]["outcome"] == "abandoned"
    assert frame["view"]["legal_actions"] == []
    await socket.disconnect()


@pytest.mark.django_db
def test_an_abandoned_campaign_quest_writes_nothing_back_and_is_tried_again(
    make_game: GameMaker,
) -> None:
    quest_sync_shipped()
    owner, player = make_user(), make_user()
    campaign = campaigns.campaign_create(owner=owner, name="The Lantern Company")
    room = campaigns.campaign_room_create(campaign=campaign, host=owner, name="Try 1", seat_count=2)
    room_seat_take(room_id=room.pk, user=owner, number=1)
    room_seat_take(room_id=room.pk, user=player, number=2, invite_code=room.invite_code)
    game = game_launch(room_id=room.pk, user=owner, seed=1)
    before = list(CharacterSheet.objects.order_by("pk").values())

    def rich_and_fallen(s: rules.State) -> None:  # mid-quest: found gold, one hero fell
        s.heroes["barbarian"].gold = 500
        s.heroes["dwarf"].status = "fallen"

    state = game_state(game=game)
    rich_and_fallen(state)
    Game.objects.filter(pk=game.pk).update(state=state.to_json())
    abandon(game)

    assert list(CharacterSheet.objects.order_by("pk").values()) == before
    upcoming = campaign_next_quest(campaign=campaign)
    assert upcoming is not None and upcoming.slug == game.quest_slug  # tried again
    again = campaigns.campaign_room_create(
        campaign=campaign, host=owner, name="Try 2", seat_count=2
    )
    assert again.quest.slug == game.quest_slug
