"""Rooms and seats: creating a room, taking and leaving seats, who plays what.

Every function takes keyword arguments only and raises `RoomError` with a message a player can
read. Launching is not here: it is a play service that reads these models (rooms never imports
play) and sets `room.status` to playing.
"""

import logging
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.apps import apps
from django.contrib.auth.models import AnonymousUser
from django.db import IntegrityError, models, transaction
from django.utils import timezone

from apps.accounts.limits import rate_limit_exceeded
from apps.accounts.models import User
from apps.core.errors import Refusal
from apps.core.realtime import LOBBY_GROUP, poke_on_commit, room_group
from apps.games.port import GameFace, SeatRole
from apps.games.registry import DEFAULT_GAME, UnknownGame, game_face
from apps.rooms.clocks import MAX_SPAN, MIN_TURN_TIME, clock_problems, room_clock_rule
from apps.rooms.models import Room, Seat

logger = logging.getLogger(__name__)

NAME_MAX_LENGTH = Room._meta.get_field("name").max_length or 80


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
    role: str  # the game's word for what the seat plays (its face's `seat_roles`)
    heroes: list[str]  # the pieces the seat plays
    label: str = ""
    ai: bool = False  # played by the AI: nobody can take it
    away_until: datetime | None = None  # the player is away until then (their clock waits)


def _quest_model() -> type[models.Model]:
    # rooms and quests are independent siblings (import-linter): reach the model by label.
    return apps.get_model("quests", "QuestDefinition")


def quest_choices(*, game: str | None = None) -> models.QuerySet[Any]:
    """The scenarios a new room may play (of one game, or of all): the enabled definitions."""
    scenarios = _quest_model()._default_manager.filter(enabled=True)
    if game is not None:
        scenarios = scenarios.filter(kind=game)
    return scenarios.order_by("kind", "name")


def room_game_face(slug: str) -> GameFace:
    """The face of the game a new room asks for (RoomError if the site plays no such game)."""
    try:
        return game_face(slug)
    except UnknownGame:
        raise RoomError(f"There is no game called “{slug}” to play here.") from None


def _validated_name(name: str) -> str:
    name = name.strip()
    if not name:
        raise RoomError("Give the room a name.")
    if len(name) > NAME_MAX_LENGTH:
        raise RoomError(f"The room name can be at most {NAME_MAX_LENGTH} characters.")
    return name


def _validate_seat_count(face: GameFace, seat_count: int) -> None:
    if not face.min_seats <= seat_count <= face.max_seats:
        raise RoomError(
            f"A room of {face.name} has {face.min_seats} to {face.max_seats} seats, "
            f"not {seat_count}."
        )


def _enabled_quest(face: GameFace, slug: str | None) -> models.Model:
    scenarios = quest_choices(game=face.slug)
    if slug is None:  # the game's first shipped scenario, else any it has
        shipped = [s.slug for s in face.scenarios()][:1]
        quest = scenarios.filter(slug__in=shipped).first() or scenarios.first()
    else:
        quest = scenarios.filter(slug=slug).first()
    if quest is None:
        word = face.scenario_words[0]
        raise RoomError(f"There is no {word} called “{slug}” to play in {face.name}.")
    return quest


def _validate_turn_times(
    turn_time_limit: timedelta | None, reminder_after: timedelta | None
) -> None:
    """A turn limit and a reminder of 5 minutes to 60 days (the sweep runs every minute), the
    reminder before the limit."""
    for value, what in ((turn_time_limit, "A turn time limit"), (reminder_after, "A reminder")):
        if value is not None and not MIN_TURN_TIME <= value <= MAX_SPAN:
            raise RoomError(f"{what} is at least 5 minutes and at most 60 days.")
    if (
        turn_time_limit is not None
        and reminder_after is not None
        and reminder_after >= turn_time_limit
    ):
        raise RoomError("The reminder must come before the turn time limit runs out.")


def _validated_options(face: GameFace, options: dict[str, Any] | None) -> dict[str, Any]:
    problems = face.option_problems({} if options is None else options)
    if problems:
        raise RoomError(" ".join(problems))
    return dict(options or {})


def room_settings_problems(
    *,
    kind: str,
    seat_count: int,
    turn_time_limit: timedelta | None,
    reminder_after: timedelta | None,
    options: Any,
    ai_seat: str,
) -> dict[str, str]:
    """What `room_create` would refuse in these settings, by field (the admin's room form
    checks with it, so an admin stores nothing a host could not)."""
    try:
        face = room_game_face(kind)
    except RoomError as exc:
        return {"kind": exc.message}
    problems: dict[str, str] = {}
    checks: tuple[tuple[str, Any], ...] = (
        ("seat_count", lambda: _validate_seat_count(face, seat_count)),
        ("reminder_after", lambda: _validate_turn_times(turn_time_limit, reminder_after)),
        ("options", lambda: _validated_options(face, options)),
        ("ai_seat", lambda: _validate_ai_seat(face, ai_seat)),
    )
    for field, check in checks:
        try:
            check()
        except RoomError as exc:
            problems[field] = exc.message
    return problems


