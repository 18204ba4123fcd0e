"""Chat webhooks against a local HTTP server: a turn line names only the person who must act,
one line per turn change and one at the end; a 500 is retried with backoff, the last failure
tells the host; the URL is a secret (never echoed) that must be a public https address."""

import json
from typing import Any

import pytest
from django.test import Client

from apps.accounts.models import User
from apps.notifications.models import Notification, WebhookMessage
from apps.play.chat_webhooks import campaign_webhook_set, room_webhook_set
from apps.play.errors import NotHost, TableRefused
from apps.play.models import Game
from apps.play.services import game_launch, quest_apply_action
from apps.rooms.models import Room
from tests.notifications.local_http import LocalServer, local_server

from .conftest import RoomMaker, client_for

pytestmark = pytest.mark.django_db
Capture = Any


@pytest.fixture(autouse=True)
def local_servers_allowed(settings: Any) -> None:
    settings.OUTBOUND_ALLOW_PRIVATE = True  # this test's chat server is on 127.0.0.1
    settings.WEBHOOK_RETRIES = 3


def lines(server: LocalServer) -> list[dict[str, Any]]:
    return [json.loads(r.body) for r in server.requests]


def launch_with_webhook(
    make_room: RoomMaker, url: str, seats: int = 3
) -> tuple[Game, dict[int, User]]:
    room, users = make_room(seats)
    room_webhook_set(room_id=room.pk, user=users[1], url=url)
    users[2].chat_handle = "123456789012345678"  # a Discord user id
    users[2].save()
    users[3].chat_handle = "brann"  # no id: written as @brann, pings nobody
    users[3].save()
    return game_launch(room_id=room.pk, user=users[1], seed=1), users


def end_turn(game: Game, hero: str) -> None:
    game.refresh_from_db()
    quest_apply_action(
        game_id=game.pk,
        seat=game.to_move[0],
        action={"type": "end_turn", "hero": hero},
        expected_version=game.version,
        key=f"end-{hero}",
    )


def test_a_discord_line_per_turn_change_pings_only_the_player_to_act(
    make_room: RoomMaker, django_capture_on_commit_callbacks: Capture
) -> None:
    with local_server((204,)) as server:
        url = server.url + "/api/webhooks/1/secret-token"
        with django_capture_on_commit_callbacks(execute=True):
            game, users = launch_with_webhook(make_room, url)
        with django_capture_on_commit_callbacks(execute=True):
            end_turn(game, "barbarian")  # seat 2 keeps the turn: its Dwarf. No new line.
        with django_capture_on_commit_callbacks(execute=True):
            end_turn(game, "dwarf")  # seat 3's Elf
    first, second = lines(server)
    assert first["content"].startswith("Friday table: your turn, <@123456789012345678> (")
    assert first["allowed_mentions"] == {"parse": [], "users": ["123456789012345678"]}
    assert second["content"].startswith("Friday table: your turn, @brann (")
    assert second["allowed_mentions"] == {"parse": [], "users": []}
    for line, other in ((first, users[3]), (second, users[2])):
        assert other.username not in line["content"] and str(other) not in line["content"]
        assert users[1].username not in line["content"]  # nor the host, nor anyone else
        assert f"/games/{game.pk}/" in line["content"]
    assert WebhookMessage.objects.filter(status="sent").count() == 2


def test_a_slack_line_at_the_end_and_no_mass_mention_rides_in_on_the_rooms_name(
    make_room: RoomMaker, django_capture_on_commit_callbacks: Capture
) -> None:
    with local_server((200,)) as server:
        room, users = make_room(2)
        Room.objects.filter(pk=room.pk).update(name="<!channel> @everyone table")
        room_webhook_set(room_id=room.pk, user=users[1], url=server.url + "/services/T/B/x")
        with django_capture_on_commit_callbacks(execute=True):
            game = game_launch(room_id=room.pk, user=users[1], seed=1)
        from apps.play.table import game_abandon  # noqa: PLC0415

        users[1].is_staff = True
        with django_capture_on_commit_callbacks(execute=True):
            game_abandon(game_id=game.pk, by=users[1])
    start, end = lines(server)
    assert start["text"].startswith("&lt;!channel&gt; @everyone table: your turn, @")
    assert "<!" not in start["text"] and "<@" not in start["text"]
    assert end["text"].startswith("&lt;!channel&gt; @everyone table: the game is over.")


