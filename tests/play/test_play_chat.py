"""Table talk: each game's chat, for its players only (stored, paged, live, plain text)."""

from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.core import mail
from django.test import Client

from apps.accounts.models import User
from apps.notifications.models import Notification
from apps.play.models import ChatMessage, Game
from apps.play.services import game_group
from config.routing import websocket_urlpatterns
from tests.conftest import make_user
from tests.listeners import group_listener

from .conftest import GameMaker, client_for

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]
PARCHMENT_START = "Nine days and nine nights the Temple of the Undying Flame burned"


def chat_url(game: Game) -> str:
    return f"/api/games/{game.pk}/chat"


def say(client: Client, game: Game, text: str, **extra: Any) -> Any:
    return client.post(chat_url(game), {"text": text, **extra}, content_type="application/json")


def texts(client: Client, game: Game, **params: Any) -> list[str]:
    return [m["text"] for m in client.get(chat_url(game), params).json()["messages"]]


# --- at launch ---------------------------------------------------------------------------------


def test_the_quests_parchment_opens_the_chat_at_launch(make_game: GameMaker) -> None:
    game, users = make_game(3)

    page = client_for(users[2]).get(chat_url(game)).json()

    [parchment] = page["messages"]
    assert parchment["kind"] == "parchment" and parchment["name"] == "The parchment"
    assert parchment["text"].startswith(PARCHMENT_START)
    assert parchment["seat"] is None and page["more"] is False


# --- posting -----------------------------------------------------------------------------------


def test_a_player_speaks_and_every_member_reads_it(make_game: GameMaker) -> None:
    game, users = make_game(3)

    response = say(client_for(users[2]), game, "  Who opens the door?  ")

    assert response.status_code == 201
    body = response.json()
    assert body["kind"] == "player" and body["seat"] == 2
    assert body["name"] == str(users[2]) and body["text"] == "Who opens the door?"
    for user in users.values():
        assert texts(client_for(user), game)[-1] == "Who opens the door?"


def test_a_message_is_plain_text_stored_as_written(make_game: GameMaker) -> None:
    game, users = make_game(2)
    markup = '<script>alert("hi")</script> <b>bold</b> &amp; {{ curly }}\nsecond line'

    assert say(client_for(users[2]), game, markup).status_code == 201

    assert texts(client_for(users[1]), game)[-1] == markup
    page = client_for(users[1]).get(f"/games/{game.pk}/").content.decode()
    assert "<b>bold</b>" not in page and "alert(" not in page  # never rendered by the server


def test_control_characters_are_dropped(make_game: GameMaker) -> None:
    game, users = make_game(2)
    assert say(client_for(users[2]), game, "ab\x07c\r\nd\te").json()["text"] == "ab" + "c\nd\te"


def test_a_nul_byte_is_refused_by_the_input_gate_and_nothing_is_stored(
    make_game: GameMaker,
) -> None:
    game, users = make_game(2)
    response = say(client_for(users[2]), game, "a\x00b")
    assert response.status_code == 400
    assert "detail" in response.json()
    assert not ChatMessage.objects.filter(kind="player").exists()


def test_a_message_has_at_most_1000_characters(make_game: GameMaker) -> None:
    game, users = make_game(2)
    client = client_for(users[2])

    assert say(client, game, "x" * 1000).status_code == 201
    too_long = say(client, game, "y" * 1001)

    assert too_long.status_code == 422
    assert too_long.json()["detail"] == (
        "A message can be at most 1,000 characters; this one has 1,001."
    )
    assert ChatMessage.objects.filter(kind="player").count() == 1


@pytest.mark.parametrize("blank", ["", "   ", "\n\t\n", "\x07"])
def test_an_empty_message_is_refused(make_game: GameMaker, blank: str) -> None:
    game, users = make_game(2)
    response = say(client_for(users[2]), game, blank)
    assert response.status_code == 422
    assert response.json()["detail"] == "Write something before sending."


def test_messages_are_rate_limited_per_user(make_game: GameMaker, settings: Any) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "chat": "3/m"}
    game, users = make_game(2)
    chatty, other = client_for(users[2]), client_for(users[1])

    codes = [say(chatty, game, f"message {n}").status_code for n in range(4)]

    assert codes == [201, 201, 201, 429]
    assert "too fast" in say(chatty, game, "again").json()["detail"]
    assert say(other, game, "I may still speak").status_code == 201
    assert texts(other, game)[1:] == ["message 0", "message 1", "message 2", "I may still speak"]


