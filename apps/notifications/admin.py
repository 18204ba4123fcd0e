from django.contrib import admin

from apps.notifications.models import Notification


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin[Notification]):
    list_display = ("user", "kind", "title", "created", "read")
    list_filter = ("kind", "read")
    search_fields = ("user__username", "title")
    raw_id_fields = ("user",)
