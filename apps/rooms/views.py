from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.accounts.http import AuthenticatedHttpRequest
from apps.games.registry import game_faces
from apps.rooms import services
from apps.rooms.forms import RoomCreateForm, form_game
from apps.rooms.models import Room


def _url_or(name: str, arg: int, fallback: str) -> str:
    """Reverse a URL of another app (play) without importing it; its path if not wired yet."""
    try:
        return reverse(name, args=[arg])
    except NoReverseMatch:
        return fallback


def _watch_url(room: Room) -> str | None:
    token = services.room_game_watch_token(room=room)
    if token is None:
        return None
    try:
        return reverse("play:watch", args=[token])
    except NoReverseMatch:
        return f"/games/watch/{token}/"


def _room_or_404(room_id: int) -> Room:
    room = Room.objects.select_related("host", "quest").filter(pk=room_id).first()
    if room is None:
        raise Http404("No such room.")
    return room


def _room_page(request: AuthenticatedHttpRequest, room: Room) -> HttpResponse:
    user = request.user
    my_seat = services.room_member_seat(room=room, user=user)
    is_open = room.status == Room.Status.OPEN
    game_id = services.room_game_id(room=room)
    context = {
        "room": room,
        "seats": services.room_seat_summaries(room=room),
        "my_seat": my_seat,
        "is_open": is_open,
        "is_host": room.host_id == user.pk,
        # Someone with the invite link but no seat, after the launch: say so, no dead end.
        "locked_out": not is_open and my_seat is None,
        "is_full": services.room_is_full(room),
        "rules_in_force": services.room_rules_in_force(room=room),
        "clock_rule": services.room_clock_in_force(room=room),
        "room_webhook_url": _url_or("play:room_webhook", room.pk, f"/rooms/{room.pk}/webhook"),
        "invite_url": request.build_absolute_uri(reverse("rooms:join", args=[room.invite_code])),
        "launch_url": _url_or("play:launch", room.pk, f"/rooms/{room.pk}/launch"),
        "game_url": _url_or("play:game", game_id, f"/games/{game_id}/") if game_id else None,
        # For someone the host gave the invite link to: the spectators' link (the id is no way in).
        "watch_url": _watch_url(room) if not is_open and my_seat is None else None,
        "game_paused": services.room_game_paused(room=room),
    }
    return render(request, "rooms/detail.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def room_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    face = form_game(request.POST, request.GET)
    form = RoomCreateForm(request.POST or None, face=face)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            room = services.room_create(
                host=request.user,
                name=form.cleaned_data["name"],
                seat_count=form.cleaned_data["seats"],
                game=face.slug,
                quest_slug=form.cleaned_data["quest"].slug,
                turn_time_limit=form.cleaned_data.get("turn_time_limit"),
                reminder_after=form.cleaned_data.get("reminder_after"),
                options=form.room_options(),
                ai_seat=form.cleaned_data.get("ai_seat") or Room.AiSeat.HUMAN,
                allow_spectators=form.cleaned_data["allow_spectators"],
                **form.clock_options(),
            )
        except services.RoomError as error:
            form.add_error(None, error.message)
            status = 429 if isinstance(error, services.TooManyRooms) else 200
        else:
            messages.success(
                request, f"Room “{room.name}” is ready. Take a seat and invite friends."
            )
            return redirect("rooms:detail", room_id=room.pk)
    context = {"form": form, "face": face, "games": game_faces()}
    return render(request, "rooms/create.html", context, status=status)


@login_required
@require_GET
def room_detail(request: AuthenticatedHttpRequest, room_id: int) -> HttpResponse:
    room = _room_or_404(room_id)
    if not services.room_visible_to(room=room, user=request.user):
        raise Http404("No such room.")
    return _room_page(request, room)


@login_required
@require_GET
def room_join(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    """The invite link: whoever holds it sees the room page, and can take a free seat."""
    try:
        room = services.room_by_invite(code=code, user=request.user)
    except services.RoomNotFound as error:
        raise Http404(error.message) from None
    return _room_page(request, room)


@login_required
@require_POST
def seat_take(request: AuthenticatedHttpRequest, room_id: int, number: int) -> HttpResponse:
    try:
        services.room_seat_take(
            room_id=room_id,
            user=request.user,
            number=number,
            invite_code=request.POST.get("invite", ""),  # an invite-only room asks for it
        )
    except services.RoomNotFound:
        raise Http404("No such room.") from None
    except services.RoomError as error:
        messages.error(request, error.message)
        if invite := request.POST.get("invite", ""):  # not a member yet: back to the invite
            return redirect("rooms:join", code=invite)
    else:
        messages.success(request, f"You took seat {number}.")
    return redirect("rooms:detail", room_id=room_id)


@login_required
@require_POST
def seat_leave(request: AuthenticatedHttpRequest, room_id: int) -> HttpResponse:
    try:
        services.room_seat_leave(room_id=room_id, user=request.user)
    except services.RoomNotFound:
        raise Http404("No such room.") from None
    except services.RoomError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, "You left your seat.")
    return redirect("rooms:detail", room_id=room_id)


@login_required
@require_POST
def room_cancel(request: AuthenticatedHttpRequest, room_id: int) -> HttpResponse:
    try:
        name = services.room_cancel(room_id=room_id, user=request.user)
    except services.RoomNotFound:
        raise Http404("No such room.") from None
    except services.RoomError as error:
        messages.error(request, error.message)
        return redirect("rooms:detail", room_id=room_id)
    messages.success(request, f"Room “{name}” is cancelled.")
    return redirect("home")


@login_required
@require_POST
def spectators(request: AuthenticatedHttpRequest, room_id: int) -> HttpResponse:
    """The host lets spectators watch the quest once it runs, or not (the game page has the same
    switch; that one also closes the sockets of spectators already watching)."""
    allow = request.POST.get("allow") == "on"
    room = Room.objects.filter(pk=room_id).only("status").first()
    if room is not None and room.status != Room.Status.OPEN:
        # Only the game page's switch tells the sockets of spectators already watching.
        messages.error(request, "The quest has started: change this on the game page.")
        return redirect("rooms:detail", room_id=room_id)
    try:
        services.room_spectators_set(room_id=room_id, user=request.user, allow=allow)
    except services.RoomNotFound:
        raise Http404("No such room.") from None
    except services.RoomError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            "Spectators may watch the quest." if allow else "Spectators may not watch the quest.",
        )
    return redirect("rooms:detail", room_id=room_id)