def _validate_ai_seat(face: GameFace, ai_seat: str) -> None:
    if ai_seat not in Room.AiSeat.values:
        raise RoomError("The AI seat is played by a person (“human”) or by the AI (“ai”).")
    if ai_seat == Room.AiSeat.AI and face.ai_seat is None:
        raise RoomError(f"{face.name} has no seat the AI can play: every seat is a person's.")


def room_rules_in_force(*, room: Room) -> list[str]:
    """The room options in force, in words, for the room page and the game header."""
    return room.face.option_lines(room.options)


def room_clock_in_force(*, room: Room) -> list[str]:
    """The room's clock and timeout rule, in words (room page, game page, API)."""
    return room_clock_rule(room=room)


def room_options_in_force(*, room: Room) -> dict[str, Any]:
    """The room options with the game's defaults filled in."""
    return {**room.face.option_defaults(), **room.options}


def room_create(
    *,
    host: User,
    name: str,
    seat_count: int,
    game: str = DEFAULT_GAME,
    quest_slug: str | None = None,
    turn_time_limit: timedelta | None = None,
    reminder_after: timedelta | None = None,
    options: dict[str, Any] | None = None,
    ai_seat: str = Room.AiSeat.HUMAN,
    invite_only: bool = False,
    allow_spectators: bool = False,
    clock: str = Room.Clock.FIXED,
    bank_initial: timedelta | None = None,
    bank_increment: timedelta | None = None,
    bank_cap: timedelta | None = None,
    vacation: bool = False,
    extend_hours: int | None = None,
) -> Room:
    """Create an open room of `game` with empty seats 1..seat_count. The host still has to take
    a seat.

    `quest_slug`: the scenario (default: the game's first); `turn_time_limit`: how long a seat
    has for its turn before the game's timeout rule plays it (its face's `timeout_rule`);
    `reminder_after`: when the seat to move is reminded. `ai_seat`: "human" or, in a game with
    an AI seat, "ai" (solo play: nobody takes that seat and the AI plays its turns at once).
    `options`: the game's room options (its face's `option_specs`); an unknown or malformed one
    is refused, never stored.
    `invite_only`: the room is not listed in the lobby, and only its invite link seats someone.
    `allow_spectators`: logged-in people without a seat may watch the quest once it runs.
    `clock` "fixed" (every turn `turn_time_limit`) or "bank" (`bank_initial`, `bank_increment`
    after each turn, capped at `bank_cap`); `vacation`: a late turn spends a vacation day
    first; `extend_hours`: what the other players' extend vote gives (rooms/clocks.py).
    """
    face = room_game_face(game)
    name = _validated_name(name)
    _validate_seat_count(face, seat_count)
    _validate_turn_times(turn_time_limit, reminder_after)
    options = _validated_options(face, options)
    problems = clock_problems(
        clock=clock,
        turn_time_limit=turn_time_limit,
        bank_initial=bank_initial,
        bank_increment=bank_increment,
        bank_cap=bank_cap,
        extend_hours=extend_hours,
    )
    if problems:
        raise RoomError(" ".join(problems))
    _validate_ai_seat(face, ai_seat)
    quest = _enabled_quest(face, quest_slug)
    if rate_limit_exceeded(group="room_create", key=f"user:{host.pk}"):
        raise TooManyRooms("You have opened many rooms lately: wait a while before another.")
    with transaction.atomic():
        room = Room.objects.create(
            kind=face.slug,
            name=name,
            host=host,
            quest_id=quest.pk,
            seat_count=seat_count,
            turn_time_limit=turn_time_limit,
            reminder_after=reminder_after,
            options=options,
            ai_seat=ai_seat,
            invite_only=invite_only,
            allow_spectators=allow_spectators,
            clock=clock,
            bank_initial=bank_initial,
            bank_increment=bank_increment,
            bank_cap=bank_cap,
            vacation=vacation,
            extend_hours=extend_hours,
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


def room_changed(*, room_id: int) -> None:
    """After commit, poke the room's pages and every lobby: something about the room changed.

    The poke carries nothing but its type; each page fetches again what its user may see.
    Whoever changes a room (seats, status) calls this inside the transaction.
    """
    for group in (room_group(room_id=room_id), LOBBY_GROUP):
        poke_on_commit(group=group, message={"type": "room.changed"})


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
        if number == room.ai_seat_number:
            label = _role_of(room, number).label
            raise RoomError(f"The AI plays {label} in this room: take another seat.")
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


def _role_of(room: Room, number: int) -> SeatRole:
    roles = {role.number: role for role in room.face.seat_roles(room.seat_count)}
    return roles.get(number, SeatRole(number, "player", f"Seat {number}"))


def room_player_seats(room: Room) -> models.QuerySet[Seat]:
    """The seats people take: all of them but the AI's, when the AI plays one."""
    seats = room.seats.all()
    ai_seat = room.ai_seat_number
    return seats if ai_seat is None else seats.exclude(number=ai_seat)


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
    roles = {role.number: role for role in room.face.seat_roles(room.seat_count)}
    return [
        SeatSummary(
            number=seat.number,
            username=seat.user.username if seat.user else None,
            shown_name=str(seat.user) if seat.user else None,
            role=roles[seat.number].role,
            heroes=list(roles[seat.number].pieces),
            label=roles[seat.number].label,
            ai=seat.number == room.ai_seat_number,
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
