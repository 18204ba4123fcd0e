"""Account operations. Views stay thin and call these; other apps may call them too."""

import functools
import hashlib
import logging
import math
import secrets
import zoneinfo
from collections.abc import Iterable
from datetime import datetime, timedelta
from datetime import time as dt_time
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import F
from django.dispatch import Signal
from django.template.loader import render_to_string
from django.utils import timezone

from apps.accounts.models import ApiToken, User, Vacation

logger = logging.getLogger(__name__)

TOKEN_BYTES = 32
# A bot calls the API many times a second: its token is looked up in the cache (shared by all
# processes on Redis) and `last_used` is written at most once a minute, not on every call.
TOKEN_CACHE_SECONDS = 60
LAST_USED_EVERY = timedelta(minutes=1)


def user_sign_up(*, username: str, email: str, password: str, time_zone: str = "") -> User:
    """Create a player account. The caller has validated the input (see SignUpForm).

    `time_zone` is the browser's (an unknown name is ignored). Raises IntegrityError if the
    username was taken in the meantime. Usernames are public (seats, chat) and must be unique,
    so a taken one is said; an email is private, so sign-up answers the same whether or not
    the address is registered, and a registered address's owner is emailed about the new
    account instead (they may know it is theirs; if not, someone tried their address).
    """
    email = User.objects.normalize_email(email)
    with transaction.atomic():
        earlier = list(User.objects.filter(email__iexact=email).values_list("username", flat=True))
        user = User.objects.create_user(
            username=username,
            email=email,
            password=password,
            time_zone=time_zone if time_zone in time_zone_names() else "",
        )
        if earlier:
            transaction.on_commit(
                functools.partial(_email_address_reused, email, username, earlier)
            )
    return user


def _email_address_reused(email: str, username: str, earlier: list[str]) -> None:
    """Tell an address's owner that another account was signed up with it."""
    body = render_to_string(
        "accounts/email_address_reused.txt",
        {"username": username, "earlier": earlier, "site_url": settings.SITE_URL},
    )
    try:
        send_mail("A new Ashen Vault account uses your email address", body, None, [email])
    except Exception:  # the account exists either way; the notice is a courtesy
        logger.warning("could not tell %d earlier accounts about a new one", len(earlier))


def username_is_taken(*, username: str) -> bool:
    return User.objects.filter(username__iexact=username).exists()


# The emails one can turn off from an email's own unsubscribe link (notifications app).
EMAIL_LISTS = {
    "turn": "turn emails (your turn, timeouts, game over, daily digests)",
    "reminders": "reminders before a turn deadline",
    "chat": "table talk emails",
}


# Sent (sender=User, user=...) when a user's "away until" changes: the games they play, which
# accounts does not know, show their clocks again (apps/play/clock_live.py listens).
away_changed = Signal()


def user_profile_update(
    *,
    user: User,
    display_name: str,
    turn_email: str,
    reminders: bool,
    email_chat: bool = False,
    time_zone: str = "",
    away_until: datetime | None = None,
    confirm_actions: bool = True,
    chat_handle: str = "",
    quiet_start: dt_time | None = None,
    quiet_end: dt_time | None = None,
) -> User:
    """Save the profile. A new "away until" draws on the vacation allowance (VacationRefused,
    nothing saved, if it would take more days than are left)."""
    if time_zone and time_zone not in time_zone_names():
        raise ValueError(f"unknown time zone {time_zone!r}")
    away_moved = user.away_until != away_until
    with transaction.atomic():
        if away_moved:
            user_away_set(user=user, until=away_until)
        user.display_name = display_name.strip()
        user.turn_email = User.TurnEmail(turn_email)
        user.reminders = reminders
        user.email_chat = email_chat
        user.time_zone = time_zone
        user.confirm_actions = confirm_actions
        user.chat_handle = chat_handle.strip()
        user.quiet_start, user.quiet_end = (
            (quiet_start, quiet_end) if quiet_start and quiet_end else (None, None)
        )
        user.save(
            update_fields=[
                "display_name",
                "turn_email",
                "reminders",
                "email_chat",
                "time_zone",
                "confirm_actions",
                "chat_handle",
                "quiet_start",
                "quiet_end",
            ]
        )
        if away_moved:  # the clocks of their games in play move: their open pages are told
            away_changed.send(sender=User, user=user)
    return user


