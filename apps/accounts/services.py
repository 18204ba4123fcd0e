"""Account operations. Views stay thin and call these; other apps may call them too."""

import hashlib
import logging
import secrets
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from apps.accounts.models import ApiToken, User

logger = logging.getLogger(__name__)

TOKEN_BYTES = 32
# A bot calls the API many times a second: its token is looked up in the cache (shared by all
# processes on Redis) and `last_used` is written at most once a minute, not on every call.
TOKEN_CACHE_SECONDS = 60
LAST_USED_EVERY = timedelta(minutes=1)


def user_sign_up(*, username: str, email: str, password: str) -> User:
    """Create a player account. The caller has validated the input (see SignUpForm).

    Raises IntegrityError if the username or email was taken in the meantime.
    """
    with transaction.atomic():
        return User.objects.create_user(
            username=username,
            email=User.objects.normalize_email(email),
            password=password,
        )


def username_is_taken(*, username: str) -> bool:
    return User.objects.filter(username__iexact=username).exists()


def email_is_taken(*, email: str, exclude_user: User | None = None) -> bool:
    users = User.objects.filter(email__iexact=email)
    if exclude_user is not None:
        users = users.exclude(pk=exclude_user.pk)
    return users.exists()


def user_profile_update(
    *, user: User, display_name: str, email_on_turn: bool, email_reminders: bool
) -> User:
    user.display_name = display_name.strip()
    user.email_on_turn = email_on_turn
    user.email_reminders = email_reminders
    user.save(update_fields=["display_name", "email_on_turn", "email_reminders"])
    return user


def _token_hash(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


def token_issue(*, user: User, name: str = "api") -> str:
    """Create a personal API token and return the raw value. It is shown once, never stored."""
    raw = secrets.token_urlsafe(TOKEN_BYTES)
    ApiToken.objects.create(user=user, name=name, key_hash=_token_hash(raw))
    return raw


def _token_cache_key(key_hash: str) -> str:
    return f"api-token:{key_hash}"


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
    """The active user a raw token belongs to, or None. Records when the token was last used.

    The answer is cached for TOKEN_CACHE_SECONDS; revoking goes through `token_revoke` (or
    `token_cache_forget`), which drops it from the cache at once.
    """
    raw = (raw or "").strip()
    if not raw:
        return None
    key = _token_cache_key(_token_hash(raw))
    cached = _cache_get(key)
    if cached is None:
        token = (
            ApiToken.objects.select_related("user")
            .filter(key_hash=_token_hash(raw), user__is_active=True)
            .first()
        )
        if token is None:
            return None
        cached = (token.pk, token.user, token.last_used)
        _cache_set(key, cached)
    token_id, user, last_used = cached
    now = timezone.now()
    if last_used is None or now - last_used >= LAST_USED_EVERY:
        if not ApiToken.objects.filter(pk=token_id, user__is_active=True).update(last_used=now):
            token_cache_forget(key_hashes=[_token_hash(raw)])  # revoked meanwhile
            return None
        _cache_set(key, (token_id, user, now))
    return user if isinstance(user, User) else None


def token_revoke(*, user: User, token_id: int) -> bool:
    """Delete one of the user's tokens. False if it does not exist or is someone else's."""
    hashes = list(
        ApiToken.objects.filter(pk=token_id, user=user).values_list("key_hash", flat=True)
    )
    deleted, _ = ApiToken.objects.filter(pk=token_id, user=user).delete()
    token_cache_forget(key_hashes=hashes)
    return deleted > 0
