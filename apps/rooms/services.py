"""Rooms and seats: creating a room, taking and leaving seats, who plays what.

Every function takes keyword arguments only and raises `RoomError` with a message a player can
read. Launching is not here: it is a play service that reads these models (rooms never imports
play) and sets `room.status` to playing.
"""

import asyncio
import functools
import logging
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.apps import apps
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import IntegrityError, models, transaction
from django.utils import timezone

from apps.accounts.limits import rate_limit_exceeded
from apps.accounts.models import User
from apps.core.errors import Refusal
from apps.games.heroquest.engine.data import ZARGON_SEAT, heroes_of_seat
from apps.games.heroquest.engine.options import describe, room_option_problems
from apps.rooms.models import Room, Seat

logger = logging.getLogger(__name__)

MIN_SEATS = 2
MAX_SEATS = 5
NAME_MAX_LENGTH = Room._meta.get_field("name").max_length or 80

SeatRole = Literal["zargon", "heroes"]
# Every lobby page listens here: a room was created, filled, launched or closed.
LOBBY_GROUP = "lobby"


class RoomError(Refusal):
    """A request that the rules of rooms refuse; `message` is shown to the player."""

    status = 422


class RoomNotFound(RoomError):
    """No such room (views answer 404)."""

    status = 404


class TooManyRooms(RoomError):
    """The user opened rooms faster than settings.RATE_LIMITS["room_create"] (views: 429)."""

    status = 429


@dataclass(frozen=True)
class SeatSummary:
    number: int
    username: str | None
    shown_name: str | None
    role: SeatRole
    heroes: list[str]
    ai: bool = False  # played by the monster AI: nobody can take it
    away_until: datetime | None = None  # the player is away until then (their clock waits)


def _quest_model() -> type[models.Model]:
    # rooms and quests are independent siblings (import-linter): reach the model by label.
    return apps.get_model("quests", "QuestDefinition")


def quest_choices() -> models.QuerySet[Any]:
    """The quests a new room may play: the enabled QuestDefinitions."""
    return _quest_model()._default_manager.filter(enabled=True).order_by("name")


def _validated_name(name: str) -> str:
    name = name.strip()
    if not name:
        raise RoomError("Give the room a name.")
    if len(name) > NAME_MAX_LENGTH:
        raise RoomError(f"The room name can be at most {NAME_MAX_LENGTH} characters.")
    return name


def _validate_seat_count(seat_count: int) -> None:
    if not MIN_SEATS <= seat_count <= MAX_SEATS:
        raise RoomError(f"A room has {MIN_SEATS} to {MAX_SEATS} seats, not {seat_count}.")


def _enabled_quest(slug: str) -> models.Model:
    quest = quest_choices().filter(slug=slug).first()
    if quest is None:
        raise RoomError(f"There is no quest called “{slug}” to play.")
    return quest


def _validate_turn_times(
    turn_time_limit: timedelta | None, reminder_after: timedelta | None
) -> None:
    for value in (turn_time_limit, reminder_after):
        if value is not None and value <= timedelta(0):
            raise RoomError("Turn times must be longer than zero.")
    if (
        turn_time_limit is not None
        and reminder_after is not None
        and reminder_after >= turn_time_limit
    ):
        raise RoomError("The reminder must come before the turn time limit runs out.")


def _validated_options(options: dict[str, Any] | None) -> dict[str, Any]:
    problems = room_option_problems({} if options is None else options)
    if problems:
        raise RoomError(" ".join(problems))
    return dict(options or {})


def room_settings_problems(
    *,
    seat_count: int,
    turn_time_limit: timedelta | None,
    reminder_after: timedelta | None,
    options: Any,
    zargon: str,
) -> dict[str, str]:
    """What `room_create` would refuse in these settings, by field (the admin's room form
    checks with it, so an admin stores nothing a host could not)."""
    problems: dict[str, str] = {}
    checks: tuple[tuple[str, Any], ...] = (
        ("seat_count", lambda: _validate_seat_count(seat_count)),
        ("reminder_after", lambda: _validate_turn_times(turn_time_limit, reminder_after)),
        ("options", lambda: _validated_options(options)),
    )
    for field, check in checks:
        try:
            check()
        except RoomError as exc:
            problems[field] = exc.message
    if zargon not in Room.Zargon.values:
        problems["zargon"] = "Zargon is played by a person (“human”) or by the monster AI (“ai”)."
    return problems


