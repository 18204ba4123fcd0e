"""The rooms admin: a room's settings are checked as `room_create` checks a host's (the engine's
own option table, seat counts, turn times); the seat count and options of a launched room stay
as they were launched."""

from typing import Any

from django import forms
from django.contrib import admin

from apps.rooms.models import Room, Seat
from apps.rooms.services import room_settings_problems


class RoomAdminForm(forms.ModelForm[Room]):
    class Meta:
        model = Room
        fields = (
            "kind",
            "name",
            "host",
            "quest",
            "seat_count",
            "invite_code",
            "status",
            "ai_seat",
            "turn_time_limit",
            "reminder_after",
            "options",
            "invite_only",
            "allow_spectators",
        )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        room = self.instance
        if room.pk is not None and room.status != Room.Status.OPEN:
            for field in ("kind", "seat_count", "ai_seat"):
                if field in cleaned and cleaned[field] != getattr(room, field):
                    self.add_error(field, "The game has started: this can no longer change.")
        if self.errors:
            return cleaned
        problems = room_settings_problems(
            kind=cleaned.get("kind", room.kind),
            seat_count=cleaned.get("seat_count", room.seat_count),
            turn_time_limit=cleaned.get("turn_time_limit"),
            reminder_after=cleaned.get("reminder_after"),
            options=cleaned.get("options", room.options),
            ai_seat=cleaned.get("ai_seat", room.ai_seat),
        )
        for field, message in problems.items():
            self.add_error(field if field in self.fields else None, message)
        return cleaned


class SeatInline(admin.TabularInline[Seat, Room]):
    model = Seat
    extra = 0
    fields = ("number", "user")
    autocomplete_fields = ("user",)
    ordering = ("number",)


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin[Room]):
    form = RoomAdminForm
    list_display = ("name", "quest", "host", "seat_count", "status", "created")
    list_filter = ("status", "quest")
    list_select_related = ("host", "quest")
    search_fields = ("name", "host__username", "invite_code")
    autocomplete_fields = ("host",)
    readonly_fields = ("created",)
    exclude = ("webhook_url",)  # the host's secret: nobody else sees it, staff included
    inlines = (SeatInline,)
