"""Pages show times in the user's own time zone (the profile's, UTC until one is set)."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from apps.accounts.models import User
from apps.accounts.services import user_zone


class UserTimeZoneMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if isinstance(user, User) and user.time_zone:
            timezone.activate(user_zone(user))
        else:
            timezone.deactivate()
        return self.get_response(request)
