"""What players are told about a game (apps/play/notices.py): once per turn change, written in
the action's transaction, no email to a player watching, read when the game is opened."""

import uuid
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.core import mail
from django.utils import timezone

from apps.accounts.models import User
from apps.games.heroquest import engine as rules
from apps.notifications.models import Notification, Presence
from apps.notifications.tasks import deliver_pending
from apps.play.models import Game
from apps.play.services import game_launch, quest_apply_action
from config.celery import app
from config.routing import websocket_urlpatterns

from .conftest import RoomMaker, client_for

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]


def end_turn(game: Game, hero: str) -> None:
    game.refresh_from_db()
    state = rules.State.from_json(game.state, rules.load_quest("ashen_vault"))
    quest_apply_action(
        game_id=game.pk,
        seat=rules.seats_to_move(state)[0],
        action={"type": "end_turn", "hero": hero},
        expected_version=game.version,
        key=uuid.uuid4().hex,
    )


def launch(make_room: RoomMaker, seats: int) -> tuple[Game, dict[int, User]]:
    room, users = make_room(seats)
    return game_launch(room_id=room.pk, user=users[1], seed=1), users


def emails_to(user: User) -> list[str]:
    return [str(m.subject) for m in mail.outbox if m.to == [user.email]]


def test_one_notification_and_one_email_per_turn_change_per_player(
    make_room: RoomMaker, django_capture_on_commit_callbacks: Capture
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game, users = launch(make_room, seats=3)  # seat 2 plays the Barbarian and the Dwarf
        end_turn(game, "barbarian")
        end_turn(game, "dwarf")

    assert emails_to(users[2]) == ["Your turn in Friday table: the Barbarian"]
    assert emails_to(users[3]) == ["Your turn in Friday table: the Elf"]
    assert emails_to(users[1]) == []
    assert Notification.objects.filter(user=users[2]).count() == 1
    [note] = Notification.objects.filter(user=users[3])
    assert note.topic == f"game-{game.pk}" and note.url == f"/games/{game.pk}/"


def test_the_notice_is_written_in_the_actions_transaction(
    make_room: RoomMaker, django_capture_on_commit_callbacks: Capture
) -> None:
    game, users = launch(make_room, seats=3)
    with django_capture_on_commit_callbacks(execute=False):
        end_turn(game, "barbarian")
        end_turn(game, "dwarf")
        # Not committed yet: already in the outbox, not yet delivered.
        [note] = Notification.objects.filter(user=users[3])
        assert note.delivered_at is None
    assert mail.outbox == []


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_no_email_while_the_player_has_the_game_open(make_room: RoomMaker) -> None:
    game, users = await sync_to_async(launch)(make_room, 5)
    socket = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/games/{game.pk}/")
    socket.scope["user"] = users[3]
    assert (await socket.connect())[0]
    await socket.receive_json_from()  # the view
    assert await sync_to_async(Presence.objects.filter(user=users[3]).count)() == 1

    await sync_to_async(end_turn)(game, "barbarian")  # the Dwarf's player watches: no email
    [note] = await sync_to_async(lambda: list(Notification.objects.filter(user=users[3])))()
    assert note.email_status == "present" and note.delivered_at is not None
    assert note.read  # read on arrival: the game it is about is open (issue 21)
    assert emails_to(users[3]) == []

    await socket.send_json_to({"type": "ping"})  # the page's heartbeat
    assert (await socket.receive_json_from())["type"] in {"pong", "view"}
    await socket.disconnect()
    assert not await sync_to_async(Presence.objects.filter(user=users[3]).exists)()

    await sync_to_async(end_turn)(game, "dwarf")  # the Elf's player is not watching
    assert emails_to(users[4]) == ["Your turn in Friday table: the Elf"]


def test_opening_a_game_marks_its_notifications_read(
    make_room: RoomMaker, django_capture_on_commit_callbacks: Capture
) -> None:
    game, users = launch(make_room, seats=2)
    _, other_users = launch(make_room, seats=2)
    Notification.objects.create(user=users[2], kind="your_turn", title="Elsewhere", topic="x")
    assert Notification.objects.filter(user=users[2], read=False).count() == 2

    assert client_for(users[2]).get(f"/games/{game.pk}/").status_code == 200

    assert list(
        Notification.objects.filter(user=users[2], read=False).values_list("title", flat=True)
    ) == ["Elsewhere"]
    assert Notification.objects.filter(user=other_users[2], read=False).count() == 1


@pytest.fixture
def broker_down() -> Iterator[None]:
    """Tasks really go to a broker, and that broker is unreachable (nothing listens on port 1)."""
    saved = app.conf.task_always_eager, app.conf.broker_url
    app.conf.task_always_eager, app.conf.broker_url = False, "redis://127.0.0.1:1/0"
    app._pool = None  # the producer pool was built for the old URL
    yield
    app.conf.task_always_eager, app.conf.broker_url = saved
    app._pool = None


@pytest.mark.django_db(transaction=True)
def test_the_broker_down_at_a_turn_change_delays_the_notice_but_never_loses_it(
    make_room: RoomMaker, broker_down: None, time_machine: Any
) -> None:
    game, users = launch(make_room, seats=5)
    end_turn(game, "barbarian")  # committed; enqueueing its delivery failed

    game.refresh_from_db()
    assert game.version == 1  # the action stands
    [note] = Notification.objects.filter(user=users[3])
    assert note.delivered_at is None and mail.outbox == []

    app.conf.task_always_eager = True  # the broker is back; the beat's sweep runs
    time_machine.move_to(timezone.now() + timedelta(minutes=1))
    delivered = deliver_pending.delay().get()
    assert delivered == 2  # the launch's notice to seat 2 and this one
    assert deliver_pending.delay().get() == 0
    assert emails_to(users[3]) == ["Your turn in Friday table: the Dwarf"]
    assert emails_to(users[2]) == ["Your turn in Friday table: the Barbarian"]
