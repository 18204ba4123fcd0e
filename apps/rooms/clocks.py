"""A room's clock in words, and its options checked: the timeout rule in force, for the room page,
the game page and the API (what the game does with a late turn is its face's `timeout_rule`)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings

from apps.rooms.models import Room

MAX_SPAN = timedelta(days=60)
# The shortest turn limit or reminder: Celery beat sweeps the turns every minute.
MIN_TURN_TIME = timedelta(minutes=5)
MAX_EXTEND_HOURS = 168


class ClockError(ValueError):
    """A clock option the room cannot have; the message says why."""


def span_words(span: timedelta) -> str:
    """ "2 days", "36 hours", "90 minutes": the largest unit the span is a whole number of."""
    minutes = int(span.total_seconds() // 60)
    if minutes and minutes % (24 * 60) == 0:
        days = minutes // (24 * 60)
        return f"{days} day{'s' if days != 1 else ''}"
    if minutes and minutes % 60 == 0:
        hours = minutes // 60
        return f"{hours} hour{'s' if hours != 1 else ''}"
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def clock_problems(
    *,
    clock: str,
    turn_time_limit: timedelta | None,
    bank_initial: timedelta | None,
    bank_increment: timedelta | None,
    bank_cap: timedelta | None,
    extend_hours: int | None,
) -> list[str]:
    """Every problem of a room's clock options (empty: fine)."""
    problems = []
    if clock not in Room.Clock.values:
        problems.append("The clock is “fixed” (a limit per turn) or “bank” (a time bank).")
    if clock == Room.Clock.BANK:
        if bank_initial is None or bank_initial <= timedelta(0):
            problems.append("A time bank needs a starting amount of time.")
        for name, span in (("starting bank", bank_initial), ("increment", bank_increment)):
            if span is not None and not timedelta(0) <= span <= MAX_SPAN:
                problems.append(f"The {name} must be between 0 and 60 days.")
        if bank_cap is not None and bank_initial is not None and bank_cap < bank_initial:
            problems.append("The bank's cap cannot be below its starting amount.")
    elif any(v is not None for v in (bank_initial, bank_increment, bank_cap)):
        problems.append("Bank times are for a room whose clock is a time bank.")
    if extend_hours is not None and not 1 <= extend_hours <= MAX_EXTEND_HOURS:
        problems.append(f"An extension is 1 to {MAX_EXTEND_HOURS} hours.")
    if clock == Room.Clock.FIXED and turn_time_limit is None and extend_hours is not None:
        problems.append("Without a time limit there is no deadline to extend.")
    return problems


def room_clock_rule(*, room: Room) -> list[str]:
    """The clock and the timeout rule in force, one sentence each."""
    lines = []
    has_deadline = room.clock == Room.Clock.BANK or room.turn_time_limit is not None
    if room.clock == Room.Clock.BANK and room.bank_initial is not None:
        bank = f"Each player has a time bank of {span_words(room.bank_initial)}"
        if room.bank_increment:
            bank += f", plus {span_words(room.bank_increment)} after each of their turns"
        if room.bank_cap is not None:
            bank += f" (never more than {span_words(room.bank_cap)})"
        lines.append(bank + "; a turn lasts what its player's bank holds.")
    elif room.turn_time_limit is not None:
        lines.append(f"Each turn lasts {span_words(room.turn_time_limit)}.")
    else:
        lines.append("No time limit: a turn waits for its player.")
    if room.reminder_after is not None:
        reminder = f"The player to move is reminded after {span_words(room.reminder_after)}"
        lines.append(
            reminder + (", and when a sixth of the turn is left." if has_deadline else ".")
        )
    if has_deadline and room.vacation:
        days = settings.VACATION_DAYS_PER_YEAR
        lines.append(
            "A turn that runs out first spends a day of its player's vacation allowance "
            f"({days} days a year), noted in the game's log."
        )
    if has_deadline and room.extend_hours:
        lines.append(
            f"The other players may give the player to move {room.extend_hours} more "
            f"hour{'s' if room.extend_hours != 1 else ''} (two thirds of them must agree)."
        )
    if has_deadline:
        lines.append(room.face.timeout_rule())
    return lines
