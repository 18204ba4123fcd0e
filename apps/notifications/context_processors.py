from typing import Any

from django.http import HttpRequest

from apps.notifications.services import notification_unread_count


def unread_notifications(request: HttpRequest) -> dict[str, Any]:
    """`notifications_unread`: the header badge's count (one COUNT query, logged-in users)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"notifications_unread": notification_unread_count(user=user)}
