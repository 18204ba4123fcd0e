from datetime import timedelta
from typing import Any

from django import forms
from django.utils.html import format_html
from django.utils.safestring import SafeString

from apps.games.port import GameFace
from apps.games.registry import DEFAULT_GAME, UnknownGame, game_face, game_faces
from apps.rooms import services
from apps.rooms.clocks import MAX_SPAN, MIN_TURN_TIME
from apps.rooms.models import Room

# A turn limit or a reminder is a number and its unit (hours when the unit is left out, as the
# form took it before minutes).
SPAN_UNITS = [("minutes", "minutes"), ("hours", "hours"), ("days", "days")]
SPAN_MAX_NUMBER = 60 * 24 * 60  # 60 days in minutes: the service refuses anything longer


class SpanWidget(forms.MultiWidget):
    """A number box (`<name>`) and a unit (`<name>_unit`), side by side."""

    def __init__(self, label: str) -> None:
        number = forms.NumberInput(
            attrs={
                "min": 1,
                "step": 1,
                "inputmode": "numeric",
                "placeholder": "none",
                "aria-label": f"{label}: how many",
            }
        )
        unit = forms.Select(choices=SPAN_UNITS, attrs={"aria-label": f"{label}: unit"})
        super().__init__({"": number, "unit": unit})

    def decompress(self, value: timedelta | None) -> list[Any]:
        if not value:
            return [None, "hours"]
        minutes = int(value.total_seconds() // 60)
        if minutes % (24 * 60) == 0:
            return [minutes // (24 * 60), "days"]
        if minutes % 60 == 0:
            return [minutes // 60, "hours"]
        return [minutes, "minutes"]

    def render(self, *args: Any, **kwargs: Any) -> SafeString:
        return format_html('<span class="span-input">{}</span>', super().render(*args, **kwargs))


class SpanField(forms.MultiValueField):
    """A span of time given as a number of minutes, hours or days; empty: none."""

    def __init__(self, *, label: str, **kwargs: Any) -> None:
        fields = (
            forms.IntegerField(min_value=1, max_value=SPAN_MAX_NUMBER, required=False),
            forms.ChoiceField(choices=SPAN_UNITS, required=False),
        )
        super().__init__(
            fields,
            widget=SpanWidget(label),
            label=label,
            require_all_fields=False,
            required=False,
            **kwargs,
        )

    def compress(self, data_list: list[Any]) -> timedelta | None:
        number = data_list[0] if data_list else None
        if number is None:
            return None
        unit = (data_list[1] if len(data_list) > 1 else "") or "hours"
        return timedelta(**{unit: number})


BANK_CHOICES = [("", "—")] + [
    (str(h), label)
    for h, label in (
        (12, "12 hours"),
        (24, "1 day"),
        (48, "2 days"),
        (72, "3 days"),
        (168, "1 week"),
    )
]
INCREMENT_CHOICES = [
    ("", "Nothing"),
    ("1", "1 hour"),
    ("6", "6 hours"),
    ("12", "12 hours"),
    ("24", "1 day"),
]
CAP_CHOICES = [("", "No cap")] + [
    (str(h), label)
    for h, label in ((72, "3 days"), (120, "5 days"), (168, "1 week"), (336, "2 weeks"))
]
EXTEND_CHOICES = [("", "No vote")] + [(str(h), f"{h} more hours") for h in (12, 24, 48)]


def _hours(value: str) -> timedelta | None:
    return timedelta(hours=int(value)) if value else None


def form_game(data: Any, query: Any) -> GameFace:
    """The game a room form is for: the posted one, else the page's `?game=`, else the default."""
    for source in (data, query):
        slug = source.get("game") if source else None
        if slug:
            try:
                return game_face(slug)
            except UnknownGame:
                break
    return game_face(DEFAULT_GAME)


class RoomCreateForm(forms.Form):
    """A new room of one game: its seats, scenarios, AI seat and options come from the game's
    face (apps/games/port.py), so the form names no game's rules."""

    game = forms.ChoiceField(widget=forms.HiddenInput, required=False)
    name = forms.CharField(max_length=services.NAME_MAX_LENGTH, strip=True)
    seats = forms.TypedChoiceField(coerce=int)
    quest: forms.ModelChoiceField[Any] = forms.ModelChoiceField(
        queryset=None, to_field_name="slug", empty_label=None
    )
    turn_time_limit = SpanField(label="Turn time limit")
    reminder_after = SpanField(
        label="Remind the player to move after",
        help_text="At least 5 minutes, and before the time limit; empty: no reminder. A second "
        "reminder comes when a sixth of the turn is left (by email for players who want "
        "reminders).",
    )
    clock = forms.ChoiceField(
        label="Clock",
        choices=Room.Clock.choices,
        initial=Room.Clock.FIXED,
        required=False,  # left out: the fixed limit
        widget=forms.RadioSelect,
        help_text="A time bank lets a player who is quick today be slow tomorrow.",
    )
    bank_initial = forms.TypedChoiceField(
        label="Time bank to start with",
        choices=BANK_CHOICES,
        coerce=_hours,
        empty_value=None,
        required=False,
    )
    bank_increment = forms.TypedChoiceField(
        label="Added after each turn",
        choices=INCREMENT_CHOICES,
        coerce=_hours,
        empty_value=None,
        required=False,
    )
    bank_cap = forms.TypedChoiceField(
        label="Bank at most", choices=CAP_CHOICES, coerce=_hours, empty_value=None, required=False
    )
    vacation = forms.BooleanField(
        label="Spend vacation days instead of timing out",
        required=False,
        help_text="A turn that runs out first spends a day of its player's yearly vacation "
        "allowance (noted in the game's log).",
    )
    extend_hours = forms.TypedChoiceField(
        label="Extend vote",
        choices=EXTEND_CHOICES,
        coerce=int,
        empty_value=None,
        required=False,
        help_text="The other players may give the player to move more time (two thirds agree).",
    )
    allow_spectators = forms.BooleanField(
        label="Allow spectators",
        required=False,
        help_text="Logged-in people without a seat may watch the game from the lobby: they see "
        "what every player sees in common and read the table talk, nothing more. You can change "
        "this later.",
    )

    def __init__(self, *args: Any, face: GameFace, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.face = face
        game_field = self.fields["game"]
        assert isinstance(game_field, forms.ChoiceField)
        game_field.choices = [(g.slug, g.name) for g in game_faces()]
        game_field.initial = face.slug
        seats = self.fields["seats"]
        assert isinstance(seats, forms.TypedChoiceField)
        seats.choices = [
            (n, face.seat_count_label(n)) for n in range(face.min_seats, face.max_seats + 1)
        ]
        seats.initial = face.max_seats
        quest_field = self.fields["quest"]
        assert isinstance(quest_field, forms.ModelChoiceField)
        quest_field.label = face.scenario_words[0].capitalize()
        # Per request: admins toggle scenarios.
        quest_field.queryset = services.quest_choices(game=face.slug)
        first = face.scenarios()[:1]
        quest_field.initial = first[0].slug if first else None
        self.fields[
            "turn_time_limit"
        ].help_text = f"At least 5 minutes; empty: no limit. {face.timeout_rule()}"
        for name in ("bank_initial", "bank_increment", "bank_cap"):
            # Shown by the page only while the bank clock is chosen (the server ignores them
            # otherwise, see clean); the rest of the form reads better without them.
            self.fields[name].shown_when = ("clock", Room.Clock.BANK)  # type: ignore[attr-defined]
        if face.ai_seat is not None:
            person, ai = face.ai_seat_choices
            self.fields["ai_seat"] = forms.TypedChoiceField(
                label=f"Seat {face.ai_seat}",
                required=False,
                empty_value=Room.AiSeat.HUMAN,
                choices=[(Room.AiSeat.HUMAN, person), (Room.AiSeat.AI, ai)],
                initial=Room.AiSeat.HUMAN,
                widget=forms.RadioSelect,
            )
        for spec in face.option_specs():
            if spec.choices:
                self.fields[spec.name] = forms.ChoiceField(
                    label=spec.label,
                    choices=list(spec.choices),
                    initial=spec.default,
                    required=False,  # left out: the default
                    help_text=spec.help,
                )
            else:
                self.fields[spec.name] = forms.BooleanField(
                    label=spec.label, required=False, initial=spec.default, help_text=spec.help
                )

    def room_options(self) -> dict[str, Any]:
        """The room options chosen, only those that differ from the game's defaults."""
        chosen = {}
        for spec in self.face.option_specs():
            value = self.cleaned_data.get(spec.name)
            value = (value or spec.default) if spec.choices else bool(value)
            if spec.numeric and isinstance(value, str) and value.isdigit():
                value = int(value)
            if value != spec.default:
                chosen[spec.name] = value
        return chosen

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        limit, reminder = cleaned.get("turn_time_limit"), cleaned.get("reminder_after")
        for name, span in (("turn_time_limit", limit), ("reminder_after", reminder)):
            if span is not None and not MIN_TURN_TIME <= span <= MAX_SPAN:
                self.add_error(name, "Give at least 5 minutes and at most 60 days.")
        limit, reminder = cleaned.get("turn_time_limit"), cleaned.get("reminder_after")
        if limit is not None and reminder is not None and reminder >= limit:
            self.add_error("reminder_after", "The reminder must come before the time limit.")
        if cleaned.get("clock") != Room.Clock.BANK:  # bank times only count for a bank
            cleaned.update(bank_initial=None, bank_increment=None, bank_cap=None)
        elif cleaned.get("bank_initial") is None:
            self.add_error("bank_initial", "A time bank needs a starting amount of time.")
        return cleaned

    def clock_options(self) -> dict[str, Any]:
        """The clock options chosen, as `room_create` takes them."""
        data = self.cleaned_data
        return {
            "clock": data.get("clock") or Room.Clock.FIXED,
            "bank_initial": data.get("bank_initial"),
            "bank_increment": data.get("bank_increment"),
            "bank_cap": data.get("bank_cap"),
            "vacation": bool(data.get("vacation")),
            "extend_hours": data.get("extend_hours"),
        }
