"""A prepared query gives what the queryset it was built from gives, for any values."""

import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.db import connection, connections, transaction
from django.db.models import Count, OuterRef, QuerySet, Subquery, Value
from django.test.utils import CaptureQueriesContext

from apps.accounts.models import User
from apps.core import prepared as prepared_module
from apps.core.prepared import PreparationError, PreparedQuery
from apps.quests.models import QuestDefinition
from apps.rooms.models import Room, Seat
from apps.rooms.services import room_create, room_seat_take
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


def rooms_with_seat(*, room_id: int, user_id: int, label: str) -> QuerySet[Room]:
    seat = Seat.objects.filter(room=OuterRef("pk"), user_id=user_id).values("number")[:1]
    return (
        Room.objects.select_related("host")
        .annotate(my_seat=Subquery(seat), label=Value(label))
        .filter(pk=room_id)
    )


RoomAndPlayers = tuple[Room, User, User]

PREPARED = PreparedQuery(rooms_with_seat, room_id=-1_000_001, user_id=-1_000_002, label="~~~")


@pytest.fixture
def room_and_players() -> RoomAndPlayers:
    QuestDefinition.objects.create(slug="ashen_vault", name="The Ashen Vault", source="name: x\n")
    host, guest = make_user("host"), make_user("guest")
    room = room_create(host=host, name="The Ashen Vault", seat_count=3)
    room_seat_take(room_id=room.pk, user=guest, number=2)
    return room, host, guest


def test_prepared_query_gives_the_same_row_as_the_queryset(
    room_and_players: RoomAndPlayers,
) -> None:
    room, _, guest = room_and_players
    for user in (guest, room.host):
        prepared = PREPARED.first(room_id=room.pk, user_id=user.pk, label="hi")
        plain = rooms_with_seat(room_id=room.pk, user_id=user.pk, label="hi").first()
        assert prepared is not None and plain is not None
        assert prepared.pk == plain.pk and prepared.name == plain.name
        assert prepared.my_seat == plain.my_seat and prepared.label == "hi"  # type: ignore[attr-defined]
        assert isinstance(prepared.created, datetime)  # converters ran (text on SQLite)
        assert prepared.created == plain.created


def test_prepared_query_brings_the_selected_related_row_in_the_same_statement(
    room_and_players: RoomAndPlayers,
) -> None:
    room, host, guest = room_and_players
    PREPARED.first(room_id=room.pk, user_id=guest.pk, label="warm")
    with CaptureQueriesContext(connection) as queries:
        prepared = PREPARED.first(room_id=room.pk, user_id=guest.pk, label="x")
        assert prepared is not None and prepared.host.username == host.username
    assert len(queries) == 1


def test_prepared_query_finds_nothing_for_a_missing_row(room_and_players: RoomAndPlayers) -> None:
    room, _, guest = room_and_players
    assert PREPARED.first(room_id=room.pk + 1000, user_id=guest.pk, label="x") is None


def test_a_placeholder_that_is_not_a_parameter_is_refused() -> None:
    # Count() takes no parameter: the stand-in for `label` would never be replaced.
    def build(*, room_id: int, label: str) -> QuerySet[Room]:
        return Room.objects.annotate(n=Count("seats")).filter(pk=room_id)

    with pytest.raises(PreparationError, match="label"):
        PreparedQuery(build, room_id=-5, label="~").first(room_id=1, label="x")


@pytest.mark.django_db(transaction=True)  # no test transaction around it
def test_a_locking_prepared_query_must_run_in_a_transaction(
    room_and_players: RoomAndPlayers,
) -> None:
    room, _, _ = room_and_players
    locking = PreparedQuery(
        lambda *, room_id: Room.objects.select_for_update().filter(pk=room_id), room_id=-9
    )
    with pytest.raises(PreparationError, match="transaction"):
        locking.first(room_id=room.pk)
    with transaction.atomic():
        assert locking.first(room_id=room.pk) == room


