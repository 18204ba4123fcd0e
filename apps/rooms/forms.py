from datetime import timedelta
from typing import Any

from django import forms

from apps.games.heroquest.engine.options import DEFAULTS
from apps.rooms import services
from apps.rooms.models import Room

SEAT_CHOICES = [
    (n, f"{n} seats (Zargon and {n - 1} hero player{'s' if n > 2 else ''})")
    for n in range(services.MIN_SEATS, services.MAX_SEATS + 1)
]

TURN_TIME_LIMIT_CHOICES = [("", "No limit"), ("1", "1 hour"), ("12", "12 hours")] + [
    (str(h), f"{h} hours") for h in (24, 48, 72)
]
REMINDER_CHOICES = [("", "No reminder"), ("1", "after 1 hour")] + [
    (str(h), f"after {h} hours") for h in (6, 12, 24, 48)
]


def _hours(value: str) -> timedelta | None:
    return timedelta(hours=int(value)) if value else None


class RoomCreateForm(forms.Form):
    name = forms.CharField(max_length=services.NAME_MAX_LENGTH, strip=True)
    seats = forms.TypedChoiceField(choices=SEAT_CHOICES, coerce=int, initial=services.MAX_SEATS)
    quest: forms.ModelChoiceField[Any] = forms.ModelChoiceField(
        queryset=None, to_field_name="slug", empty_label=None
    )
    zargon = forms.TypedChoiceField(
        label="Zargon",
        required=False,
        empty_value=Room.Zargon.HUMAN,
        choices=[
            (Room.Zargon.HUMAN, "A player takes seat 1 and plays the monsters"),
            (Room.Zargon.AI, "The monster AI plays Zargon (solo play: people take the hero seats)"),
        ],
        initial=Room.Zargon.HUMAN,
        widget=forms.RadioSelect,
    )
    turn_time_limit = forms.TypedChoiceField(
        label="Turn time limit",
        choices=TURN_TIME_LIMIT_CHOICES,
        coerce=_hours,
        empty_value=None,
        required=False,
        help_text="A hero turn that runs out ends by itself; Zargon's monsters are then played "
        "by the built-in AI.",
    )
    reminder_after = forms.TypedChoiceField(
        label="Remind the player to move",
        choices=REMINDER_CHOICES,
        coerce=_hours,
        empty_value=None,
        required=False,
        help_text="One reminder per turn (by email for players who want reminders).",
    )

    edition = forms.ChoiceField(
        label="Rules edition",
        choices=[
            ("us", "US edition"),
            ("uk", "UK edition (monsters have 1 Body, no diagonal attacks)"),
        ],
        initial="us",
        required=False,  # left out: the US edition
    )
    spell_draft = forms.BooleanField(
        label="Spell draft",
        required=False,
        help_text="The Wizard picks a spell element, then the Elf, then the Wizard takes the rest.",
    )
    allow_spectators = forms.BooleanField(
        label="Allow spectators",
        required=False,
        help_text="Logged-in people without a seat may watch the quest from the lobby: they see "
        "what the heroes all see and read the table talk, nothing more. You can change this later.",
    )
    heroes_pass_heroes = forms.BooleanField(
        label="Heroes may pass heroes",
        required=False,
        help_text="A hero may move through another hero's square (never stop on it).",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        quest_field = self.fields["quest"]
        assert isinstance(quest_field, forms.ModelChoiceField)
        quest_field.queryset = services.quest_choices()  # per request: admins toggle quests
        quest_field.initial = "ashen_vault"

    def room_options(self) -> dict[str, Any]:
        """The room options chosen, only those that differ from the defaults."""
        chosen = {
            "edition": self.cleaned_data.get("edition") or "us",
            "spell_draft": bool(self.cleaned_data.get("spell_draft")),
            "heroes_pass_heroes": bool(self.cleaned_data.get("heroes_pass_heroes")),
        }
        return {key: value for key, value in chosen.items() if value != DEFAULTS[key]}

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        limit, reminder = cleaned.get("turn_time_limit"), cleaned.get("reminder_after")
        if limit is not None and reminder is not None and reminder >= limit:
            self.add_error("reminder_after", "The reminder must come before the time limit.")
        return cleaned
