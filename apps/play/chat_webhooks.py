"""A table's news in its group chat: the lines a room's (or its campaign's) webhook gets.

One line when the seats to move change, naming only the people who must act (their chat
handle, apps/notifications/webhooks/), and one when the game ends. Reminders and timeouts are
personal and stay off the group's channel. The lines say only what every seat may see: the
room's name, the round, the public role of the seat to move (its face's `seat_roles` label),
the deadline and the outcome's words. A person who has the game open is named without a ping.

The campaign's webhook is copied onto its rooms (when it is set, and when a quest's room is
made), so a turn change reads nothing but the room it already holds.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from apps.accounts.models import User
from apps.campaigns.models import Campaign
from apps.notifications.router import user_is_present
from apps.notifications.services import absolute_url
from apps.notifications.webhooks.lines import (
    Link,
    Mention,
    WebhookRefused,
    webhook_line_send,
    webhook_url_clean,
)
from apps.play.errors import GameNotFound, NotHost, TableRefused
from apps.play.models import Game
from apps.rooms.models import Room


def _manage_url(room: Room) -> str:
    """Where the host mends a failing webhook (a campaign's rooms also take it from there)."""
    return reverse("rooms:detail", args=[room.pk])


def turn_line_send(*, game: Game, users: dict[int, User], deadline: datetime | None) -> None:
    """The line "it is X's turn" (in the caller's transaction; posted after commit)."""
    room = game.room
    if not room.webhook_url or not game.to_move:
        return
    now_topic = f"game-{game.pk}"
    labels = {r.number: r.label for r in room.face.seat_roles(game.seats)}
    parts: list[str | Mention | Link] = [f"{room.name}: your turn, "]
    for n, seat in enumerate(game.to_move):
        user = users.get(seat)
        if n:
            parts.append(" and ")
        if user is None:
            parts.append(labels.get(seat, f"seat {seat}"))
            continue
        watching = user_is_present(user_id=user.pk, topic=now_topic, now=timezone.now())
        parts.append(Mention(handle="" if watching else user.chat_handle, name=user.shown_name))
        parts.append(f" ({labels.get(seat, f'seat {seat}')})")
    parts.append(f", round {game.round}.")
    if deadline is not None:
        parts.append(f" The turn ends {deadline:%a %d %b, %H:%M} UTC.")
    parts += [" ", Link(absolute_url(reverse("play:game", args=[game.pk])))]
    webhook_line_send(
        url=room.webhook_url,
        parts=parts,
        report_to_id=room.host_id,
        about=room.name,
        manage_url=_manage_url(room),
    )


def end_line_send(*, game: Game, outcome: str) -> None:
    """The line "the game is over" (in the caller's transaction; posted after commit)."""
    room = game.room
    if not room.webhook_url:
        return
    webhook_line_send(
        url=room.webhook_url,
        parts=[
            f"{room.name}: the game is over. {outcome} ",
            Link(absolute_url(reverse("play:game", args=[game.pk]))),
        ],
        report_to_id=room.host_id,
        about=room.name,
        manage_url=_manage_url(room),
    )


# --- setting a webhook (hosts and campaign owners only) ------------------------------------------


def _clean(url: str) -> str:
    try:
        return webhook_url_clean(url)
    except WebhookRefused as exc:
        raise TableRefused(str(exc)) from None


def room_webhook_set(*, room_id: int, user: User, url: str) -> Room:
    """The host sets (or, with "", clears) the room's webhook."""
    room = Room.objects.filter(pk=room_id).first()
    if room is None or not user.is_authenticated:
        raise GameNotFound("There is no such room.")
    if room.host_id != user.pk:
        if not room.seats.filter(user_id=user.pk).exists():
            raise GameNotFound("There is no such room.")
        raise NotHost("Only the host can set the room's chat webhook.")
    room.webhook_url = _clean(url)
    room.save(update_fields=["webhook_url"])
    return room


def campaign_webhook_set(*, campaign_id: int, user: User, url: str) -> Campaign:
    """The owner sets (or clears) the campaign's webhook; its unfinished rooms take it."""
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None or not user.is_authenticated:
        raise GameNotFound("There is no such campaign.")
    if campaign.owner_id != user.pk:
        raise NotHost("Only the campaign's owner can set its chat webhook.")
    clean = _clean(url)
    with transaction.atomic():
        campaign.webhook_url = clean
        campaign.save(update_fields=["webhook_url"])
        Room.objects.filter(campaign_link__campaign=campaign).exclude(
            status=Room.Status.FINISHED
        ).update(webhook_url=clean)
    return campaign
