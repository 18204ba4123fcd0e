"""A person's deadlines as a private iCalendar feed (RFC 5545, written by `icalendar`).

One event per game where a turn of theirs is due and has a deadline: it starts and ends at the
deadline, in UTC, and its UID is the game's and the turn's, so a calendar that polls the feed
moves the event when the deadline moves (a vacation day, an extend vote) and drops it when the
turn passes. The link is signed with the person's calendar key (apps/accounts/services.py):
revoking it on the profile makes a new key, and the old link opens nothing. The feed says only
what the person's own pages say: the room, the round, the deadline.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from icalendar import Alarm, Calendar, Event

from apps.accounts.models import User
from apps.notifications.services import absolute_url
from apps.play.clock import turn_clock
from apps.play.models import Game
from apps.play.notices import duration_text
from apps.rooms.models import Room, Seat

PRODID = "-//Ashen Vault//Turn deadlines//EN"
ALARM_LEAD = timedelta(hours=1)


def _host() -> str:
    return urlsplit(settings.SITE_URL).hostname or "localhost"


def calendar_deadlines(*, user: User) -> list[tuple[Game, datetime]]:
    """The games waiting on `user` that have a deadline, soonest first (three statements,
    however many games)."""
    mine = dict(
        Seat.objects.filter(
            user=user, room__status=Room.Status.PLAYING, room__game__outcome=""
        ).values_list("room_id", "number")
    )
    games = [
        game
        for game in Game.objects.filter(room_id__in=mine).select_related("room")
        if mine[game.room_id] in game.to_move
    ]
    movers: dict[tuple[int, int], User] = {
        (seat.room_id, seat.number): seat.user
        for seat in Seat.objects.filter(room_id__in=[g.room_id for g in games]).select_related(
            "user"
        )
        if seat.user is not None
    }
    found = []
    for game in games:
        users = [movers.get((game.room_id, seat)) for seat in game.to_move]
        clock = turn_clock(game=game, room=game.room, movers=users)
        if clock is not None and clock.deadline is not None:
            found.append((game, clock.deadline))
    return sorted(found, key=lambda pair: pair[1])


def alarm_lead(turn_limit: timedelta | None) -> timedelta:
    """How long before the deadline the calendar rings: an hour, or for a turn shorter than two
    hours half of it (an hour ahead of a 30-minute turn would ring before the turn began)."""
    if turn_limit is None or turn_limit >= 2 * ALARM_LEAD:
        return ALARM_LEAD
    return max(timedelta(minutes=1), turn_limit / 2)


def calendar_feed(*, user: User, now: datetime | None = None) -> bytes:
    """The feed's text."""
    now = now or timezone.now()
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", "Ashen Vault: my turns")
    calendar.add("refresh-interval;value=duration", "PT1H")
    calendar.add("x-published-ttl", "PT1H")
    for game, deadline in calendar_deadlines(user=user):
        url = absolute_url(reverse("play:game", args=[game.pk]))
        event = Event()
        event.add("uid", f"game-{game.pk}-turn-{game.turn_serial}@{_host()}")
        event.add("dtstamp", now.astimezone(UTC))
        event.add("dtstart", deadline.astimezone(UTC))
        event.add("dtend", deadline.astimezone(UTC))
        event.add("summary", f"Your turn in {game.room.name} ends")
        event.add(
            "description",
            f"Round {game.round} of {game.room.name}: play your turn before then. {url}",
        )
        event.add("url", url)
        event.add("transp", "TRANSPARENT")
        lead = alarm_lead(game.room.turn_time_limit)
        alarm = Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("description", f"Your turn in {game.room.name} ends in {duration_text(lead)}")
        alarm.add("trigger", -lead)
        event.add_component(alarm)
        calendar.add_component(event)
    return bytes(calendar.to_ical())
