from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.http import HttpRequest

from apps.accounts.models import ApiToken, User


@admin.register(User)
class PlayerAdmin(UserAdmin):
    fieldsets = (
        *(UserAdmin.fieldsets or ()),
        (
            "Profile",
            {
                "fields": (
                    "display_name",
                    "turn_email",
                    "reminders",
                    "email_chat",
                    "time_zone",
                    "away_until",
                )
            },
        ),
    )
    list_display = ("username", "email", "display_name", "is_staff", "date_joined")


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin[ApiToken]):
    """Tokens are issued by their owner (services.token_issue); here they can be renamed or
    revoked (deleted). The raw token is never stored, so the admin cannot show or create one."""

    list_display = ("name", "user", "created", "last_used", "expires")
    list_select_related = ("user",)
    search_fields = ("name", "user__username", "user__email")
    fields = ("user", "name", "key_hash", "created", "last_used", "expires")
    readonly_fields = ("user", "key_hash", "created", "last_used", "expires")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
