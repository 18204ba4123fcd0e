"""The Game admin: a readable log, and actions for stuck games that go through the services and
are recorded in the game's log (apps/play/admin.py, apps/play/table.py)."""

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client

from apps.accounts.models import User
from apps.notifications.models import Notification
from apps.play.models import Game, GameEvent
from apps.play.verify import game_verify
from apps.rooms.models import Room
from tests.conftest import PASSWORD, make_user

from .conftest import GameMaker, client_for, post_action

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client() -> Client:
    root = User.objects.create_superuser(
        username="root", email="root@example.com", password=PASSWORD
    )
    client = Client()
    client.force_login(root)
    return client


def act(client: Client, action: str, *games: Game, **extra: Any) -> Any:
    data = {"action": action, "_selected_action": [g.pk for g in games], **extra}
    return client.post("/admin/play/game/", data, follow=True)


def notes(game: Game) -> list[dict[str, Any]]:
    rows = game.events.filter(kind=GameEvent.Kind.NOTE).order_by("seq")
    return [row.payload for row in rows]


def test_the_game_page_shows_a_readable_log(admin_client: Client, make_game: GameMaker) -> None:
    game, users = make_game(3)
    post_action(client_for(users[2]), game.pk, {"type": "end_turn", "hero": "barbarian"}, 0)

    page = admin_client.get(f"/admin/play/game/{game.pk}/change/").content.decode()

    assert "seat 2 played end_turn hero=barbarian" in page
    assert "quest_start: The quest begins: The Ashen Vault." in page
    assert admin_client.get("/admin/play/game/").status_code == 200


def test_pause_and_resume_from_the_admin_are_logged(
    admin_client: Client, make_game: GameMaker
) -> None:
    game, _ = make_game(2)
    Room.objects.filter(pk=game.room_id).update(turn_time_limit=timedelta(hours=1))

    assert b"paused" in act(admin_client, "pause_games", game).content
    game.refresh_from_db()
    assert game.paused_at is not None
    act(admin_client, "resume_games", game)
    game.refresh_from_db()
    assert game.paused_at is None
    assert [(n["type"], n["by"], n["staff"]) for n in notes(game)] == [
        ("paused", "root", True),
        ("resumed", "root", True),
    ]
    page = admin_client.get(f"/admin/play/game/{game.pk}/change/").content.decode()
    assert "paused by root (staff)" in page


def test_an_absent_players_seat_goes_to_another_user(
    admin_client: Client, make_game: GameMaker
) -> None:
    game, users = make_game(3)
    newcomer = make_user("newcomer")

    form = act(admin_client, "give_seat", game)
    assert b"Give the seat" in form.content
    done = act(admin_client, "give_seat", game, apply="1", number=2, username="NEWCOMER")
    assert b"seat 2 now belongs to newcomer" in done.content

    assert game.room.seats.get(number=2).user == newcomer
    assert client_for(newcomer).get(f"/games/{game.pk}/").status_code == 200
    assert client_for(users[2]).get(f"/games/{game.pk}/").status_code == 404
    [told] = Notification.objects.filter(user=newcomer)
    assert told.title == "You now play Barbarian & Dwarf in Friday table"
    assert "your turn" in told.body
    # The player whose seat went is told too (issue 21), with no link into the game.
    lost = Notification.objects.filter(user=users[2], kind="seat").get()
    assert lost.title == "Your seat in Friday table was given to newcomer"
    assert lost.url == "/" and "goes on without you" in lost.body
    [note] = notes(game)
    assert note == {
        "type": "seat_given",
        "seat": 2,
        "from": users[2].username,
        "to": "newcomer",
        "by": "root",
        "staff": True,
    }

    # Someone already at the table cannot take a second seat.
    refused = act(admin_client, "give_seat", game, apply="1", number=3, username="newcomer")
    assert b"already plays another seat" in refused.content
    assert game.room.seats.get(number=3).user == users[3]


def test_ending_a_stuck_game_abandons_it_and_tells_everyone(
    admin_client: Client, make_game: GameMaker
) -> None:
    game, users = make_game(2)

    act(admin_client, "abandon_games", game)

    game.refresh_from_db()
    assert game.outcome == "abandoned"
    assert Room.objects.get(pk=game.room_id).status == Room.Status.FINISHED
    assert [n["type"] for n in notes(game)] == ["abandoned"]
    for user in users.values():
        over = Notification.objects.get(user=user, kind="game_over")
        assert over.title == "Game over in Friday table: the game was ended by an administrator"
    assert game_verify(game_id=game.pk).ok

    again = act(admin_client, "abandon_games", game)
    assert b"The quest is over." in again.content
    assert [n["type"] for n in notes(game)] == ["abandoned"]


def test_players_and_staff_without_the_admin_cannot_use_it(make_game: GameMaker) -> None:
    game, users = make_game(2)
    response = act(client_for(users[1]), "abandon_games", game)
    assert response.redirect_chain and "/admin/login/" in response.redirect_chain[-1][0]
    game.refresh_from_db()
    assert game.outcome == ""
