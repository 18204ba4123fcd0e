from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.accounts.http import AuthenticatedHttpRequest
from apps.notifications import services


@login_required
@require_GET
def notification_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    user = request.user
    context = {
        "notifications": services.notifications_for(user=user),
        "unread": services.notification_unread_count(user=user),
    }
    return render(request, "notifications/list.html", context)


@login_required
@require_GET
def notification_open(request: AuthenticatedHttpRequest, notification_id: int) -> HttpResponse:
    """Follow a notification's link, marking it read."""
    notification = services.notification_open(user=request.user, notification_id=notification_id)
    if notification is None:
        raise Http404("No such notification.")
    target = notification.url
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return redirect(target)
    return redirect("notifications:list")


@login_required
@require_POST
def notification_read(request: AuthenticatedHttpRequest, notification_id: int) -> HttpResponse:
    services.notification_mark_read(user=request.user, notification_id=notification_id)
    return redirect("notifications:list")


@login_required
@require_POST
def notification_read_all(request: AuthenticatedHttpRequest) -> HttpResponse:
    services.notification_mark_read(user=request.user)
    return redirect("notifications:list")


# The signed token is the credential: no login, and no CSRF token (mail clients' one-click
# unsubscribe, RFC 8058, POSTs without cookies). A GET only asks, so link scanners change nothing.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    if request.method == "POST":
        found = services.notification_unsubscribe(token=token)
    else:
        found = services.unsubscribe_read(token=token)
    context = {"unsubscribe": found, "done": request.method == "POST"}
    return render(request, "notifications/unsubscribe.html", context, status=200 if found else 400)