def test_a_value_placeholder_keeps_the_type_the_database_adapter_gave_it(
    room_and_players: RoomAndPlayers,
) -> None:
    # On PostgreSQL, Value(int) compiles to a typed parameter (psycopg's Int4), not a plain int.
    room, _, _ = room_and_players
    labelled = PreparedQuery(
        lambda *, room_id, seat: Room.objects.annotate(seat=Value(seat)).filter(pk=room_id),
        room_id=-11,
        seat=-12,
    )
    found = labelled.first(room_id=room.pk, seat=3)
    assert found is not None and found.seat == 3  # type: ignore[attr-defined]


def test_a_datetime_placeholder_is_filled_as_the_backend_adapts_a_datetime(
    room_and_players: RoomAndPlayers,
) -> None:
    # SQLite compares a DateTimeField with text, PostgreSQL with a timestamp: either way the
    # placeholder is found among the parameters and each value goes in as the ORM would put it.
    room, _, _ = room_and_players
    since = PreparedQuery(
        lambda *, room_id, since: Room.objects.filter(pk=room_id, created__gte=since),
        room_id=-21,
        since=datetime(1901, 1, 1, tzinfo=UTC),
    )
    second = timedelta(seconds=1)
    assert since.first(room_id=room.pk, since=room.created - second) == room
    assert since.first(room_id=room.pk, since=room.created + second) is None


@pytest.mark.django_db(transaction=True)  # the other thread's connection must see the room
def test_each_thread_converts_its_rows_on_its_own_connection(
    room_and_players: RoomAndPlayers, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The converters are found once per connection; a backend's converters are its connection's.
    room, host, _ = room_and_players
    prepared = PreparedQuery(rooms_with_seat, room_id=-1_000_001, user_id=-1_000_002, label="~~~")
    calls: list[tuple[Any, Any]] = []
    real = prepared_module._converted

    def converted(row: Any, converters: Any, on: Any) -> Any:
        calls.append((on, connections["default"]))
        return real(row, converters, on)

    monkeypatch.setattr(prepared_module, "_converted", converted)
    found: list[Room | None] = []

    def look() -> None:
        try:
            found.append(prepared.first(room_id=room.pk, user_id=host.pk, label="x"))
            found.append(prepared.first(room_id=room.pk, user_id=host.pk, label="y"))
        finally:
            connections.close_all()

    look_here = [prepared.first(room_id=room.pk, user_id=host.pk, label="z")]
    thread = threading.Thread(target=look)
    thread.start()
    thread.join()

    assert [r.created if r else None for r in look_here + found] == [room.created] * 3
    assert [label for r in found if (label := getattr(r, "label", None))] == ["x", "y"]
    assert len(calls) == 3 and all(on is own for on, own in calls)
    assert calls[0][0] is not calls[1][0]  # the other thread's connection, not this one's


def taken_seats(*, room_id: int) -> QuerySet[Seat]:
    return Seat.objects.filter(room_id=room_id, user__isnull=False).select_related("user")


def test_a_query_prepared_for_many_rows_gives_every_row_the_queryset_gives(
    room_and_players: RoomAndPlayers,
) -> None:
    room, host, _ = room_and_players
    room_seat_take(room_id=room.pk, user=host, number=3)
    seats = PreparedQuery(taken_seats, many=True, room_id=-21)
    seats.all(room_id=room.pk)  # compiled

    with CaptureQueriesContext(connection) as queries:
        prepared = seats.all(room_id=room.pk)
        holders = [(seat.number, seat.user.username) for seat in prepared if seat.user]
    queryset = taken_seats(room_id=room.pk)
    plain = [(seat.number, seat.user.username) for seat in queryset if seat.user]

    assert holders == plain == [(2, "guest"), (3, "host")]
    assert len(queries) == 1  # the users came in the same statement
    assert seats.all(room_id=room.pk + 1000) == []


def test_a_prepared_query_gives_its_rows_only_the_way_it_was_prepared(
    room_and_players: RoomAndPlayers,
) -> None:
    room, _, _ = room_and_players
    with pytest.raises(PreparationError, match="many=True"):
        PreparedQuery(taken_seats, room_id=-22).all(room_id=room.pk)
    with pytest.raises(PreparationError, match="all its rows"):
        PreparedQuery(taken_seats, many=True, room_id=-23).first(room_id=room.pk)
