"""The admin for games: a readable log, and the actions that unstick a game.

Every action goes through the services of apps/play/table.py, which record it in the game's log
(a table note), so the log says who paused, resumed, gave a seat away or ended a game.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from apps.accounts.models import User
from apps.play.errors import PlayError
from apps.play.models import Game, GameEvent
from apps.play.table import game_abandon, game_pause, game_resume, game_seat_give

LOG_ROWS_SHOWN = 500


def log_line(event: GameEvent) -> str:
    """One log row as a line an operator can read."""
    payload = dict(event.payload)
    if event.kind == GameEvent.Kind.ACTION:
        action = dict(payload.get("action", {}))
        who = "the system" if payload.get("system") else f"seat {payload.get('seat')}"
        kind = action.pop("type", "?")
        rest = " ".join(f"{k}={v}" for k, v in action.items())
        return f"{who} played {kind} {rest}".rstrip()
    if event.kind == GameEvent.Kind.NOTE:
        kind = payload.pop("type", "?")
        by = payload.pop("by", "?")
        staff = payload.pop("staff", False)
        rest = " ".join(f"{k}={v}" for k, v in payload.items())
        return f"{kind} by {by}{' (staff)' if staff else ''} {rest}".rstrip()
    kind = payload.pop("type", "?")
    if payload.get("text"):  # the engine's own sentence says it best
        return f"{kind}: {payload['text']}"
    payload.pop("audience", None)
    payload.pop("seq", None)
    return f"{kind} {json.dumps(payload, sort_keys=True, separators=(', ', ': '))}"


class SeatGiveForm(forms.Form):
    number = forms.TypedChoiceField(label="Seat", coerce=int)
    username = forms.CharField(label="Give it to (username)")

    def __init__(self, *args: Any, game: Game, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["number"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = [
            (seat.number, f"Seat {seat.number}: {seat.user or 'empty'}")
            for seat in game.room.seats.select_related("user").order_by("number")
        ]

    def clean_username(self) -> User:
        user = User.objects.filter(username__iexact=self.cleaned_data["username"]).first()
        if user is None:
            raise forms.ValidationError("There is no user of that name.")
        return user


@admin.register(Game)
class GameAdmin(admin.ModelAdmin[Game]):
    list_display = ("pk", "room", "quest_slug", "version", "outcome", "paused_at", "turn_started")
    list_filter = ("outcome",)
    list_select_related = ("room",)
    search_fields = ("room__name", "room__seats__user__username")
    actions = ("pause_games", "resume_games", "give_seat", "abandon_games")
    fields = (
        "room",
        "quest_slug",
        "seats",
        "seed",
        "seed_commitment",
        "replay_public",
        "version",
        "outcome",
        "turn_started",
        "reminded_at",
        "paused_at",
        "created",
        "updated",
        "readable_log",
    )
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # games are launched from their room

    def has_delete_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        return False  # end a stuck game instead: its log stays

    @admin.display(description="Log (newest last)")
    def readable_log(self, game: Game) -> SafeString:
        rows = list(game.events.order_by("-seq")[:LOG_ROWS_SHOWN])[::-1]
        lines = format_html_join(
            "\n",
            '<tr class="log-{}"><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>',
            (
                (e.kind, e.seq, e.version, e.created.strftime("%Y-%m-%d %H:%M:%S"), log_line(e))
                for e in rows
            ),
        )
        return format_html(
            "<table><thead><tr><th>#</th><th>version</th><th>when (UTC)</th><th>what</th>"
            "</tr></thead><tbody>{}</tbody></table>",
            lines,
        )

    def _each(self, request: HttpRequest, games: QuerySet[Game], change: Any, done: str) -> None:
        for game in games:
            try:
                change(game)
            except PlayError as exc:
                self.message_user(request, f"Game {game.pk}: {exc.message}", messages.ERROR)
            else:
                self.message_user(request, f"Game {game.pk}: {done}.", messages.SUCCESS)

    @admin.action(description="Pause the clock of the selected games")
    def pause_games(self, request: HttpRequest, games: QuerySet[Game]) -> None:
        self._each(
            request,
            games,
            lambda g: game_pause(game_id=g.pk, user=request.user, staff=True),
            "paused",
        )

    @admin.action(description="Resume the clock of the selected games")
    def resume_games(self, request: HttpRequest, games: QuerySet[Game]) -> None:
        self._each(
            request,
            games,
            lambda g: game_resume(game_id=g.pk, user=request.user, staff=True),
            "resumed",
        )

    @admin.action(description="End the selected stuck games (outcome: abandoned)")
    def abandon_games(self, request: HttpRequest, games: QuerySet[Game]) -> None:
        self._each(request, games, lambda g: game_abandon(game_id=g.pk, by=request.user), "ended")

    @admin.action(description="Give an absent player's seat to another user")
    def give_seat(self, request: HttpRequest, games: QuerySet[Game]) -> HttpResponse | None:
        if games.count() != 1:
            self.message_user(request, "Choose exactly one game.", messages.ERROR)
            return None
        game = games.select_related("room").get()
        form = SeatGiveForm(request.POST if "apply" in request.POST else None, game=game)
        if form.is_valid():
            number, user = form.cleaned_data["number"], form.cleaned_data["username"]
            try:
                game_seat_give(game_id=game.pk, number=number, to_user=user, by=request.user)
            except PlayError as exc:
                form.add_error(None, exc.message)
            else:
                self.message_user(
                    request,
                    f"Game {game.pk}: seat {number} now belongs to {user}.",
                    messages.SUCCESS,
                )
                return None
        context = {
            **self.admin_site.each_context(request),
            "title": f"Give a seat in {game.room}",
            "game": game,
            "form": form,
            "opts": self.model._meta,
            "action_checkbox_name": ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/play/game/give_seat.html", context)