def room_rules_in_force(*, room: Room) -> list[str]:
    """The room options in force, in words, for the room page and the game header."""
    return describe(room.options)


def room_create(
    *,
    host: User,
    name: str,
    seat_count: int,
    quest_slug: str = "ashen_vault",
    turn_time_limit: timedelta | None = None,
    reminder_after: timedelta | None = None,
    options: dict[str, Any] | None = None,
    zargon: str = Room.Zargon.HUMAN,
    invite_only: bool = False,
    allow_spectators: bool = False,
) -> Room:
    """Create an open room with empty seats 1..seat_count. The host still has to take a seat.

    `turn_time_limit`: how long a seat has for its turn before it ends by itself (Zargon's phase
    is then played by the monster AI); `reminder_after`: when the seat to move is reminded.
    `zargon`: "human" (a player takes seat 1) or "ai" (solo play: the people take seats
    2..seat_count and the monster AI plays every Zargon phase as soon as the heroes are done).
    `options`: the room options (docs/rules.md 3, 8, 9: edition, spell_draft,
    heroes_pass_heroes); an unknown or malformed one is refused, never stored.
    `invite_only`: the room is not listed in the lobby, and only its invite link seats someone.
    `allow_spectators`: logged-in people without a seat may watch the quest once it runs.
    """
    name = _validated_name(name)
    _validate_seat_count(seat_count)
    _validate_turn_times(turn_time_limit, reminder_after)
    options = _validated_options(options)
    if zargon not in Room.Zargon.values:
        raise RoomError("Zargon is played by a person (“human”) or by the monster AI (“ai”).")
    quest = _enabled_quest(quest_slug)
    if rate_limit_exceeded(group="room_create", key=f"user:{host.pk}"):
        raise TooManyRooms("You have opened many rooms lately: wait a while before another.")
    with transaction.atomic():
        room = Room.objects.create(
            name=name,
            host=host,
            quest_id=quest.pk,
            seat_count=seat_count,
            turn_time_limit=turn_time_limit,
            reminder_after=reminder_after,
            options=options,
            zargon=zargon,
            invite_only=invite_only,
            allow_spectators=allow_spectators,
        )
        Seat.objects.bulk_create(
            Seat(room=room, number=number) for number in range(1, seat_count + 1)
        )
        room_changed(room_id=room.pk)
    return room


def room_spectators_set(*, room_id: int, user: User | AnonymousUser, allow: bool) -> Room:
    """The host lets spectators watch the room's quest, or stops them (members only; others get
    RoomNotFound). Whoever plays the game tells its open sockets (rooms never imports play)."""
    with transaction.atomic():
        room = Room.objects.select_for_update().filter(pk=room_id).first()
        if room is None or not room_is_member(room=room, user=user):
            raise RoomNotFound("No such room.")
        if room.host_id != user.pk:
            raise RoomError("Only the host decides whether spectators may watch.")
        if room.allow_spectators != allow:
            room.allow_spectators = allow
            room.save(update_fields=["allow_spectators"])
            room_changed(room_id=room.pk)
    return room


def room_group(*, room_id: int) -> str:
    """The channel group of the sockets of one room's pages."""
    return f"room-{room_id}"


def room_changed(*, room_id: int) -> None:
    """After commit, poke the room's pages and every lobby: something about the room changed.

    The poke carries nothing but its type; each page fetches again what its user may see.
    Whoever changes a room (seats, status) calls this inside the transaction.
    """
    transaction.on_commit(functools.partial(_poke_room, room_id))


