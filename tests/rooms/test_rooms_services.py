import pytest

from apps.accounts.models import User
from apps.quests.models import QuestDefinition
from apps.rooms import services
from apps.rooms.models import Room, Seat
from apps.rooms.services import RoomError
from tests.conftest import make_user
from tests.rooms.conftest import mark_playing

pytestmark = pytest.mark.django_db


def seat_holders(room: Room) -> dict[int, str | None]:
    return {s.number: s.user.username if s.user else None for s in room.seats.all()}


# room_create


@pytest.mark.parametrize("seat_count", [2, 3, 4, 5])
def test_create_makes_empty_seats_one_to_n(
    quest: QuestDefinition, host: User, seat_count: int
) -> None:
    room = services.room_create(host=host, name="  Crypt crawl ", seat_count=seat_count)

    assert room.name == "Crypt crawl"
    assert room.host == host
    assert room.quest == quest
    assert room.status == Room.Status.OPEN
    assert room.invite_code
    assert seat_holders(room) == {n: None for n in range(1, seat_count + 1)}


@pytest.mark.parametrize("seat_count", [0, 1, 6, -2])
def test_create_refuses_seat_counts_outside_two_to_five(
    quest: QuestDefinition, host: User, seat_count: int
) -> None:
    with pytest.raises(RoomError, match="2 to 5 seats"):
        services.room_create(host=host, name="Bad", seat_count=seat_count)
    assert not Room.objects.exists()


def test_create_refuses_unknown_quest(quest: QuestDefinition, host: User) -> None:
    with pytest.raises(RoomError, match="no quest called “the_pit”"):
        services.room_create(host=host, name="Pit", seat_count=3, quest_slug="the_pit")


def test_create_refuses_disabled_quest(quest: QuestDefinition, host: User) -> None:
    quest.enabled = False
    quest.save()

    with pytest.raises(RoomError, match="no quest"):
        services.room_create(host=host, name="Vault", seat_count=3)


@pytest.mark.parametrize("name", ["", "   ", "x" * 81])
def test_create_refuses_blank_or_long_names(quest: QuestDefinition, host: User, name: str) -> None:
    with pytest.raises(RoomError, match="name"):
        services.room_create(host=host, name=name, seat_count=3)


def test_each_room_gets_its_own_invite_code(quest: QuestDefinition, host: User) -> None:
    a = services.room_create(host=host, name="A", seat_count=2)
    b = services.room_create(host=host, name="B", seat_count=2)

    assert a.invite_code != b.invite_code
    assert services.room_by_invite(code=b.invite_code, user=host) == b


def test_unknown_invite_code_is_not_found(room: Room, alice: User) -> None:
    with pytest.raises(services.RoomNotFound):
        services.room_by_invite(code="nope", user=alice)


def test_a_launched_rooms_invite_leads_nowhere_for_a_non_member(
    room: Room, host: User, alice: User
) -> None:
    mark_playing(room)

    with pytest.raises(services.RoomNotFound) as refused:
        services.room_by_invite(code=room.invite_code, user=alice)
    with pytest.raises(services.RoomNotFound) as unknown:
        services.room_by_invite(code="nope", user=alice)

    assert refused.value.message == unknown.value.message
    assert services.room_by_invite(code=room.invite_code, user=host) == room


# room_seat_take / room_seat_leave


def test_take_free_seat(room: Room, alice: User) -> None:
    seat = services.room_seat_take(room_id=room.pk, user=alice, number=2)

    assert seat.number == 2
    assert seat_holders(room) == {1: None, 2: "alice", 3: None}
    assert services.room_member_seat(room=room, user=alice) == 2


def test_seat_taken_by_another_is_refused(room: Room, alice: User, bob: User) -> None:
    services.room_seat_take(room_id=room.pk, user=alice, number=2)

    with pytest.raises(RoomError, match="Seat 2 is already taken by alice"):
        services.room_seat_take(room_id=room.pk, user=bob, number=2)
    assert seat_holders(room)[2] == "alice"


def test_taking_own_seat_again_changes_nothing(room: Room, alice: User) -> None:
    services.room_seat_take(room_id=room.pk, user=alice, number=2)
    services.room_seat_take(room_id=room.pk, user=alice, number=2)

    assert seat_holders(room) == {1: None, 2: "alice", 3: None}


def test_taking_another_seat_moves_the_player(room: Room, alice: User) -> None:
    services.room_seat_take(room_id=room.pk, user=alice, number=2)
    services.room_seat_take(room_id=room.pk, user=alice, number=1)

    assert seat_holders(room) == {1: "alice", 2: None, 3: None}


@pytest.mark.parametrize("number", [0, 4, 99])
def test_taking_a_seat_the_room_lacks_is_refused(room: Room, alice: User, number: int) -> None:
    with pytest.raises(RoomError, match=f"no seat {number}"):
        services.room_seat_take(room_id=room.pk, user=alice, number=number)


def test_taking_a_seat_in_an_unknown_room_is_not_found(alice: User) -> None:
    with pytest.raises(services.RoomNotFound):
        services.room_seat_take(room_id=12345, user=alice, number=1)


def test_no_seat_changes_after_launch(room: Room, alice: User, bob: User) -> None:
    services.room_seat_take(room_id=room.pk, user=alice, number=2)
    mark_playing(room)

    with pytest.raises(services.RoomNotFound):  # a launched room is its members' alone
        services.room_seat_take(room_id=room.pk, user=bob, number=3, invite_code=room.invite_code)
    with pytest.raises(RoomError, match="already started"):
        services.room_seat_take(room_id=room.pk, user=alice, number=3)


