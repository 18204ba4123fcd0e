import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q


def new_invite_code() -> str:
    return secrets.token_urlsafe(12)


class Room(models.Model):
    """A table: a quest, a host, 2-5 seats. The host launches it once every seat is taken."""

    class Status(models.TextChoices):
        OPEN = "open", "Waiting for players"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    class Zargon(models.TextChoices):
        HUMAN = "human", "A player"
        AI = "ai", "The monster AI"

    name = models.CharField(max_length=80)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hosted_rooms"
    )
    quest = models.ForeignKey("quests.QuestDefinition", on_delete=models.PROTECT)
    seat_count = models.PositiveSmallIntegerField()
    invite_code = models.CharField(max_length=32, unique=True, default=new_invite_code)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    # Solo play: with "ai" nobody sits in seat 1; the monster AI plays each Zargon phase at once.
    zargon = models.CharField(max_length=5, choices=Zargon.choices, default=Zargon.HUMAN)
    # Turns over days (a later issue): how long a seat has for its turn, and when to remind it.
    turn_time_limit = models.DurationField(null=True, blank=True)
    reminder_after = models.DurationField(null=True, blank=True)
    # Room options the engine plays by (the engine's options.py): edition, spell_draft,
    # heroes_pass_heroes. Checked by rooms.services.room_create; never holds an unknown one.
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
            models.CheckConstraint(
                condition=Q(seat_count__gte=2) & Q(seat_count__lte=5), name="room_seats_2_to_5"
            )
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def zargon_is_ai(self) -> bool:
        return self.zargon == Room.Zargon.AI

    @property
    def first_player_seat(self) -> int:
        """The lowest seat a person takes: 2 when the AI plays Zargon (seat 1), else 1."""
        return 2 if self.zargon_is_ai else 1


class Seat(models.Model):
    """Seat 1 is Zargon; the others share the heroes (docs/rules.md section 1)."""

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