def test_a_failing_webhook_is_retried_with_backoff_then_the_host_is_told(
    make_room: RoomMaker, django_capture_on_commit_callbacks: Capture, monkeypatch: Any
) -> None:
    from apps.notifications import tasks  # noqa: PLC0415

    countdowns: list[int] = []
    real_retry = tasks.webhook_post.retry

    def retry(*args: Any, **kwargs: Any) -> Any:
        countdowns.append(kwargs["countdown"])
        return real_retry(*args, **kwargs)

    monkeypatch.setattr(tasks.webhook_post, "retry", retry)
    with local_server((500,)) as server:
        url = server.url + "/hook/abcd"
        with django_capture_on_commit_callbacks(execute=True):
            game, users = launch_with_webhook(make_room, url)
    assert len(server.requests) == 4  # the first try and WEBHOOK_RETRIES retries, no more
    assert countdowns == [30, 60, 120]  # exponential backoff
    [message] = WebhookMessage.objects.all()
    assert (message.status, message.attempts, message.last_error) == ("failed", 4, "HTTP 500")
    [told] = Notification.objects.filter(kind="webhook")
    assert told.user == users[1]  # the host, and nobody else
    assert told.title == "The chat webhook of Friday table is failing"
    assert "HTTP 500, 4 tries" in told.body and told.url == f"/rooms/{game.room_id}/"
    assert url not in told.body


def test_a_refusal_other_than_5xx_gives_up_at_once(
    make_room: RoomMaker, django_capture_on_commit_callbacks: Capture
) -> None:
    with local_server((404,)) as server, django_capture_on_commit_callbacks(execute=True):
        launch_with_webhook(make_room, server.url + "/gone")
    assert len(server.requests) == 1
    assert Notification.objects.filter(kind="webhook").count() == 1


def test_the_url_is_the_hosts_secret_and_must_be_a_public_https_address(
    make_room: RoomMaker, settings: Any
) -> None:
    room, users = make_room(2)
    with pytest.raises(NotHost):
        room_webhook_set(room_id=room.pk, user=users[2], url="https://discord.com/api/webhooks/1/x")
    settings.OUTBOUND_ALLOW_PRIVATE = False
    for url, problem in (
        ("http://discord.com/api/webhooks/1/x", "https"),
        ("https://127.0.0.1/hook", "not a public address"),
        ("https://user:pw@example.com/hook", "user name"),
        ("https://10.0.0.7/hook", "not a public address"),
    ):
        with pytest.raises(TableRefused, match=problem):
            room_webhook_set(room_id=room.pk, user=users[1], url=url)
    settings.OUTBOUND_ALLOW_PRIVATE = True
    secret = "http://127.0.0.1:9/api/webhooks/1/very-secret-token"
    host = client_for(users[1])
    assert host.post(f"/rooms/{room.pk}/webhook", {"webhook_url": secret}).status_code == 302
    page = host.get(f"/rooms/{room.pk}/").content.decode()
    assert "Set, ending …oken" in page and "very-secret" not in page
    assert "very-secret" not in client_for(users[2]).get(f"/rooms/{room.pk}/").content.decode()
    host.post(f"/rooms/{room.pk}/webhook", {"clear": "1"})
    assert Room.objects.get(pk=room.pk).webhook_url == ""


def test_a_campaigns_webhook_reaches_its_rooms(make_room: RoomMaker) -> None:
    from apps.campaigns.services import campaign_create  # noqa: PLC0415

    room, users = make_room(2)
    campaign = campaign_create(owner=users[1], name="Saga")
    with pytest.raises(NotHost):
        campaign_webhook_set(campaign_id=campaign.pk, user=users[2], url="https://a.example/")
    from apps.campaigns.models import CampaignRoom  # noqa: PLC0415

    CampaignRoom.objects.create(campaign=campaign, room=room)
    campaign_webhook_set(campaign_id=campaign.pk, user=users[1], url="http://127.0.0.1:9/h")
    assert Room.objects.get(pk=room.pk).webhook_url == "http://127.0.0.1:9/h"
    page = Client()
    page.force_login(users[1])
    assert "Set, ending …:9/h" in page.get(f"/campaigns/{campaign.pk}/").content.decode()
