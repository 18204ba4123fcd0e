"""`{% push_card user %}`: the profile's web push card (the profile lives in accounts, which
knows nothing of notifications: the template asks for the card by name)."""

from typing import Any

from django import template
from django.urls import reverse

from apps.accounts.models import User
from apps.notifications.push.keys import vapid_keys
from apps.notifications.push.subscriptions import push_subscriptions_of

register = template.Library()


@register.inclusion_tag("notifications/_push.html")
def push_card(user: User) -> dict[str, Any]:
    keys = vapid_keys()
    return {
        "devices": push_subscriptions_of(user=user),
        "vapid_public_key": keys.public_key if keys else "",
        "worker_url": reverse("push_worker"),
        "subscribe_url": reverse("notifications:push_subscribe"),
    }
