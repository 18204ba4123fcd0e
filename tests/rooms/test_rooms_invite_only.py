"""Invite-only rooms (every campaign room): not in anyone else's sight, seated by invite only.

Without its invite code a stranger can neither see the room (page, API, socket) nor take one of
its free seats; with the invite link they see it and sit down like at any table.
"""

import pytest
from django.test import Client

from apps.accounts.models import User
from apps.quests.models import QuestDefinition
from apps.rooms import services
from apps.rooms.models import Room
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def private(quest: QuestDefinition, host: User) -> Room:
    return services.room_create(host=host, name="The Lantern table", seat_count=3, invite_only=True)


@pytest.fixture
def stranger_client(client: Client) -> Client:
    client.force_login(make_user("stranger"))
    return client


def test_a_stranger_cannot_take_a_free_seat_without_the_invite(private: Room) -> None:
    stranger = make_user("stranger")

    with pytest.raises(services.RoomNotFound):
        services.room_seat_take(room_id=private.pk, user=stranger, number=2)
    with pytest.raises(services.RoomNotFound):
        services.room_seat_take(room_id=private.pk, user=stranger, number=2, invite_code="guess")

    assert not private.seats.filter(user=stranger).exists()


def test_the_invite_code_seats_a_stranger_and_then_they_are_a_member(private: Room) -> None:
    invited = make_user("invited")

    services.room_seat_take(
        room_id=private.pk, user=invited, number=2, invite_code=private.invite_code
    )
    services.room_seat_take(room_id=private.pk, user=invited, number=3)  # moving needs no code

    assert private.seats.get(number=3).user == invited
    assert services.room_visible_to(room=private, user=invited)


def test_the_host_takes_a_seat_without_the_code(private: Room, host: User) -> None:
    services.room_seat_take(room_id=private.pk, user=host, number=1)

    assert private.seats.get(number=1).user == host


def test_a_stranger_sees_no_page_and_no_api_answer(private: Room, stranger_client: Client) -> None:
    page = stranger_client.get(f"/rooms/{private.pk}/")
    api = stranger_client.get(f"/api/rooms/{private.pk}")
    take = stranger_client.post(f"/api/rooms/{private.pk}/seats/2")
    take_page = stranger_client.post(f"/rooms/{private.pk}/seats/2/take")

    assert page.status_code == api.status_code == take.status_code == 404
    assert take_page.status_code == 404
    assert private.name not in page.content.decode() + api.content.decode()
    assert not private.seats.filter(user__isnull=False).exists()


def test_the_invite_link_shows_the_room_and_its_seat_buttons_carry_the_code(
    private: Room, stranger_client: Client
) -> None:
    page = stranger_client.get(f"/rooms/join/{private.invite_code}")

    assert page.status_code == 200 and private.name in page.content.decode()
    assert f'name="invite" value="{private.invite_code}"' in page.content.decode()

    taken = stranger_client.post(
        f"/rooms/{private.pk}/seats/2/take", {"invite": private.invite_code}
    )

    assert taken.status_code == 302 and taken["Location"] == f"/rooms/{private.pk}/"
    assert private.seats.get(number=2).user is not None
    assert stranger_client.get(f"/rooms/{private.pk}/").status_code == 200


def test_the_api_seats_whoever_brings_the_invite_code(
    private: Room, stranger_client: Client
) -> None:
    response = stranger_client.post(f"/api/rooms/{private.pk}/seats/2?invite={private.invite_code}")

    assert response.status_code == 200
    assert response.json()["seats"][1]["user"] == "stranger"


def test_an_open_room_is_still_anyones_to_join(room: Room, stranger_client: Client) -> None:
    assert stranger_client.post(f"/api/rooms/{room.pk}/seats/2").status_code == 200


def test_a_wrong_invite_code_in_any_script_is_simply_not_found(
    private: Room, stranger_client: Client
) -> None:
    """Found by the API fuzz run: a non-ASCII code once answered 500."""
    response = stranger_client.post(f"/api/rooms/{private.pk}/seats/2?invite=%C4%89ambro")
    page = stranger_client.post(f"/rooms/{private.pk}/seats/2/take", {"invite": "ĉambro"})

    assert response.status_code == page.status_code == 404