def test_zargon_speaks_as_the_narrator_and_no_one_else_may(make_game: GameMaker) -> None:
    game, users = make_game(2)

    narrated = say(client_for(users[1]), game, "The torches gutter.", as_narrator=True)
    refused = say(client_for(users[2]), game, "I am Zargon now.", as_narrator=True)

    assert narrated.status_code == 201
    assert narrated.json()["kind"] == "narrator" and narrated.json()["name"] == "The narrator"
    assert refused.status_code == 403
    assert refused.json()["detail"] == "Only Zargon speaks as the narrator."
    assert texts(client_for(users[2]), game)[-1] == "The torches gutter."


def test_chat_sends_no_notification_and_no_email_by_default(
    make_game: GameMaker, django_capture_on_commit_callbacks: Capture
) -> None:
    game, users = make_game(3)
    Notification.objects.all().delete()
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        say(client_for(users[2]), game, "Anyone there?")

    assert Notification.objects.count() == 0
    assert mail.outbox == []


def test_only_a_player_who_asked_for_table_talk_by_email_gets_one(
    make_game: GameMaker, django_capture_on_commit_callbacks: Capture
) -> None:
    game, users = make_game(3)
    User.objects.filter(pk__in=[users[1].pk, users[2].pk]).update(email_chat=True)
    Notification.objects.all().delete()
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        say(client_for(users[2]), game, "Anyone there?")  # the speaker is not told

    [note] = Notification.objects.all()
    assert note.user == users[1] and note.kind == "chat"
    assert note.title == f"{users[2]} in {game.room.name}" and note.body == "Anyone there?"
    assert [m.to for m in mail.outbox] == [[users[1].email]]


# --- who may read and post ---------------------------------------------------------------------


def test_non_members_can_neither_read_nor_post(make_game: GameMaker) -> None:
    game, _ = make_game(2)
    stranger = client_for(make_user())

    read = stranger.get(chat_url(game))
    post = say(stranger, game, "Let me in")

    assert read.status_code == post.status_code == 404
    assert read.json() == post.json() == {"detail": "There is no such game."}
    assert Client().get(chat_url(game)).status_code == 401  # not logged in at all
    assert ChatMessage.objects.filter(kind="player").count() == 0


def test_an_unknown_game_answers_as_a_hidden_one(make_game: GameMaker) -> None:
    _, users = make_game(2)
    response = client_for(users[2]).get("/api/games/999999/chat")
    assert response.status_code == 404


# --- paging ------------------------------------------------------------------------------------


def test_the_chat_is_paged_by_message_id(make_game: GameMaker, settings: Any) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "chat": "100/m"}
    game, users = make_game(2)
    client = client_for(users[2])
    for n in range(1, 8):
        say(client, game, f"m{n}")  # with the parchment: 8 messages

    latest = client.get(chat_url(game), {"limit": 3}).json()
    older = client.get(chat_url(game), {"limit": 3, "before": latest["messages"][0]["id"]}).json()
    oldest = client.get(chat_url(game), {"limit": 3, "before": older["messages"][0]["id"]}).json()

    assert [m["text"] for m in latest["messages"]] == ["m5", "m6", "m7"] and latest["more"]
    assert [m["text"] for m in older["messages"]] == ["m2", "m3", "m4"] and older["more"]
    assert [m["kind"] for m in oldest["messages"]] == ["parchment", "player"]
    assert oldest["more"] is False
    newer = client.get(chat_url(game), {"limit": 2, "after": older["messages"][0]["id"]}).json()
    assert [m["text"] for m in newer["messages"]] == ["m3", "m4"] and newer["more"]


# --- live --------------------------------------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_message_reaches_the_other_members_websockets_live(make_game: GameMaker) -> None:
    game, users = await sync_to_async(make_game)(2)
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/games/{game.pk}/")
    communicator.scope["user"] = users[1]
    assert (await communicator.connect())[0]
    assert (await communicator.receive_json_from())["type"] == "view"

    speaker = await sync_to_async(client_for)(users[2])
    response = await sync_to_async(say)(speaker, game, "Behind you!")

    frame = await communicator.receive_json_from()
    assert frame == {"type": "chat", "message": response.json()}
    await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
def test_the_group_message_carries_only_the_message_id(make_game: GameMaker) -> None:
    game, users = make_game(2)

    with group_listener(game_group(game_id=game.pk)) as socket:
        message = say(client_for(users[2]), game, "A secret plan").json()
        heard = socket.take(1)

    assert heard == [{"type": "chat.posted", "id": message["id"]}]


def test_a_member_removed_from_the_game_gets_no_more_messages(make_game: GameMaker) -> None:
    game, users = make_game(2)
    say(client_for(users[2]), game, "before")
    game.room.seats.filter(number=2).update(user=make_user())

    assert client_for(users[2]).get(chat_url(game)).status_code == 404
