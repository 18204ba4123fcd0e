import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q

from apps.games.port import GameFace
from apps.games.registry import DEFAULT_GAME, game_face


def new_invite_code() -> str:
    return secrets.token_urlsafe(12)


class Room(models.Model):
    """A table: a game, a scenario, a host, its seats. The host launches it once every seat is
    taken."""

    class Status(models.TextChoices):
        OPEN = "open", "Waiting for players"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    class AiSeat(models.TextChoices):
        HUMAN = "human", "A player"
        AI = "ai", "The AI"

    class Clock(models.TextChoices):
        FIXED = "fixed", "The same limit for every turn"
        BANK = "bank", "A time bank per player"

    # The game played at this table (apps/games/registry.py): its face gives the seats' roles,
    # the seat range, the AI seat and the options.
    kind = models.CharField(max_length=20, default=DEFAULT_GAME)
    name = models.CharField(max_length=80)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hosted_rooms"
    )
    quest = models.ForeignKey("quests.QuestDefinition", on_delete=models.PROTECT)
    seat_count = models.PositiveSmallIntegerField()
    invite_code = models.CharField(max_length=32, unique=True, default=new_invite_code)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    # Solo play, in a game that has an AI seat (its face's `ai_seat`): with "ai" nobody sits in
    # it and the AI plays each of its turns at once.
    ai_seat = models.CharField(max_length=5, choices=AiSeat.choices, default=AiSeat.HUMAN)
    # Turns over days (a later issue): how long a seat has for its turn, and when to remind it.
    turn_time_limit = models.DurationField(null=True, blank=True)
    reminder_after = models.DurationField(null=True, blank=True)
    # The clock (apps/play/clock.py): "fixed", every turn has `turn_time_limit`; or "bank", each
    # player has a bank of time (`bank_initial`), gets `bank_increment` after each of their
    # turns, never more than `bank_cap`, and a turn lasts what their bank holds.
    clock = models.CharField(max_length=5, choices=Clock.choices, default=Clock.FIXED)
    bank_initial = models.DurationField(null=True, blank=True)
    bank_increment = models.DurationField(null=True, blank=True)
    bank_cap = models.DurationField(null=True, blank=True)
    # A turn that runs out spends a day of its player's vacation allowance instead (while any
    # is left), with a note in the game's log.
    vacation = models.BooleanField(default=False)
    # The other players may give the player to move this many more hours (two thirds agree).
    extend_hours = models.PositiveSmallIntegerField(null=True, blank=True)
    # A Discord or Slack-compatible webhook the table's news is posted to: a secret, set and
    # seen (as "set", never echoed) by the host only.
    webhook_url = models.CharField(max_length=500, blank=True)
    # Room options the game plays by (its face's `option_specs`). Checked by
    # rooms.services.room_create against the game's face; never holds an unknown one.
    options = models.JSONField(default=dict, blank=True)
    # Not in the lobby; only the invite link seats a stranger (campaign rooms: the party's own
    # table, whose seats lead to the campaign's character sheets).
    invite_only = models.BooleanField(default=False)
    # A site setting, not a rule of the game: logged-in visitors may watch the quest in play
    # (the heroes' common view, read-only chat). The host chooses it and may change it any time.
    allow_spectators = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]
        constraints = [
            # The game's own range is checked by the rooms service (its face's min/max seats).
            models.CheckConstraint(
                condition=Q(seat_count__gte=1) & Q(seat_count__lte=8), name="room_seats_1_to_8"
            )
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def face(self) -> GameFace:
        """The game played here."""
        return game_face(self.kind)

    @property
    def ai_plays_seat(self) -> bool:
        return self.ai_seat == Room.AiSeat.AI and self.face.ai_seat is not None

    @property
    def ai_seat_number(self) -> int | None:
        """The seat the AI plays in this room, or None (people take every seat)."""
        return self.face.ai_seat if self.ai_plays_seat else None

    @property
    def first_player_seat(self) -> int:
        """The lowest seat a person takes (the game's, past its AI seat in a solo room)."""
        return self.face.first_seat(ai=self.ai_plays_seat)


class Seat(models.Model):
    """A place at the table; what it plays is the game's (its face's `seat_roles`)."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seats",
    )

    class Meta:
        ordering = ["room", "number"]
        constraints = [
            models.UniqueConstraint(fields=["room", "number"], name="seat_unique_number"),
            models.UniqueConstraint(
                fields=["room", "user"], name="seat_one_per_user", condition=Q(user__isnull=False)
            ),
        ]

    def __str__(self) -> str:
        return f"{self.room} seat {self.number}"
