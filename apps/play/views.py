"""Pages of the play app: the lobby, launching a room's quest, the game page (the rules pages:
apps/play/rules_pages.py)."""

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from apps.accounts.models import User
from apps.games.port import SPECTATOR_SEAT
from apps.notifications.services import notification_mark_read
from apps.play.errors import GameNotFound, PlayError
from apps.play.links import game_by_replay_link, game_watch_by_link
from apps.play.models import Game
from apps.play.notices import game_topic
from apps.play.replay import game_for_replay
from apps.play.rules_pages import rules_links, rules_url
from apps.play.selectors import (
    game_campaign_id,
    game_clock_for,
    game_face_of,
    game_fairness,
    game_membership,
    game_seat_names,
    game_seat_view,
    lobby_for,
    orders_face,
)
from apps.play.services import CHAT_MAX_LENGTH, game_launch, game_replay_publish
from apps.play.table import game_pause, game_resume, game_spectators_set


def home(request: HttpRequest) -> HttpResponse:
    """The lobby for players; the welcome page for visitors."""
    if not request.user.is_authenticated:
        return render(request, "home.html", {"rules": rules_links()})
    assert isinstance(request.user, User)
    context = {"lobby": lobby_for(user=request.user), "rules": rules_links()}
    return render(request, "play/lobby.html", context)


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
        game, seat = game_membership(game_id=game_id, user=request.user, watch=True)
    except GameNotFound:
        raise Http404("There is no such game.") from None
    assert isinstance(request.user, User)
    spectator = seat == SPECTATOR_SEAT  # watching: the heroes' common view, nothing to play
    if not spectator:
        notification_mark_read(user=request.user, topic=game_topic(game_id=game.pk))
    view = game_seat_view(game=game, seat=seat)
    face = game_face_of(game)
    context = {
        "game": game,
        "assets": face.assets,
        "narrator_seat": face.narrator_seat,  # the seat offered "as the narrator" in the chat
        "standing_orders": orders_face(face) is not None,  # the game takes standing orders
        "orders_template": f"games/{face.slug}/_orders.html",  # its panel, from its wing
        "seat": seat,
        "spectator": spectator,
        "clock": game_clock_for(game_id=game.pk, user=request.user),
        "is_host": game.room.host_id == request.user.pk,
        "view_json": view,
        "seat_names": game_seat_names(game=game),
        "confirm": request.user.confirm_actions,
        "rules_url": rules_url(face),  # the game's own rules; its story cites their sections
        "lobby_url": reverse("home"),
        "armory_url": _campaign_url(game),
        "api_view_url": reverse("api:game_view", args=[game_id]),
        "api_actions_url": reverse("api:game_actions", args=[game_id]),
        "api_events_url": reverse("api:game_events", args=[game_id]),
        "api_chat_url": reverse("api:game_chat", args=[game_id]),
        "chat_max_length": CHAT_MAX_LENGTH,
        "ws_url": f"/ws/games/{game_id}/",
        # the room options the game is played by
        "rules_in_force": game_face_of(game).option_lines(game.options),
        "fairness": game_fairness(game=game),
        # The players watch the replay after the end; spectators only once the host shares it.
        "replay_url": (
            reverse("play:replay", args=[game.pk])
            if not spectator
            else reverse("play:replay_link", args=[game.replay_token])
        )
        if game.outcome and (not spectator or game.replay_public)
        else "",
        # The links the host shares (apps/play/links.py): the game's id alone leads nobody in.
        "public_replay_url": request.build_absolute_uri(
            reverse("play:replay_link", args=[game.replay_token])
        )
        if game.room.host_id == request.user.pk and game.replay_public
        else "",
        "watch_url": request.build_absolute_uri(reverse("play:watch", args=[game.watch_token]))
        if game.room.host_id == request.user.pk
        and game.room.invite_only
        and game.room.allow_spectators
        else "",
    }
    return render(request, face.assets.template, context)


