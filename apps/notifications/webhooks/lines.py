"""A webhook line: its format for Discord or for Slack-compatible chats, and its outbox row."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from django.db import transaction

from apps.notifications.models import WebhookMessage
from apps.notifications.outbound import UnsafeAddress, outbound_url_check
from apps.notifications.tasks import webhook_enqueue

DISCORD_HOSTS = ("discord.com", "discordapp.com")
URL_MAX_LENGTH = WebhookMessage._meta.get_field("url").max_length or 500
DISCORD_ID = re.compile(r"^\d{15,21}$")
SLACK_ID = re.compile(r"^[UW][A-Z0-9]{6,20}$")
TEXT_MAX = 1900  # under Discord's 2,000 characters


class WebhookRefused(ValueError):
    """The URL cannot be used as a webhook; the message says why."""


def is_discord(url: str) -> bool:
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    on_discord = any(host == h or host.endswith("." + h) for h in DISCORD_HOSTS)
    return on_discord or parts.path.startswith("/api/webhooks/")


def webhook_url_clean(url: str) -> str:
    """The URL as stored ("" clears it); WebhookRefused if it may not be used."""
    url = url.strip()
    if not url:
        return ""
    if len(url) > URL_MAX_LENGTH:
        raise WebhookRefused(f"A webhook address has at most {URL_MAX_LENGTH} characters.")
    try:
        return outbound_url_check(url)
    except UnsafeAddress as exc:
        raise WebhookRefused(str(exc)) from None


def webhook_hint(url: str) -> str:
    """What the host is shown of a stored URL: never the URL itself."""
    if not url:
        return "Not set"
    kind = "Discord" if is_discord(url) else "Slack-compatible"
    return f"Set ({kind}, ending …{url[-4:]})"


def _defused(text: str, *, discord: bool) -> str:
    """`text` (a room's name, an outcome) unable to mention anyone or break the markup."""
    text = re.sub(r"\s+", " ", text)[:TEXT_MAX]
    if discord:  # markdown escaped; "@" and "<" can start no mention (allowed_mentions agrees)
        text = re.sub(r"([\\*_~`|>])", r"\\\1", text)
        return text.replace("@", "@\u200b").replace("<", "<\u200b")
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


@dataclass(frozen=True)
class Mention:
    """Who a line calls to act: their chat handle, or their name on the site if they have none."""

    handle: str
    name: str


def _mention(mention: Mention, *, discord: bool) -> tuple[str, list[str]]:
    handle = mention.handle.strip().lstrip("@")
    if discord and DISCORD_ID.match(handle):
        return f"<@{handle}>", [handle]
    if not discord and SLACK_ID.match(handle):
        return f"<@{handle}>", []
    return "@" + _defused(handle or mention.name, discord=discord), []


@dataclass(frozen=True)
class Link:
    """A link of the site's own, written as it is (no escaping: it must stay a link)."""

    url: str


def webhook_payload(*, url: str, parts: list[str | Mention | Link]) -> dict[str, Any]:
    """The JSON a chat takes: `parts` are plain texts (defused), mentions and our own links."""
    discord = is_discord(url)
    pinged: list[str] = []
    words = []
    for part in parts:
        if isinstance(part, Mention):
            word, ids = _mention(part, discord=discord)
            pinged += ids
            words.append(word)
        elif isinstance(part, Link):
            words.append(part.url)
        else:
            words.append(_defused(part, discord=discord))
    text = "".join(words)
    if discord:
        return {"content": text, "allowed_mentions": {"parse": [], "users": pinged}}
    return {"text": text}


def webhook_line_send(
    *,
    url: str,
    parts: list[str | Mention | Link],
    report_to_id: int | None,
    about: str,
    manage_url: str,
) -> WebhookMessage | None:
    """Write one line to post to `url` (in the caller's transaction) and post it after commit.

    None if the URL is no longer acceptable (it is not posted; the host sees the refusal when
    they set it again)."""
    try:
        outbound_url_check(url, resolve=False)
    except UnsafeAddress:
        return None
    message = WebhookMessage.objects.create(
        url=url,
        payload=webhook_payload(url=url, parts=parts),
        report_to_id=report_to_id,
        about=about[:100],
        manage_url=manage_url[:300],
    )
    transaction.on_commit(lambda: webhook_enqueue(message.pk))
    return message
