"""Logins that resist guessing: wrong passwords are counted per address and per account, apart,
and no success resets anyone else's count (docs/operations.md, "Logins under attack").

- Per address (django-axes, `AXES_LOCKOUT_PARAMETERS = ["ip_address"]`): `LOGIN_FAILURE_LIMIT`
  (10) wrong passwords from one address, for whatever accounts, lock that address out of every
  login (page and `POST /api/auth/token`) for `LOGIN_COOLOFF_MINUTES` (15). Tries while locked
  are refused without being counted, so the lock does end. A success resets nothing of the
  address (`AXES_RESET_ON_SUCCESS` is off): it clears only the failures of that very account
  from that very address (`login_succeeded`), so logging in to one's own account between
  guesses at another gains the guesser nothing.
- Per account: the failures against one account from every address are counted too. Past
  `LOGIN_ACCOUNT_FAILURE_LIMIT` (10) in the cool-off window the account is not locked (anyone
  could then lock anyone out): it is slowed. An address that never signed in to it may try it
  once per `LOGIN_ACCOUNT_SLOWDOWN_SECONDS` (30 s), and a try in between is refused (429,
  `Retry-After`) without the password being checked or counted; an address the owner has signed
  in from before (axes' access log) is not slowed at all.
- The owner always has a way in: the password reset email works whatever the counts, and any new
  password (a reset, a change) clears every failure recorded against the account
  (`login_failures_clear`, from apps/accounts/signals.py).
"""

from __future__ import annotations

import math
from datetime import timedelta
from typing import Any

from axes.helpers import get_client_ip_address
from axes.models import AccessAttempt, AccessLog
from django.conf import settings
from django.db.models import Max, Sum
from django.http import HttpRequest
from django.utils import timezone


def login_username(request: HttpRequest | None, credentials: dict[str, Any] | None) -> str | None:
    """The account a login names, as axes records it: usernames are case-insensitive, so
    "Ragnar" and "RAGNAR" are counted as the one account they name (AXES_USERNAME_CALLABLE)."""
    username = (credentials or {}).get("username")
    if username is None and request is not None:
        username = getattr(request, "data", request.POST).get("username")
    return str(username).strip().lower() if username else None


def _address(request: HttpRequest) -> str | None:
    address = getattr(request, "axes_ip_address", None)
    return address if address else get_client_ip_address(request)


def account_slowdown(request: HttpRequest, username: str | None) -> int:
    """Seconds this address must wait before trying `username` again (0: it may try now)."""
    name = login_username(None, {"username": username})
    if not name:
        return 0
    window = timezone.now() - settings.AXES_COOLOFF_TIME
    recent = AccessAttempt.objects.filter(username=name, attempt_time__gte=window).aggregate(
        failures=Sum("failures_since_start"), last=Max("attempt_time")
    )
    if (recent["failures"] or 0) < settings.LOGIN_ACCOUNT_FAILURE_LIMIT:
        return 0
    known = AccessLog.objects.filter(username__iexact=name, ip_address=_address(request))
    if known.exists():  # the owner's own address: never slowed by others' guesses
        return 0
    pause = timedelta(seconds=settings.LOGIN_ACCOUNT_SLOWDOWN_SECONDS)
    left = (recent["last"] + pause - timezone.now()).total_seconds()
    return max(0, math.ceil(left))


def login_succeeded(*, request: HttpRequest, username: str) -> None:
    """A right password: forget this account's own failures from this address, nothing else."""
    name = login_username(None, {"username": username})
    AccessAttempt.objects.filter(username=name, ip_address=_address(request)).delete()


def login_failures_clear(*, username: str) -> None:
    """A new password for the account: every failure recorded against it, from anywhere, goes."""
    AccessAttempt.objects.filter(username=login_username(None, {"username": username})).delete()
