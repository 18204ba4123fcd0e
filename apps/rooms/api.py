"""`/api/rooms`: create a room, read it, take and leave seats (docs/web-contract.md).

Rule violations answer 422 `{"detail": "..."}`, unknown or hidden rooms 404; a body that does not
match the schema gets 400 (config/api.py's handler for ninja's ValidationError).
"""

from datetime import datetime, timedelta
from typing import Any, Literal, cast

from ninja import Field, Router, Schema, Status

from apps.accounts.http import AuthenticatedHttpRequest
from apps.games.registry import DEFAULT_GAME
from apps.rooms import services
from apps.rooms.models import Room

router = Router(tags=["rooms"])
MAX_MINUTES = 60 * 24 * 60  # 60 days, the longest turn (rooms/clocks.py)


class ClockIn(Schema):
    """The clock beside the turn limit (docs/web-contract.md, "Turns over days")."""

    kind: Literal["fixed", "bank"] = Field(
        "fixed", description='"fixed": `turn_hours` each turn; "bank": a time bank per player.'
    )
    bank_hours: int | None = Field(None, ge=1, le=24 * 60, description="A bank's starting time.")
    increment_hours: int | None = Field(
        None, ge=0, le=24 * 60, description="Added to a bank after each of its player's turns."
    )
    cap_hours: int | None = Field(None, ge=1, le=24 * 60, description="A bank never holds more.")
    vacation: bool = Field(
        False, description="A late turn first spends a day of its player's vacation allowance."
    )
    extend_hours: int | None = Field(
        None, ge=1, le=168, description="What the others' extend vote gives (two thirds agree)."
    )


class ClockOut(ClockIn):
    pass


class RoomIn(Schema):
    name: str
    seats: int
    game: str = Field(DEFAULT_GAME, description="The game's slug (GET /api/games/kinds).")
    quest: str | None = Field(
        None, description="The scenario (a quest, a tale) of the game; omit: the game's first."
    )
    turn_hours: int | None = Field(
        None,
        ge=1,
        le=24 * 14,
        description="Hours a seat has for its turn; then the game's timeout rule plays it "
        "(`timeout_rule` of GET /api/games/kinds). Omit or null: no limit. Or give "
        "turn_minutes instead.",
    )
    turn_minutes: int | None = Field(
        None,
        ge=1,
        le=MAX_MINUTES,
        description="The turn limit in minutes (at least 5), instead of turn_hours.",
    )
    reminder_hours: int | None = Field(
        None,
        ge=1,
        le=24 * 14,
        description="Hours after which the player to move is reminded (a second reminder when "
        "a sixth of the turn is left); must be less than the turn limit. Omit or null: no "
        "reminder. Or give reminder_minutes instead.",
    )
    reminder_minutes: int | None = Field(
        None,
        ge=1,
        le=MAX_MINUTES,
        description="The reminder in minutes (at least 5), instead of reminder_hours.",
    )
    options: dict[str, Any] = Field(
        default_factory=dict,
        description="The game's room options (each game's `options` in GET /api/games/kinds). "
        "An unknown or malformed option is refused (422).",
    )
    ai_seat: Literal["human", "ai"] = Field(
        "human",
        description='Who plays the game\'s AI seat (`ai_seat` in GET /api/games/kinds): "human" '
        'or "ai" (solo play: the AI plays its turns at once; nobody is offered that seat). A '
        'game without an AI seat refuses "ai" (422).',
    )
    allow_spectators: bool = Field(
        False,
        description="Logged-in people without a seat may watch the quest once it runs (the "
        "heroes' common view, the table talk read-only). The host may change it later.",
    )
    clock: ClockIn | None = Field(
        None, description="Time banks, vacation, the extend vote (omit: a fixed limit, or none)."
    )


class SeatOut(Schema):
    number: int
    user: str | None
    role: str = Field(description="What the seat plays, in the game's own word.")
    label: str = Field(description="The seat's role in a player's words.")
    heroes: list[str] = Field(description="The pieces (heroes) the seat plays.")
    ai: bool = Field(description="Played by the AI: nobody can take this seat.")
    away_until: datetime | None = Field(
        None, description="The player is away until then: their turns' clock waits."
    )


class RoomOut(Schema):
    id: int
    game: str
    name: str
    quest: str
    seat_count: int
    status: str
    invite_code: str
    host: str
    seats: list[SeatOut]
    game_id: int | None
    turn_hours: int | None = Field(
        description="Hours per turn, rounded down (null: no limit; turn_minutes is exact)."
    )
    turn_minutes: int | None = Field(description="Minutes per turn (null: no limit).")
    reminder_hours: int | None = Field(
        description="Hours before the reminder, rounded down (null: none)."
    )
    reminder_minutes: int | None = Field(description="Minutes before the reminder (null: none).")
    options: dict[str, Any]  # every room option, the defaults filled in
    rules: list[str]  # the options in force, in words
    ai_seat: Literal["human", "ai"]
    allow_spectators: bool
    clock: ClockOut
    clock_rule: list[str] = Field(description="The clock and the timeout rule, in words.")