def _poke_room(room_id: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return

    async def send() -> None:
        for group in (room_group(room_id=room_id), LOBBY_GROUP):
            message = {"type": "room.changed"}
            # A frozen Redis costs the request at most REDIS_TIMEOUT, never a hung page.
            await asyncio.wait_for(layer.group_send(group, message), settings.REDIS_TIMEOUT)

    try:
        async_to_sync(send)()
    except Exception as exc:  # the change is committed; pages catch up on their next load
        logger.warning("could not announce a change of room %s: %s", room_id, type(exc).__name__)


def _locked_room(room_id: int) -> Room:
    """The room, its row locked until the transaction ends: seat changes in one room queue up."""
    try:
        return Room.objects.select_for_update().get(pk=room_id)
    except Room.DoesNotExist:
        raise RoomNotFound("There is no such room.") from None


def _require_visible(room: Room, user: User) -> None:
    """A room `user` may not see answers as a missing one: whether it was launched (or exists)
    is not told to strangers by the refusal of a leave or a cancel."""
    if not room_visible_to(room=room, user=user):
        raise RoomNotFound("There is no such room.")


def _require_open(room: Room) -> None:
    if room.status != Room.Status.OPEN:
        raise RoomError("The quest has already started: seats can no longer change.")


def _seat_of_number(room: Room, number: int) -> Seat:
    seat = room.seats.select_related("user").filter(number=number).first()
    if seat is None:
        raise RoomError(f"This room has no seat {number}; its seats are 1 to {room.seat_count}.")
    return seat


def room_seat_take(*, room_id: int, user: User, number: int, invite_code: str = "") -> Seat:
    """Sit `user` in seat `number`, moving them from any other seat they held in the room.

    A room the user may not see (launched without them, or invite-only) does not exist for them
    (RoomNotFound), unless they bring the `invite_code` of an open room.
    """
    with transaction.atomic():
        room = _locked_room(room_id)
        invited = room.status == Room.Status.OPEN and secrets.compare_digest(
            invite_code.encode(),
            room.invite_code.encode(),  # bytes: any text compares
        )
        if not (invited or room_visible_to(room=room, user=user)):
            raise RoomNotFound("There is no such room.")
        _require_open(room)
        seat = _seat_of_number(room, number)
        if number < room.first_player_seat:
            raise RoomError("The monster AI plays Zargon in this room: take a hero seat.")
        if seat.user_id == user.pk:
            return seat
        if seat.user is not None:
            raise RoomError(f"Seat {number} is already taken by {seat.user}.")
        room.seats.filter(user=user).update(user=None)
        seat.user = user
        try:
            with transaction.atomic():
                seat.save(update_fields=["user"])
        except IntegrityError:  # only reachable if a writer skipped the room lock
            raise RoomError(f"Seat {number} was just taken; choose another.") from None
        room_changed(room_id=room.pk)
    return seat


def room_seat_leave(*, room_id: int, user: User, number: int | None = None) -> None:
    """Free the seat `user` holds (only before launch). With `number`, it must be that seat."""
    with transaction.atomic():
        room = _locked_room(room_id)
        _require_visible(room, user)
        _require_open(room)
        seat = room.seats.filter(user=user).first()
        if seat is None:
            raise RoomError("You don't have a seat in this room.")
        if number is not None and seat.number != number:
            raise RoomError(f"You are in seat {seat.number}, not seat {number}.")
        seat.user = None
        seat.save(update_fields=["user"])
        room_changed(room_id=room.pk)


def room_cancel(*, room_id: int, user: User) -> str:
    """The host calls off a room nobody launched: the room and its seats go. Returns its name."""
    with transaction.atomic():
        room = _locked_room(room_id)
        _require_visible(room, user)
        if room.host_id != user.pk:
            raise RoomError("Only the host can cancel this room.")
        if room.status != Room.Status.OPEN:
            raise RoomError("The quest has already started: the room can no longer be cancelled.")
        name = room.name
        room.delete()
    return name


def room_by_invite(*, code: str, user: User | AnonymousUser) -> Room:
    """The room an invite link leads to. Once launched, it leads a non-member nowhere (the same
    answer as a wrong code, nothing of the room: name, quest, players), unless the host lets
    spectators watch: then anyone signed in may see the room and its "watch" link."""
    room = Room.objects.select_related("host", "quest").filter(invite_code=code).first()
    shown = room is not None and (
        room.status == Room.Status.OPEN
        or room.allow_spectators
        or room_is_member(room=room, user=user)
    )
    if room is None or not shown:
        raise RoomNotFound("That invite link doesn't lead to any room. Check it and try again.")
    return room


def room_heroes_by_seat(*, seat_count: int) -> dict[int, list[str]]:
    """The heroes each hero seat plays (docs/rules.md 1, from the engine); seat 1 is Zargon, no key.

    2 seats {2: BDEW}; 3 {2: BD, 3: EW}; 4 {2: BD, 3: E, 4: W}; 5 one hero each.
    """
    _validate_seat_count(seat_count)
    return {
        number: list(heroes_of_seat(seat_count, number))
        for number in range(ZARGON_SEAT + 1, seat_count + 1)
    }


def room_seat_role(*, number: int) -> SeatRole:
    return "zargon" if number == ZARGON_SEAT else "heroes"


def room_player_seats(room: Room) -> models.QuerySet[Seat]:
    """The seats people take: all of them, or 2..N when the monster AI plays Zargon."""
    return room.seats.filter(number__gte=room.first_player_seat)


def room_is_full(room: Room) -> bool:
    return not room_player_seats(room).filter(user__isnull=True).exists()


def room_member_seat(*, room: Room, user: User | AnonymousUser) -> int | None:
    """The seat number `user` holds in `room`, or None."""
    if not user.is_authenticated:
        return None
    number: int | None = room.seats.filter(user=user).values_list("number", flat=True).first()
    return number


def room_is_member(*, room: Room, user: User | AnonymousUser) -> bool:
    """The host and the seated players are the room's members."""
    if not user.is_authenticated:
        return False
    return bool(room.host_id == user.pk or room_member_seat(room=room, user=user) is not None)


def room_visible_to(*, room: Room, user: User | AnonymousUser) -> bool:
    """Anyone logged in may see an open room (to join it); once launched, only its members.

    An invite-only room is its members' alone (others reach it by its invite link only).
    """
    if not user.is_authenticated:
        return False
    listed = room.status == Room.Status.OPEN and not room.invite_only
    return listed or room_is_member(room=room, user=user)


def room_seat_summaries(*, room: Room) -> list[SeatSummary]:
    """Every seat in order: who holds it and what it plays."""
    heroes = room_heroes_by_seat(seat_count=room.seat_count)
    return [
        SeatSummary(
            number=seat.number,
            username=seat.user.username if seat.user else None,
            shown_name=str(seat.user) if seat.user else None,
            role=room_seat_role(number=seat.number),
            heroes=heroes.get(seat.number, []),
            ai=seat.number < room.first_player_seat,
            away_until=_away_until(seat.user),
        )
        for seat in room.seats.select_related("user").order_by("number")
    ]


def _away_until(user: User | None) -> datetime | None:
    if user is None or user.away_until is None or user.away_until <= timezone.now():
        return None
    return user.away_until


def room_game_id(*, room: Room) -> int | None:
    """The launched game's id through the reverse one-to-one `room.game`, or None."""
    game = getattr(room, "game", None)  # a missing related object raises AttributeError too
    return None if game is None else int(game.pk)


def room_game_watch_token(*, room: Room) -> str | None:
    """The launched game's spectators' link token (through the reverse `room.game`), or None."""
    game = getattr(room, "game", None)
    token = getattr(game, "watch_token", None)
    return str(token) if token else None


def room_game_paused(*, room: Room) -> bool:
    """Has the host paused the launched game's clock? (through the reverse `room.game`)"""
    game = getattr(room, "game", None)
    return game is not None and getattr(game, "paused_at", None) is not None
