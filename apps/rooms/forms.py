from typing import Any

from django import forms

from apps.rooms import services

SEAT_CHOICES = [
    (n, f"{n} seats (Zargon and {n - 1} hero player{'s' if n > 2 else ''})")
    for n in range(services.MIN_SEATS, services.MAX_SEATS + 1)
]


class RoomCreateForm(forms.Form):
    name = forms.CharField(max_length=services.NAME_MAX_LENGTH, strip=True)
    seats = forms.TypedChoiceField(choices=SEAT_CHOICES, coerce=int, initial=services.MAX_SEATS)
    quest: forms.ModelChoiceField[Any] = forms.ModelChoiceField(
        queryset=None, to_field_name="slug", empty_label=None
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        quest_field = self.fields["quest"]
        assert isinstance(quest_field, forms.ModelChoiceField)
        quest_field.queryset = services.quest_choices()  # per request: admins toggle quests
        quest_field.initial = "ashen_vault"
