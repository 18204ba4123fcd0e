from django import forms

from apps.campaigns.services import NAME_MAX_LENGTH

SEAT_CHOICES = [
    (n, f"{n} seats (Zargon and {n - 1} hero player{'s' if n > 2 else ''})") for n in range(2, 6)
]


class CampaignCreateForm(forms.Form):
    name = forms.CharField(max_length=NAME_MAX_LENGTH, strip=True)


class NextQuestForm(forms.Form):
    quest = forms.SlugField(widget=forms.HiddenInput, required=False)
    name = forms.CharField(max_length=NAME_MAX_LENGTH, strip=True, label="Room name")
    seats = forms.TypedChoiceField(choices=SEAT_CHOICES, coerce=int, initial=5)


class GoldGiveForm(forms.Form):
    to_sheet = forms.TypedChoiceField(label="To", coerce=int, choices=[])
    amount = forms.IntegerField(min_value=1, max_value=1_000_000)

    def __init__(self, *args: object, choices: list[tuple[int, str]], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        field = self.fields["to_sheet"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = choices


class PotionsGiveForm(GoldGiveForm):
    amount = forms.IntegerField(min_value=1, max_value=1000, label="Potions")
