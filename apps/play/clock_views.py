"""Pages of the clock and the table's channels: the extend vote, the chat webhooks of a room and
of a campaign, and the private calendar feed."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from apps.accounts.http import AuthenticatedHttpRequest
from apps.accounts.services import calendar_user
from apps.play.calendar import calendar_feed
from apps.play.chat_webhooks import campaign_webhook_set, room_webhook_set
from apps.play.errors import GameNotFound, PlayError
from apps.play.timebank import game_extend_vote


def _do(request: HttpRequest, change: Callable[[], object], done: str, back: str) -> HttpResponse:
    try:
        change()
    except GameNotFound:
        raise Http404("Not found.") from None
    except PlayError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, done)
    return redirect(back)


@login_required
@require_POST
def extend_vote(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """A player not to move says yes to more time for the player who is."""
    return _do(
        request,
        lambda: game_extend_vote(game_id=game_id, user=request.user),
        "Your yes is counted.",
        f"/games/{game_id}/",
    )


@login_required
@require_POST
def room_webhook(request: AuthenticatedHttpRequest, room_id: int) -> HttpResponse:
    url = "" if request.POST.get("clear") else request.POST.get("webhook_url", "")
    return _do(
        request,
        lambda: room_webhook_set(room_id=room_id, user=request.user, url=url),
        "The chat webhook is cleared." if not url.strip() else "The chat webhook is set.",
        f"/rooms/{room_id}/",
    )


@login_required
@require_POST
def campaign_webhook(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    url = "" if request.POST.get("clear") else request.POST.get("webhook_url", "")
    return _do(
        request,
        lambda: campaign_webhook_set(campaign_id=campaign_id, user=request.user, url=url),
        "The chat webhook is cleared." if not url.strip() else "The chat webhook is set.",
        f"/campaigns/{campaign_id}/",
    )


@require_GET
@never_cache
def calendar(request: HttpRequest, token: str) -> HttpResponse:
    """The private feed: the signed token is the credential (calendar apps send no cookies)."""
    user = calendar_user(token=token)
    if user is None:
        raise Http404("No such calendar.")
    response = HttpResponse(calendar_feed(user=user), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="ashen-vault-turns.ics"'
    return response