def test_leave_frees_the_seat(room: Room, alice: User) -> None:
    services.room_seat_take(room_id=room.pk, user=alice, number=3)

    services.room_seat_leave(room_id=room.pk, user=alice)

    assert seat_holders(room) == {1: None, 2: None, 3: None}
    assert services.room_member_seat(room=room, user=alice) is None


def test_leave_without_a_seat_is_refused(room: Room, alice: User) -> None:
    with pytest.raises(RoomError, match="don't have a seat"):
        services.room_seat_leave(room_id=room.pk, user=alice)


def test_leave_a_seat_you_do_not_hold_is_refused(room: Room, alice: User, bob: User) -> None:
    services.room_seat_take(room_id=room.pk, user=alice, number=2)
    services.room_seat_take(room_id=room.pk, user=bob, number=3)

    with pytest.raises(RoomError, match="seat 2, not seat 3"):
        services.room_seat_leave(room_id=room.pk, user=alice, number=3)
    assert seat_holders(room) == {1: None, 2: "alice", 3: "bob"}


def test_leave_after_launch_is_refused(room: Room, alice: User) -> None:
    services.room_seat_take(room_id=room.pk, user=alice, number=2)
    mark_playing(room)

    with pytest.raises(RoomError, match="already started"):
        services.room_seat_leave(room_id=room.pk, user=alice)
    assert seat_holders(room)[2] == "alice"


def test_room_is_full_when_every_seat_is_taken(
    quest: QuestDefinition, host: User, alice: User
) -> None:
    room = services.room_create(host=host, name="Duel", seat_count=2)
    services.room_seat_take(room_id=room.pk, user=host, number=1)
    assert not services.room_is_full(room)

    services.room_seat_take(room_id=room.pk, user=alice, number=2)

    assert services.room_is_full(room)


def test_a_user_holds_one_seat_per_room_but_may_sit_in_many_rooms(
    quest: QuestDefinition, host: User, alice: User
) -> None:
    first = services.room_create(host=host, name="One", seat_count=2)
    second = services.room_create(host=host, name="Two", seat_count=2)

    services.room_seat_take(room_id=first.pk, user=alice, number=2)
    services.room_seat_take(room_id=second.pk, user=alice, number=1)

    assert Seat.objects.filter(user=alice).count() == 2


# who may see a room


def test_open_room_is_visible_to_anyone_logged_in(room: Room, alice: User) -> None:
    assert services.room_visible_to(room=room, user=alice)


def test_playing_room_is_visible_to_members_only(room: Room, alice: User, host: User) -> None:
    services.room_seat_take(room_id=room.pk, user=alice, number=2)
    outsider = make_user("outsider")
    mark_playing(room)

    assert services.room_visible_to(room=room, user=alice)
    assert services.room_visible_to(room=room, user=host)
    assert not services.room_visible_to(room=room, user=outsider)


# heroes by seat (docs/rules.md section 1)


@pytest.mark.parametrize("seat_count", [1, 6])
def test_a_room_refuses_a_seat_count_outside_its_games_range(seat_count: int, alice: User) -> None:
    with pytest.raises(RoomError, match="2 to 5 seats"):
        services.room_create(host=alice, name="Odd", seat_count=seat_count)


def test_seat_summaries_name_zargon_and_heroes(room: Room, alice: User) -> None:
    services.room_seat_take(room_id=room.pk, user=alice, number=3)

    summaries = services.room_seat_summaries(room=room)

    assert [(s.number, s.username, s.role, s.heroes) for s in summaries] == [
        (1, None, "zargon", []),
        (2, None, "heroes", ["barbarian", "dwarf"]),
        (3, "alice", "heroes", ["elf", "wizard"]),
    ]


# --- room options (docs/rules.md 3, 8, 9) --------------------------------------------------------


def test_create_stores_the_room_options_and_says_them_in_words(
    quest: QuestDefinition, host: User
) -> None:
    options = {"edition": "uk", "spell_draft": True, "heroes_pass_heroes": True}
    room = services.room_create(host=host, name="Old rules", seat_count=3, options=options)
    room.refresh_from_db()
    assert room.options == options
    assert services.room_rules_in_force(room=room) == [
        "UK edition rules",
        "Spell draft",
        "Heroes may pass heroes",
    ]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"editon": "uk"}, "Unknown option 'editon'"),
        ({"edition": "de"}, 'Option "edition" must be "us" or "uk"'),
        ({"spell_draft": "yes"}, 'Option "spell_draft" must be true or false'),
        ({"heroes": {}}, "Unknown option 'heroes'"),  # engine-only: not a host's to set
    ],
)
def test_create_refuses_an_unknown_or_malformed_option(
    quest: QuestDefinition, host: User, options: dict[str, object], message: str
) -> None:
    with pytest.raises(services.RoomError, match=message):
        services.room_create(host=host, name="Odd", seat_count=3, options=options)
    assert not Room.objects.exists()


def test_a_launched_rooms_invite_shows_the_room_when_the_host_lets_spectators_watch(
    room: Room, alice: User
) -> None:
    """Anyone signed in may watch such a game: the invite may lead them to it."""
    mark_playing(room)
    Room.objects.filter(pk=room.pk).update(allow_spectators=True)

    assert services.room_by_invite(code=room.invite_code, user=alice) == room
