"""A new password revokes the user's API tokens and clears the account's failed logins, whatever
set it; a deactivated account's tokens stop working at once; a login clears its own failures
from its address (apps/accounts/lockout.py).

The profile's password change, a password reset, the admin's password form,
`manage.py changepassword`, a script calling `set_password`: all of them save the user row, so
the check lives on that save rather than in each view. A token is a password for bots; whoever
changes a password because it leaked must not leave working tokens behind.
"""

from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.db import transaction
from django.db.models.signals import post_save, pre_save
from django.dispatch import receiver

from apps.accounts.lockout import login_failures_clear, login_succeeded
from apps.accounts.models import User
from apps.accounts.services import token_cache_forget_user, token_revoke_all


def _rehashed_at_login(user: User, update_fields: Any) -> bool:
    """Django's `check_password` stores the same password under a newer hasher this way."""
    return (
        update_fields is not None
        and set(update_fields) == {"password"}
        and getattr(user, "_password", None) is None
        and user.has_usable_password()
    )


@receiver(pre_save, sender=User, dispatch_uid="accounts.password_change_seen")
def _password_change_seen(sender: type[User], instance: User, **kwargs: Any) -> None:
    update_fields = kwargs.get("update_fields")
    instance._password_changed = False  # type: ignore[attr-defined]
    if instance.pk is None or kwargs.get("raw"):
        return
    if update_fields is not None and "password" not in update_fields:
        return
    stored = User.objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    if stored is not None and stored != instance.password:
        instance._password_changed = not _rehashed_at_login(instance, update_fields)  # type: ignore[attr-defined]


@receiver(post_save, sender=User, dispatch_uid="accounts.password_change_revokes_tokens")
def _password_change_revokes_tokens(sender: type[User], instance: User, **kwargs: Any) -> None:
    if getattr(instance, "_password_changed", False):
        instance._password_changed = False  # type: ignore[attr-defined]
        token_revoke_all(user=instance)
        # The reset email is the owner's way in while others guess: it lifts the account's lock.
        login_failures_clear(username=instance.get_username())


@receiver(post_save, sender=User, dispatch_uid="accounts.deactivation_forgets_tokens")
def _deactivation_forgets_tokens(sender: type[User], instance: User, **kwargs: Any) -> None:
    """A token's lookup is cached (apps/accounts/services.py `token_authenticate`): without this a
    deactivated account's tokens would work until their entries age out. Forgotten now and again
    after the commit, so a request in between cannot cache one from the row not yet committed."""
    if instance.is_active or kwargs.get("created") or kwargs.get("raw"):
        return
    token_cache_forget_user(user=instance)
    transaction.on_commit(lambda: token_cache_forget_user(user=instance))


@receiver(user_logged_in, dispatch_uid="accounts.login_clears_own_failures")
def _login_clears_own_failures(sender: Any, request: Any, user: User, **kwargs: Any) -> None:
    if request is not None:
        login_succeeded(request=request, username=user.get_username())
