"""Pages of the play app: the lobby, launching a room's quest, the game page."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.views.decorators.http import require_POST

from apps.accounts.models import User
from apps.notifications.services import notification_mark_read
from apps.play.errors import GameNotFound, PlayError
from apps.play.notices import game_topic
from apps.play.selectors import game_membership, game_seat_view, lobby_for
from apps.play.services import CHAT_MAX_LENGTH, game_launch


def home(request: HttpRequest) -> HttpResponse:
    """The lobby for players; the welcome page for visitors."""
    if not request.user.is_authenticated:
        return render(request, "home.html")
    assert isinstance(request.user, User)
    return render(request, "play/lobby.html", {"lobby": lobby_for(user=request.user)})


def _room_url(room_id: int) -> str:
    try:
        return reverse("rooms:detail", args=[room_id])
    except NoReverseMatch:  # the rooms pages are mounted by config/urls.py
        return f"/rooms/{room_id}/"


@login_required
@require_POST
def launch(request: HttpRequest, room_id: int) -> HttpResponse:
    try:
        game = game_launch(room_id=room_id, user=request.user)
    except GameNotFound:
        raise Http404("There is no such room.") from None
    except PlayError as exc:
        messages.error(request, exc.message)
        return redirect(_room_url(room_id))
    return redirect("play:game", game_id=game.pk)


@login_required
def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        game, seat = game_membership(game_id=game_id, user=request.user)
    except GameNotFound:
        raise Http404("There is no such game.") from None
    assert isinstance(request.user, User)
    notification_mark_read(user=request.user, topic=game_topic(game_id=game.pk))
    view = game_seat_view(game=game, seat=seat)
    context = {
        "game": game,
        "seat": seat,
        "view_json": view,
        "api_view_url": reverse("api:game_view", args=[game_id]),
        "api_actions_url": reverse("api:game_actions", args=[game_id]),
        "api_events_url": reverse("api:game_events", args=[game_id]),
        "api_chat_url": reverse("api:game_chat", args=[game_id]),
        "chat_max_length": CHAT_MAX_LENGTH,
        "ws_url": f"/ws/games/{game_id}/",
    }
    return render(request, "play/game.html", context)
