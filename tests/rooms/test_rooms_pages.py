import re

import pytest
from django.test import Client
from django.urls import reverse

from apps.accounts.models import User
from apps.play.models import Game
from apps.quests.models import QuestDefinition
from apps.quests.services import quest_sync_shipped
from apps.rooms import services
from apps.rooms.models import Room
from tests.conftest import make_user
from tests.rooms.conftest import mark_playing

pytestmark = pytest.mark.django_db


def detail_url(room: Room) -> str:
    return reverse("rooms:detail", args=[room.pk])


def take_url(room: Room, number: int) -> str:
    return reverse("rooms:seat_take", args=[room.pk, number])


# creating


def test_create_form_offers_enabled_quests_only(
    host_client: Client, quest: QuestDefinition
) -> None:
    QuestDefinition.objects.create(
        slug="old_crypt", name="The Old Crypt", source="x", enabled=False
    )

    response = host_client.get(reverse("rooms:create"))

    assert response.status_code == 200
    assert b"The Ashen Vault" in response.content
    assert b"The Old Crypt" not in response.content


def test_create_room_redirects_to_its_page(
    host_client: Client, host: User, quest: QuestDefinition
) -> None:
    response = host_client.post(
        reverse("rooms:create"), {"name": "Friday table", "seats": "4", "quest": "ashen_vault"}
    )

    room = Room.objects.get()
    assert response.status_code == 302
    assert response["Location"] == detail_url(room)
    assert (room.name, room.seat_count, room.host) == ("Friday table", 4, host)
    assert room.seats.count() == 4


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"name": "", "seats": "4", "quest": "ashen_vault"}, "name"),
        ({"name": "Friday table", "seats": "6", "quest": "ashen_vault"}, "seats"),
        ({"name": "Friday table", "seats": "4", "quest": "the_pit"}, "quest"),
    ],
)
def test_bad_create_input_shows_errors_and_keeps_what_was_typed(
    host_client: Client, quest: QuestDefinition, data: dict[str, str], field: str
) -> None:
    response = host_client.post(reverse("rooms:create"), data)

    assert response.status_code == 200
    assert field in response.context["form"].errors
    assert not Room.objects.exists()
    if data["name"]:
        assert b'value="Friday table"' in response.content


# the room page


def test_a_zagor_room_names_each_seats_hero_as_the_game_page_does(
    host_client: Client, host: User
) -> None:
    quest_sync_shipped()
    room = services.room_create(host=host, name="Orb night", seat_count=4, game="zagor")

    content = host_client.get(detail_url(room)).content.decode()

    for name in ("Anvar the Barbarian", "Stubble the Dwarf", "Braxus the Warrior", "Sallazar"):
        assert name in content


def test_room_page_shows_seats_roles_and_invite_link(
    host_client: Client, room: Room, alice: User
) -> None:
    services.room_seat_take(room_id=room.pk, user=alice, number=3)

    response = host_client.get(detail_url(room))

    content = response.content.decode()
    assert response.status_code == 200
    assert "Zargon" in content
    assert "Barbarian &amp; Dwarf" in content
    assert "Elf &amp; Wizard" in content
    assert "alice" in content
    assert f"/rooms/join/{room.invite_code}" in content
    assert take_url(room, 1) in content
    assert take_url(room, 3) not in content  # alice holds it


def test_launch_button_only_for_the_host_of_a_full_open_room(
    host_client: Client, alice_client: Client, room: Room, host: User, alice: User, bob: User
) -> None:
    services.room_seat_take(room_id=room.pk, user=host, number=1)
    services.room_seat_take(room_id=room.pk, user=alice, number=2)
    assert b"Launch" not in host_client.get(detail_url(room)).content

    services.room_seat_take(room_id=room.pk, user=bob, number=3)

    launch_path = f"/rooms/{room.pk}/launch"
    assert launch_path.encode() in host_client.get(detail_url(room)).content
    assert launch_path.encode() not in alice_client.get(detail_url(room)).content
    mark_playing(room)
    assert launch_path.encode() not in host_client.get(detail_url(room)).content


def test_playing_room_links_to_its_game(host_client: Client, room: Room, host: User) -> None:
    services.room_seat_take(room_id=room.pk, user=host, number=1)
    mark_playing(room)
    game = Game.objects.create(room=room, quest_slug="ashen_vault", seats=3, seed=7, state={})

    response = host_client.get(detail_url(room))

    assert f"/games/{game.pk}/".encode() in response.content
    assert b"Take seat" not in response.content


def test_playing_room_page_is_hidden_from_non_members(alice_client: Client, room: Room) -> None:
    mark_playing(room)

    assert alice_client.get(detail_url(room)).status_code == 404


def test_unknown_room_is_404(host_client: Client, quest: QuestDefinition) -> None:
    assert host_client.get(reverse("rooms:detail", args=[999])).status_code == 404


# joining and seats


def test_invite_link_shows_the_room_page(alice_client: Client, room: Room) -> None:
    response = alice_client.get(f"/rooms/join/{room.invite_code}")

    assert response.status_code == 200
    assert response.context["room"] == room
    assert take_url(room, 2).encode() in response.content