class ErrorOut(Schema):
    detail: str


ERRORS = {404: ErrorOut, 422: ErrorOut, 429: ErrorOut}


def _room_out(room: Room) -> RoomOut:
    seats = [
        SeatOut(
            number=s.number,
            user=s.username,
            role=s.role,
            label=s.label,
            heroes=s.heroes,
            away_until=s.away_until,
            ai=s.ai,
        )
        for s in services.room_seat_summaries(room=room)
    ]
    return RoomOut(
        id=room.pk,
        game=room.kind,
        name=room.name,
        quest=room.quest.slug,
        seat_count=room.seat_count,
        status=room.status,
        invite_code=room.invite_code,
        host=room.host.username,
        seats=seats,
        game_id=services.room_game_id(room=room),
        turn_hours=_hours(room.turn_time_limit),
        turn_minutes=_minutes(room.turn_time_limit),
        reminder_hours=_hours(room.reminder_after),
        reminder_minutes=_minutes(room.reminder_after),
        options=services.room_options_in_force(room=room),
        rules=services.room_rules_in_force(room=room),
        ai_seat=cast(Literal["human", "ai"], room.ai_seat),
        allow_spectators=room.allow_spectators,
        clock=ClockOut(
            kind=cast(Literal["fixed", "bank"], room.clock),
            bank_hours=_hours(room.bank_initial),
            increment_hours=_hours(room.bank_increment),
            cap_hours=_hours(room.bank_cap),
            vacation=room.vacation,
            extend_hours=room.extend_hours,
        ),
        clock_rule=services.room_clock_in_force(room=room),
    )


def _hours(duration: timedelta | None) -> int | None:
    return None if duration is None else int(duration.total_seconds() // 3600)


def _minutes(duration: timedelta | None) -> int | None:
    return None if duration is None else int(duration.total_seconds() // 60)


def _duration(hours: int | None) -> timedelta | None:
    return None if hours is None else timedelta(hours=hours)


def _span(what: str, hours: int | None, minutes: int | None) -> timedelta | None:
    """A turn time given in hours or in minutes (not both: 422)."""
    if hours is not None and minutes is not None:
        raise services.RoomError(f"Give {what}_hours or {what}_minutes, not both.")
    return timedelta(minutes=minutes) if minutes is not None else _duration(hours)


def _visible_room(request: AuthenticatedHttpRequest, room_id: int) -> Room:
    room = Room.objects.select_related("host", "quest").filter(pk=room_id).first()
    if room is None or not services.room_visible_to(room=room, user=request.user):
        raise services.RoomNotFound("There is no such room.")
    return room


@router.post("", response={201: RoomOut, **ERRORS})
def create_room(request: AuthenticatedHttpRequest, payload: RoomIn) -> Status[RoomOut]:
    clock = payload.clock or ClockIn.model_validate({})
    room = services.room_create(
        host=request.user,
        name=payload.name,
        seat_count=payload.seats,
        game=payload.game,
        quest_slug=payload.quest,
        turn_time_limit=_span("turn", payload.turn_hours, payload.turn_minutes),
        reminder_after=_span("reminder", payload.reminder_hours, payload.reminder_minutes),
        options=payload.options,
        ai_seat=payload.ai_seat,
        allow_spectators=payload.allow_spectators,
        clock=clock.kind,
        bank_initial=_duration(clock.bank_hours),
        bank_increment=_duration(clock.increment_hours),
        bank_cap=_duration(clock.cap_hours),
        vacation=clock.vacation,
        extend_hours=clock.extend_hours,
    )
    return Status(201, _room_out(room))


@router.get("/{room_id}", response={200: RoomOut, **ERRORS})
def get_room(request: AuthenticatedHttpRequest, room_id: int) -> RoomOut:
    return _room_out(_visible_room(request, room_id))


@router.post("/{room_id}/seats/{number}", response={200: RoomOut, **ERRORS})
def take_seat(
    request: AuthenticatedHttpRequest, room_id: int, number: int, invite: str = ""
) -> RoomOut:
    """`invite`: the room's invite code, needed to join an invite-only (campaign) room."""
    services.room_seat_take(room_id=room_id, user=request.user, number=number, invite_code=invite)
    return _room_out(_visible_room(request, room_id))


@router.delete("/{room_id}/seats/{number}", response={200: RoomOut, **ERRORS})
def leave_seat(request: AuthenticatedHttpRequest, room_id: int, number: int) -> RoomOut:
    _visible_room(request, room_id)
    services.room_seat_leave(room_id=room_id, user=request.user, number=number)
    return _room_out(_visible_room(request, room_id))
