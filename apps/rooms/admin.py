from django.contrib import admin

from apps.rooms.models import Room, Seat


class SeatInline(admin.TabularInline[Seat, Room]):
    model = Seat
    extra = 0
    fields = ("number", "user")
    autocomplete_fields = ("user",)
    ordering = ("number",)


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin[Room]):
    list_display = ("name", "quest", "host", "seat_count", "status", "created")
    list_filter = ("status", "quest")
    list_select_related = ("host", "quest")
    search_fields = ("name", "host__username", "invite_code")
    autocomplete_fields = ("host",)
    readonly_fields = ("created",)
    exclude = ("webhook_url",)  # the host's secret: nobody else sees it, staff included
    inlines = (SeatInline,)