def user_email_opt_out(*, user: User, email_list: str) -> None:
    """Stop the emails of one list (`EMAIL_LISTS`): an unsubscribe link was followed."""
    if email_list == "turn":
        user.turn_email = User.TurnEmail.NEVER
        user.save(update_fields=["turn_email"])
    elif email_list == "reminders":
        user.reminders = False
        user.save(update_fields=["reminders"])
    elif email_list == "chat":
        user.email_chat = False
        user.save(update_fields=["email_chat"])
    else:
        raise ValueError(f"no such email list {email_list!r}")


@lru_cache(maxsize=1)
def time_zone_names() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def user_zone(user: User) -> zoneinfo.ZoneInfo:
    """The user's time zone (UTC until they, or their browser, chose one)."""
    try:
        return zoneinfo.ZoneInfo(user.time_zone or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def user_time_zone_default(*, user: User, time_zone: str) -> bool:
    """Set the browser's time zone if the user has none yet (a chosen one is never replaced)."""
    if time_zone not in time_zone_names():
        return False
    return bool(User.objects.filter(pk=user.pk, time_zone="").update(time_zone=time_zone))


# --- vacation ----------------------------------------------------------------------------------

DAY = timedelta(days=1)


class VacationRefused(ValueError):
    """More vacation days than are left this year; the message says how many are."""


def vacation_days(vacation: Vacation) -> int:
    """The days a stretch of vacation spends: a day begun counts whole."""
    return max(1, math.ceil((vacation.end - vacation.start) / DAY))


def vacation_days_left(*, user: User, now: datetime | None = None) -> int:
    """Days of this year's allowance (settings.VACATION_DAYS_PER_YEAR, years in UTC) left."""
    now = now or timezone.now()
    spent = Vacation.objects.filter(user=user, start__year=now.year, end__gt=F("start"))
    return max(0, settings.VACATION_DAYS_PER_YEAR - sum(vacation_days(v) for v in spent))


def vacation_spend(
    *, user: User, start: datetime, days: int, source: str, game_id: int | None = None
) -> Vacation:
    """Spend `days` whole days from `start` (VacationRefused if fewer are left)."""
    left = vacation_days_left(user=user, now=start)
    if days > left:
        raise VacationRefused(
            f"You have {left} vacation day{'s' if left != 1 else ''} left this year; this "
            f"would take {days}."
        )
    return Vacation.objects.create(
        user=user, start=start, end=start + days * DAY, source=source, game_id=game_id
    )


def user_away_set(*, user: User, until: datetime | None, now: datetime | None = None) -> User:
    """Away until `until` (None: back): the clock of this player's turns waits until then.

    It draws on the vacation allowance: the days from now to `until`, a day begun counting
    whole; an earlier "away" still to come is given back first (coming back early returns the
    days not begun). VacationRefused, nothing changed, if too few days are left.
    """
    now = now or timezone.now()
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()  # one change at a time
        ahead = Vacation.objects.filter(user=user, source=Vacation.Source.AWAY, end__gt=now)
        ahead.filter(start__gte=now).delete()
        ahead.update(end=now)
        if until is not None and until > now:
            vacation_spend(
                user=user,
                start=now,
                days=math.ceil((until - now) / DAY),
                source=Vacation.Source.AWAY,
            )
        user.away_until = until
        user.save(update_fields=["away_until"])
    return user


# --- the calendar feed's link ------------------------------------------------------------------

CALENDAR_SALT = "accounts.calendar"


def calendar_token(*, user: User) -> str:
    """The signed token of `user`'s private calendar link (made on first use)."""
    if not user.calendar_key:
        user.calendar_key = secrets.token_hex(16)
        User.objects.filter(pk=user.pk).update(calendar_key=user.calendar_key)
    return signing.dumps({"u": user.pk, "k": user.calendar_key}, salt=CALENDAR_SALT, compress=True)


def calendar_user(*, token: str) -> User | None:
    """Whose calendar `token` opens (None: forged, or a link its owner revoked)."""
    try:
        data = signing.loads(token, salt=CALENDAR_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("u"), int):
        return None
    key = data.get("k")
    if not isinstance(key, str) or not key:
        return None
    return User.objects.filter(pk=data["u"], calendar_key=key, is_active=True).first()


def calendar_revoke(*, user: User) -> str:
    """A new link: the old one opens nothing any more. The new token."""
    user.calendar_key = ""
    return calendar_token(user=user)


def _token_hash(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


def token_issue(*, user: User, name: str = "api") -> str:
    """Create a personal API token and return the raw value. It is shown once, never stored.

    It expires settings.API_TOKEN_TTL_DAYS from now.
    """
    raw = secrets.token_urlsafe(TOKEN_BYTES)
    expires = timezone.now() + timedelta(days=settings.API_TOKEN_TTL_DAYS)
    ApiToken.objects.create(user=user, name=name, key_hash=_token_hash(raw), expires=expires)
    return raw


def token_list(*, user: User) -> list[ApiToken]:
    """The user's tokens, newest first, expired ones included (the profile shows them)."""
    return list(ApiToken.objects.filter(user=user).order_by("-created"))


def _token_cache_key(key_hash: str) -> str:
    return f"api-token:v2:{key_hash}"  # v2: entries carry the expiry


def _cache_get(key: str) -> Any:
    try:
        return cache.get(key)
    except Exception:  # a cache outage costs a query, never a request
        logger.warning("token cache unavailable", exc_info=True)
        return None


def _cache_set(key: str, value: Any) -> None:
    try:
        cache.set(key, value, TOKEN_CACHE_SECONDS)
    except Exception:
        logger.warning("token cache unavailable", exc_info=True)


def token_cache_forget(*, key_hashes: Iterable[str]) -> None:
    """Drop cached lookups of these tokens; call it whenever tokens are revoked or expire early.

    Without it a revoked token would keep working until its entry ages out (TOKEN_CACHE_SECONDS).
    """
    keys = [_token_cache_key(h) for h in key_hashes]
    if not keys:
        return
    try:
        cache.delete_many(keys)
    except Exception:
        logger.error("could not forget %d revoked API tokens in the cache", len(keys))


def token_cache_forget_user(*, user: User) -> None:
    """Drop the cached lookups of all of `user`'s tokens (deactivation, password change)."""
    token_cache_forget(key_hashes=user.api_tokens.values_list("key_hash", flat=True))


def token_authenticate(*, raw: str) -> User | None:
    """The active user a raw, unexpired token belongs to, or None. Records when it was last used.

    The answer is cached for TOKEN_CACHE_SECONDS; revoking goes through `token_revoke` (or
    `token_cache_forget`), which drops it from the cache at once. Expiry is checked on every
    call, cached or not.
    """
    raw = (raw or "").strip()
    if not raw:
        return None
    key = _token_cache_key(_token_hash(raw))
    now = timezone.now()
    cached = _cache_get(key)
    if cached is None:
        token = (
            ApiToken.objects.select_related("user")
            .filter(key_hash=_token_hash(raw), user__is_active=True, expires__gt=now)
            .first()
        )
        if token is None:
            return None
        cached = (token.pk, token.user, token.last_used, token.expires)
        _cache_set(key, cached)
    token_id, user, last_used, expires = cached
    if now >= expires:
        return None
    if last_used is None or now - last_used >= LAST_USED_EVERY:
        if not ApiToken.objects.filter(pk=token_id, user__is_active=True).update(last_used=now):
            token_cache_forget(key_hashes=[_token_hash(raw)])  # revoked meanwhile
            return None
        _cache_set(key, (token_id, user, now, expires))
    return user if isinstance(user, User) else None


def token_revoke(*, user: User, token_id: int) -> bool:
    """Delete one of the user's tokens. False if it does not exist or is someone else's."""
    hashes = list(
        ApiToken.objects.filter(pk=token_id, user=user).values_list("key_hash", flat=True)
    )
    deleted, _ = ApiToken.objects.filter(pk=token_id, user=user).delete()
    token_cache_forget(key_hashes=hashes)
    return deleted > 0


def token_revoke_all(*, user: User) -> int:
    """Delete all of the user's tokens (their password changed or was reset); how many.

    Called for every new password (apps/accounts/signals.py). The cached lookups are dropped now
    and again after the commit, so a request in between cannot cache a token being deleted.
    """
    hashes = list(ApiToken.objects.filter(user=user).values_list("key_hash", flat=True))
    deleted, _ = ApiToken.objects.filter(user=user).delete()
    token_cache_forget(key_hashes=hashes)
    transaction.on_commit(lambda: token_cache_forget(key_hashes=hashes))
    return deleted
