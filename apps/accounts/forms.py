from typing import Any
from zoneinfo import ZoneInfo

from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.forms import UsernameField
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.utils import timezone

from apps.accounts import services
from apps.accounts.models import User


class SignUpForm(forms.Form):
    username = UsernameField(
        max_length=150,
        validators=[UnicodeUsernameValidator()],
        help_text="Letters, digits and @ . + - _ only; up to 150 characters.",
        widget=forms.TextInput(attrs={"autocomplete": "username", "autofocus": True}),
    )
    email = forms.EmailField(
        max_length=254,
        help_text="For turn notifications and password resets. Never shown to other players.",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    password1 = forms.CharField(
        label="Password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html(),
    )
    password2 = forms.CharField(
        label="Password (again)",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    # Filled in by static/js/timezone.js with the browser's zone; deadlines are shown in it.
    time_zone = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)

    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"]
        if services.username_is_taken(username=username):
            raise forms.ValidationError(
                "That username is already taken. Please choose another.", code="username_taken"
            )
        return username

    def clean_email(self) -> str:
        # Never "this email is taken": that would tell anyone who is registered. A taken
        # address's owner is told by email instead (services.user_sign_up).
        email: str = User.objects.normalize_email(self.cleaned_data["email"])
        return email

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        password1 = cleaned.get("password1")
        password2 = cleaned.get("password2")
        if password1 and password2 and password1 != password2:
            self.add_error(
                "password2",
                forms.ValidationError("The two passwords do not match.", code="password_mismatch"),
            )
        elif password1:
            # An unsaved user lets the similarity validator compare against username and email.
            candidate = User(username=cleaned.get("username", ""), email=cleaned.get("email", ""))
            try:
                password_validation.validate_password(password1, candidate)
            except forms.ValidationError as error:
                self.add_error("password1", error)
        return cleaned


def _time_zone_choices() -> list[tuple[str, str]]:
    return [("", "Not set (UTC)")] + [
        (name, name.replace("_", " ")) for name in sorted(services.time_zone_names())
    ]


class ProfileForm(forms.Form):
    display_name = forms.CharField(
        max_length=60,
        required=False,
        help_text="What other players see. Leave empty to use your username.",
    )
    turn_email = forms.ChoiceField(
        label="Email me when it is my turn",
        choices=User.TurnEmail.choices,
        widget=forms.RadioSelect,
        help_text="Never while you have that game open: the live message is enough.",
    )
    reminders = forms.BooleanField(
        required=False,
        label="Remind me before a turn deadline",
        help_text="Emailed only if turn emails come right away.",
    )
    email_chat = forms.BooleanField(required=False, label="Email me table talk")
    time_zone = forms.ChoiceField(
        label="Time zone",
        choices=_time_zone_choices,
        required=False,
        help_text="Deadlines are shown in it; your daily digest comes at 8 in the morning.",
    )
    away_until = forms.DateTimeField(
        label="Away until",
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text="Your turns wait for you: their clock starts when you are back. It spends "
        "days of your yearly vacation allowance. Leave empty when you are here.",
    )
    quiet_start = forms.TimeField(
        label="Quiet hours from",
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        help_text="No push and no email from then (in your time zone)...",
    )
    quiet_end = forms.TimeField(
        label="Quiet hours until",
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        help_text="...until then: what came meanwhile arrives at the end, the newest per game.",
    )
    chat_handle = forms.CharField(
        label="Chat handle",
        max_length=60,
        required=False,
        help_text="How a table's Discord or Slack webhook mentions you when it is your turn: "
        "your Discord user ID (digits) or Slack member ID pings you; anything else is written "
        "as @text.",
    )
    confirm_actions = forms.BooleanField(
        required=False,
        label="Ask before costly moves",
        help_text="Show a far move's path before taking it, and ask before ending a turn with "
        "movement unrolled or the action unused.",
    )

    def clean(self) -> dict[str, Any]:
        """An "away until" is a wall-clock time in the zone saved with it: typed in the same save
        as a new time zone, it is read in the new zone, not in the one the page was shown in."""
        data = super().clean() or {}
        away, zone = data.get("away_until"), data.get("time_zone")
        if away is not None and zone:
            wall_clock = timezone.make_naive(away, timezone.get_current_timezone())
            data["away_until"] = timezone.make_aware(wall_clock, ZoneInfo(zone))
        start, end = data.get("quiet_start"), data.get("quiet_end")
        if (start is None) != (end is None):
            self.add_error("quiet_end", "Give both ends of your quiet hours, or neither.")
        return data