def test_unknown_invite_link_is_404(alice_client: Client, room: Room) -> None:
    assert alice_client.get("/rooms/join/not-a-code").status_code == 404


def test_take_and_leave_a_seat(alice_client: Client, room: Room, alice: User) -> None:
    response = alice_client.post(take_url(room, 2))

    assert response.status_code == 302
    assert response["Location"] == detail_url(room)
    assert services.room_member_seat(room=room, user=alice) == 2

    response = alice_client.post(reverse("rooms:seat_leave", args=[room.pk]), follow=True)

    assert services.room_member_seat(room=room, user=alice) is None
    assert b"You left your seat" in response.content


def test_taking_a_taken_seat_shows_why(alice_client: Client, room: Room, bob: User) -> None:
    services.room_seat_take(room_id=room.pk, user=bob, number=2)

    response = alice_client.post(take_url(room, 2), follow=True)

    assert b"Seat 2 is already taken by bob" in response.content


def test_seat_buttons_need_post(alice_client: Client, room: Room) -> None:
    assert alice_client.get(take_url(room, 2)).status_code == 405


def test_take_in_unknown_room_is_404(alice_client: Client, quest: QuestDefinition) -> None:
    assert alice_client.post(reverse("rooms:seat_take", args=[999, 1])).status_code == 404


# login required


@pytest.mark.parametrize("page", ["create", "detail", "join"])
def test_pages_redirect_anonymous_visitors_to_login(client: Client, room: Room, page: str) -> None:
    urls = {
        "create": reverse("rooms:create"),
        "detail": reverse("rooms:detail", args=[room.pk]),
        "join": reverse("rooms:join", args=[room.invite_code]),
    }

    response = client.get(urls[page])

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_anonymous_seat_post_changes_nothing(client: Client, room: Room) -> None:
    response = client.post(take_url(room, 2))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert not room.seats.filter(user__isnull=False).exists()


def test_outsider_may_not_see_a_finished_room(room: Room) -> None:
    room.status = Room.Status.FINISHED
    room.save()
    outsider = Client()
    outsider.force_login(make_user("outsider"))

    assert outsider.get(detail_url(room)).status_code == 404


def test_room_options_chosen_on_the_form_show_on_the_room_page(
    host_client: Client, host: User, quest: QuestDefinition
) -> None:
    data = {"name": "UK", "seats": "3", "quest": "ashen_vault", "edition": "uk"}
    response = host_client.post(reverse("rooms:create"), {**data, "spell_draft": "on"})
    room = Room.objects.get()
    assert room.options == {"edition": "uk", "spell_draft": True}
    page = host_client.get(response["Location"]).content.decode()
    assert "UK edition rules · Spell draft" in page


def test_room_form_refuses_an_unknown_edition(
    host_client: Client, host: User, quest: QuestDefinition
) -> None:
    data = {"name": "UK", "seats": "3", "quest": "ashen_vault", "edition": "fr"}
    response = host_client.post(reverse("rooms:create"), data)
    assert response.status_code == 200 and not Room.objects.exists()
    assert "Select a valid choice" in response.content.decode()


# no dead ends: cancelling, and a launched room's invite


def test_the_host_cancels_a_room_nobody_launched(host_client: Client, room: Room) -> None:
    assert (
        reverse("rooms:cancel", args=[room.pk]).encode()
        in host_client.get(detail_url(room)).content
    )

    response = host_client.post(reverse("rooms:cancel", args=[room.pk]), follow=True)

    assert response.redirect_chain[-1][0] == "/"
    assert "is cancelled" in response.content.decode()
    assert not Room.objects.filter(pk=room.pk).exists()


def test_only_the_host_cancels_and_only_before_the_launch(
    host_client: Client, alice_client: Client, room: Room
) -> None:
    assert (
        reverse("rooms:cancel", args=[room.pk]).encode()
        not in alice_client.get(detail_url(room)).content
    )
    response = alice_client.post(reverse("rooms:cancel", args=[room.pk]), follow=True)
    assert "Only the host can cancel this room." in response.content.decode()

    mark_playing(room)
    response = host_client.post(reverse("rooms:cancel", args=[room.pk]), follow=True)
    assert "can no longer be cancelled" in response.content.decode()
    assert Room.objects.filter(pk=room.pk).exists()


def test_a_launched_rooms_invite_shows_a_non_member_nothing(
    alice_client: Client, room: Room
) -> None:
    """The same page as a wrong code: no room name, quest or player."""
    mark_playing(room)

    response = alice_client.get(f"/rooms/join/{room.invite_code}")
    wrong = alice_client.get("/rooms/join/no-such-code")

    assert response.status_code == wrong.status_code == 404
    masked = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]*"')  # masked anew each time
    assert masked.sub(b"", response.content) == masked.sub(b"", wrong.content)
    page = response.content.decode()
    assert room.name not in page and room.quest.name not in page and room.host.username not in page


def test_a_launched_rooms_invite_still_shows_the_room_to_a_member(
    host_client: Client, room: Room
) -> None:
    mark_playing(room)

    response = host_client.get(f"/rooms/join/{room.invite_code}")

    assert response.status_code == 200 and room.name in response.content.decode()