@login_required
@require_POST
def spectators(request: HttpRequest, game_id: int) -> HttpResponse:
    """The host lets spectators watch, or stops them (their pages and sockets lose the game)."""
    allow = request.POST.get("allow") == "on"
    return _host_change(
        request,
        game_id,
        lambda: game_spectators_set(game_id=game_id, user=request.user, allow=allow),
        "Spectators may watch this game from the lobby."
        if allow
        else "Spectators can no longer watch this game.",
    )


def _host_change(
    request: HttpRequest, game_id: int, change: Callable[[], object], done: str
) -> HttpResponse:
    """Run one of the host's switches: a refusal is shown as a message, an unknown game is 404;
    then back to the page the form came from (when it is ours), else the game."""
    try:
        change()
    except GameNotFound:
        raise Http404("There is no such game.") from None
    except PlayError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, done)
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return redirect(target)
    return redirect("play:game", game_id=game_id)


def _clock_change(request: HttpRequest, game_id: int, *, pause: bool) -> HttpResponse:
    change = game_pause if pause else game_resume
    return _host_change(
        request,
        game_id,
        lambda: change(game_id=game_id, user=request.user),
        "The game is paused: no deadline runs until you resume it."
        if pause
        else "The game is running again; the turn kept the time it had left.",
    )


@login_required
@require_POST
def pause(request: HttpRequest, game_id: int) -> HttpResponse:
    """The host stops the turn clock."""
    return _clock_change(request, game_id, pause=True)


@login_required
@require_POST
def resume(request: HttpRequest, game_id: int) -> HttpResponse:
    """The host starts the turn clock again."""
    return _clock_change(request, game_id, pause=False)


def replay_page(request: HttpRequest, game_id: int) -> HttpResponse:
    """A finished quest step by step, its dice checked in the browser (its players; anyone
    else by the public link, `replay_link_page`). `?step=N` opens it at step N."""
    try:
        game = game_for_replay(game_id=game_id, user=request.user)
    except GameNotFound as exc:
        raise Http404(exc.message) from None
    context = {
        "game": game,
        "assets": (assets := game_face_of(game).assets),
        "is_host": request.user.is_authenticated and game.room.host_id == request.user.pk,
        "api_replay_url": reverse("api:game_replay", args=[game.pk]),
        "rules_url": rules_url(game_face_of(game)),
    }
    return render(request, assets.replay_template, context)


def replay_link_page(request: HttpRequest, token: str) -> HttpResponse:
    """The public replay, for anyone with the host's link (logged in or not)."""
    try:
        game = game_by_replay_link(token=token)
    except GameNotFound as exc:
        raise Http404(exc.message) from None
    context = {
        "game": game,
        "assets": (assets := game_face_of(game).assets),
        "is_host": False,
        "api_replay_url": reverse("api:replay_link", args=[token]),
        "rules_url": rules_url(game_face_of(game)),
    }
    return render(request, assets.replay_template, context)


@login_required
def watch_link(request: HttpRequest, token: str) -> HttpResponse:
    """The spectators' link of a game: its holder may watch it from then on (at its own URL)."""
    try:
        game = game_watch_by_link(token=token, user=request.user)
    except GameNotFound as exc:
        raise Http404(exc.message) from None
    return redirect("play:game", game_id=game.pk)


@login_required
@require_POST
def replay_public(request: HttpRequest, game_id: int) -> HttpResponse:
    """The host shares (or stops sharing) the replay with anyone who has the link."""
    public = request.POST.get("public") == "on"
    return _host_change(
        request,
        game_id,
        lambda: game_replay_publish(game_id=game_id, user=request.user, public=public),
        "Anyone with the link can watch the replay once the quest is over."
        if public
        else "Only the players can watch the replay.",
    )


def _campaign_url(game: Game) -> str:
    """The campaign page (with each hero's armory) of a campaign quest, else ""."""
    campaign_id = game_campaign_id(game=game)
    return reverse("campaigns:detail", args=[campaign_id]) if campaign_id else ""
