from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST

from apps.accounts import services
from apps.accounts.forms import ProfileForm, SignUpForm
from apps.accounts.http import AuthenticatedHttpRequest


def _safe_next(request: HttpRequest) -> str | None:
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return None


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect(settings.LOGIN_REDIRECT_URL)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = services.user_sign_up(
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password1"],
                time_zone=form.cleaned_data.get("time_zone") or "",
            )
        except IntegrityError:
            form.add_error(None, "That username was just taken. Try another.")
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome to the Ashen Vault, {user.shown_name}!")
            return redirect(_safe_next(request) or settings.LOGIN_REDIRECT_URL)
    return render(request, "accounts/signup.html", {"form": form, "next": _safe_next(request)})


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: AuthenticatedHttpRequest) -> HttpResponse:
    user = request.user
    if request.method == "POST":
        form = ProfileForm(request.POST)
        if form.is_valid():
            try:
                services.user_profile_update(user=user, **form.cleaned_data)
            except services.VacationRefused as refused:
                form.add_error("away_until", str(refused))
            else:
                messages.success(request, "Profile saved.")
                return redirect("profile")
    else:
        form = ProfileForm(
            initial={
                "display_name": user.display_name,
                "turn_email": user.turn_email,
                "reminders": user.reminders,
                "email_chat": user.email_chat,
                "time_zone": user.time_zone,
                "away_until": user.away_until,
                "confirm_actions": user.confirm_actions,
                "chat_handle": user.chat_handle,
                "quiet_start": user.quiet_start,
                "quiet_end": user.quiet_end,
            }
        )
    calendar = reverse("play:calendar", args=[services.calendar_token(user=user)])
    context = {
        "form": form,
        "profile_user": user,
        "tokens": services.token_list(user=user),
        "calendar_url": request.build_absolute_uri(calendar),
        "vacation_left": services.vacation_days_left(user=user),
        "vacation_allowance": settings.VACATION_DAYS_PER_YEAR,
    }
    return render(request, "accounts/profile.html", context)


@login_required
@require_POST
def calendar_revoke(request: AuthenticatedHttpRequest) -> HttpResponse:
    """A new private calendar link; the old one opens nothing any more."""
    services.calendar_revoke(user=request.user)
    messages.success(request, "Your calendar has a new link: the old one no longer works.")
    return redirect(reverse("profile") + "#calendar")


@login_required
@require_POST
def token_revoke(request: AuthenticatedHttpRequest, token_id: int) -> HttpResponse:
    """The owner revokes one of their API tokens; anyone else's token is 404, as if absent."""
    if not services.token_revoke(user=request.user, token_id=token_id):
        raise Http404("No such token.")
    messages.success(request, "Token revoked: it no longer works.")
    return redirect("profile")


@login_required
@require_POST
def time_zone_default(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The browser tells its time zone (static/js/timezone.js); kept only if none is set yet."""
    changed = services.user_time_zone_default(
        user=request.user, time_zone=request.POST.get("time_zone", "")
    )
    return HttpResponse(status=204 if changed else 200)
