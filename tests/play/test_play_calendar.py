"""The private calendar feed, parsed by `icalendar`: each game waiting on the person, at its
deadline in UTC, moved when the deadline moves and gone when the turn passes; a revoked link
opens nothing."""

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from icalendar import Calendar

from apps.accounts.models import User
from apps.accounts.services import calendar_token
from apps.play.models import Game
from apps.play.services import game_launch, quest_apply_action
from apps.play.timebank import game_extend_vote

from .conftest import RoomMaker, client_for

pytestmark = pytest.mark.django_db
START = datetime(2026, 5, 4, 16, 30, tzinfo=UTC)
HOUR = timedelta(hours=1)


def feed(user: User) -> Calendar:
    answer = Client().get(f"/calendar/{calendar_token(user=user)}.ics")  # no session: the link
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/calendar")
    return Calendar.from_ical(answer.content)


def deadlines(user: User) -> dict[str, datetime]:
    return {str(event["summary"]): event.decoded("dtstart") for event in feed(user).walk("VEVENT")}


def launch(make_room: RoomMaker, limit: timedelta, **fields: Any) -> tuple[Game, dict[int, User]]:
    room, users = make_room(3)
    room.name = f"Table {limit.total_seconds() / 3600:.0f}h"
    room.turn_time_limit = limit
    for name, value in fields.items():
        setattr(room, name, value)
    room.save()
    return game_launch(room_id=room.pk, user=users[1], seed=1), users


def test_the_feed_lists_each_deadline_in_utc_and_follows_the_turns(
    make_room: RoomMaker, time_machine: Any
) -> None:
    time_machine.move_to(START, tick=False)
    one, users = launch(make_room, 24 * HOUR, extend_hours=12)
    two, _ = launch(make_room, 48 * HOUR)
    me = users[2]
    two.room.seats.filter(number=2).update(user=me)  # I move first in both
    me.time_zone = "Asia/Tokyo"  # times are shown in my zone on pages; the feed is UTC
    me.save()

    found = deadlines(me)
    assert found == {
        "Your turn in Table 24h ends": START + 24 * HOUR,
        "Your turn in Table 48h ends": START + 48 * HOUR,
    }
    assert all(moment.utcoffset() == timedelta(0) for moment in found.values())
    raw = Client().get(f"/calendar/{calendar_token(user=me)}.ics").content
    assert b"DTSTART:20260505T163000Z" in raw and b"DTSTART:20260506T163000Z" in raw
    events = list(feed(me).walk("VEVENT"))
    assert {str(e["uid"]).split("@")[0] for e in events} == {
        f"game-{one.pk}-turn-0",
        f"game-{two.pk}-turn-0",
    }
    urls = [str(e["url"]) for e in events]  # soonest deadline first
    assert [u.rsplit("/games/", 1)[1] for u in urls] == [f"{one.pk}/", f"{two.pk}/"]

    game_extend_vote(game_id=one.pk, user=users[3])  # the deadline moves: so does the event
    game_extend_vote(game_id=one.pk, user=users[1])
    assert deadlines(me)["Your turn in Table 24h ends"] == START + 36 * HOUR

    time_machine.move_to(START + 2 * HOUR, tick=False)
    for hero in ("barbarian", "dwarf"):  # my turn in the first game passes to seat 3
        one.refresh_from_db()
        quest_apply_action(
            game_id=one.pk,
            seat=2,
            action={"type": "end_turn", "hero": hero},
            expected_version=one.version,
            key=hero,
        )
    assert list(deadlines(me)) == ["Your turn in Table 48h ends"]
    assert deadlines(users[3]) == {"Your turn in Table 24h ends": START + 26 * HOUR}


def test_the_link_is_private_and_revocable(make_room: RoomMaker, time_machine: Any) -> None:
    time_machine.move_to(START, tick=False)  # the link is signed with the second it is made in
    _, users = launch(make_room, 24 * HOUR)
    me = users[2]
    token = calendar_token(user=me)
    assert Client().get(f"/calendar/{token}.ics").status_code == 200
    assert Client().get(f"/calendar/{token[:-2]}xx.ics").status_code == 404  # forged
    profile = client_for(me)
    assert token in profile.get("/accounts/profile/").content.decode()
    assert profile.post("/accounts/calendar/revoke").status_code == 302
    assert Client().get(f"/calendar/{token}.ics").status_code == 404
    me.refresh_from_db()
    assert Client().get(f"/calendar/{calendar_token(user=me)}.ics").status_code == 200


def test_the_feed_costs_the_same_for_one_game_or_many(
    make_room: RoomMaker, django_assert_max_num_queries: Any
) -> None:
    _, users = launch(make_room, 24 * HOUR)
    me = users[2]
    for _ in range(4):
        game, _others = launch(make_room, 24 * HOUR)
        game.room.seats.filter(number=2).update(user=me)
    token = calendar_token(user=me)
    with django_assert_max_num_queries(4):
        answer = Client().get(f"/calendar/{token}.ics")
    assert answer.content.count(b"BEGIN:VEVENT") == 5


def alarms(user: User) -> list[tuple[timedelta, str]]:
    return [
        (alarm.decoded("trigger"), str(alarm["description"])) for alarm in feed(user).walk("VALARM")
    ]


def test_the_alarm_rings_an_hour_ahead_of_a_long_turn(
    make_room: RoomMaker, time_machine: Any
) -> None:
    time_machine.move_to(START, tick=False)
    game, users = launch(make_room, 24 * HOUR)

    assert alarms(users[2]) == [(-HOUR, f"Your turn in {game.room.name} ends in 1 hour")]


def test_the_alarm_of_a_30_minute_turn_rings_within_the_turn(
    make_room: RoomMaker, time_machine: Any
) -> None:
    time_machine.move_to(START, tick=False)
    game, users = launch(make_room, timedelta(minutes=30))

    assert alarms(users[2]) == [
        (-timedelta(minutes=15), f"Your turn in {game.room.name} ends in 15 minutes")
    ]
