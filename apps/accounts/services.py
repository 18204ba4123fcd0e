"""Account operations. Views stay thin and call these; other apps may call them too."""

import hashlib
import secrets

from django.db import transaction
from django.utils import timezone

from apps.accounts.models import ApiToken, User

TOKEN_BYTES = 32


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
    *,
    user: User,
    display_name: str,
    email_on_turn: bool,
    email_reminders: bool,
    confirm_actions: bool = True,
) -> User:
    user.display_name = display_name.strip()
    user.email_on_turn = email_on_turn
    user.email_reminders = email_reminders
    user.confirm_actions = confirm_actions
    user.save(update_fields=["display_name", "email_on_turn", "email_reminders", "confirm_actions"])
    return user


def _token_hash(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


def token_issue(*, user: User, name: str = "api") -> str:
    """Create a personal API token and return the raw value. It is shown once, never stored."""
    raw = secrets.token_urlsafe(TOKEN_BYTES)
    ApiToken.objects.create(user=user, name=name, key_hash=_token_hash(raw))
    return raw


def token_authenticate(*, raw: str) -> User | None:
    """The active user a raw token belongs to, or None. Records when the token was last used."""
    raw = (raw or "").strip()
    if not raw:
        return None
    token = (
        ApiToken.objects.select_related("user")
        .filter(key_hash=_token_hash(raw), user__is_active=True)
        .first()
    )
    if token is None:
        return None
    ApiToken.objects.filter(pk=token.pk).update(last_used=timezone.now())
    return token.user


def token_revoke(*, user: User, token_id: int) -> bool:
    """Delete one of the user's tokens. False if it does not exist or is someone else's."""
    deleted, _ = ApiToken.objects.filter(pk=token_id, user=user).delete()
    return deleted > 0
