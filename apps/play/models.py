from django.db import models

from apps.play.fields import OrderedJSONField


class Game(models.Model):
    """A quest in play: the whole authoritative engine state in one row, and its version.

    Restoring a game reads this row only, however long the log grows.
    """

    room = models.OneToOneField("rooms.Room", on_delete=models.CASCADE, related_name="game")
    quest_slug = models.SlugField()
    # The quest file as it was at launch: admins may edit the QuestDefinition later, but a game in
    # play (and the replay that verifies it) keeps the map it started with.
    quest_source = models.TextField(blank=True)
    seats = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField()
    options = models.JSONField(default=dict)
    state = OrderedJSONField(help_text="The engine state JSON, key order kept (see the field).")
    version = models.PositiveIntegerField(default=0)
    outcome = models.CharField(max_length=10, blank=True)  # "", "heroes", "retreat" or "zargon"
    # Turns over days: when the seat to move got the turn, and what has been sent about it.
    turn_started = models.DateTimeField(null=True, blank=True)
    reminded_at = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.quest_slug} in {self.room}"


class GameEvent(models.Model):
    """The append-only log: every accepted action, die result, reveal and state change."""

    class Kind(models.TextChoices):
        ACTION = "action", "Accepted action"
        EVENT = "event", "Engine event"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    version = models.PositiveIntegerField(help_text="The game version this entry produced.")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    seat = models.PositiveSmallIntegerField(null=True, help_text="Who acted (None: the system).")
    payload = models.JSONField(help_text="The action, or the engine event with its audience.")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="game_event_unique_seq")
        ]

    def __str__(self) -> str:
        return f"{self.game_id} #{self.seq} {self.kind}"


class ActionReceipt(models.Model):
    """The answer given to an idempotency key, returned again if the key is replayed."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="receipts")
    seat = models.PositiveSmallIntegerField()
    key = models.CharField(max_length=80)
    response = models.JSONField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seat", "key"], name="receipt_unique_key")
        ]

    def __str__(self) -> str:
        return f"{self.game_id} seat {self.seat} key {self.key}"
