"""Every clock change reaches every open game page (issue 21): the host's pause and resume, and a
player's "away until", send `{"type": "clock"}` to each socket of the game, and the page's clock
bar says what a pause means."""

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.utils import timezone

from apps.accounts.services import user_profile_update
from apps.play.table import game_pause, game_resume

from .conftest import GameMaker
from .test_play_websocket import connect

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.mark.asyncio
async def test_pause_and_resume_reach_every_socket_of_the_game(make_game: GameMaker) -> None:
    game, users = await sync_to_async(make_game)(3)
    host, player = await connect(game, users[1]), await connect(game, users[3])
    for socket in (host, player):
        await socket.receive_json_from()  # the view on connect

    await sync_to_async(game_pause)(game_id=game.pk, user=users[1])
    for socket in (host, player):
        assert await socket.receive_json_from(timeout=10) == {"type": "clock"}

    await sync_to_async(game_resume)(game_id=game.pk, user=users[1])
    for socket in (host, player):
        assert await socket.receive_json_from(timeout=10) == {"type": "clock"}
        assert await socket.receive_nothing()
        await socket.disconnect()


@pytest.mark.asyncio
async def test_a_player_going_away_moves_the_clock_on_every_page(make_game: GameMaker) -> None:
    game, users = await sync_to_async(make_game)(2)
    watcher = await connect(game, users[1])
    await watcher.receive_json_from()
    away = users[2]

    await sync_to_async(user_profile_update)(
        user=away,
        display_name="",
        turn_email="never",
        reminders=False,
        away_until=timezone.now() + timedelta(days=2),
    )
    assert await watcher.receive_json_from(timeout=10) == {"type": "clock"}
    # Saving the profile again without moving "away until" tells nobody.
    await sync_to_async(user_profile_update)(
        user=away,
        display_name="x",
        turn_email="never",
        reminders=False,
        away_until=away.away_until,
    )
    assert await watcher.receive_nothing()
    await watcher.disconnect()


def test_the_paused_clock_says_what_a_pause_means(make_game: GameMaker, client: Client) -> None:
    game, users = make_game(2)
    game_pause(game_id=game.pk, user=users[1])
    client.force_login(users[2])
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "the turn clock is stopped, so no turn runs out and nobody is reminded" in page
    assert "You can still play" in page
