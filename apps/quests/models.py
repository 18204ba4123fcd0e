from django.conf import settings
from django.db import models
from django.utils import timezone

from apps.games.registry import DEFAULT_GAME


class QuestDefinition(models.Model):
    """A quest that rooms can play: its validated YAML source, editable by admins.

    Write through `apps.quests.services` only: every change of the source is kept as a
    `QuestRevision`, and `origin` tells `load_quests` whether the row is still as shipped.
    """

    # The game this scenario belongs to (apps/games/registry.py).
    kind = models.CharField(max_length=20, default=DEFAULT_GAME)
    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=120)
    source = models.TextField(help_text="The quest file (YAML); see docs/quest-format.md.")
    enabled = models.BooleanField(default=True, help_text="Offered when creating a room.")
    origin = models.CharField(
        max_length=10,
        choices=[("shipped", "Shipped quest file"), ("admin", "Edited by an admin")],
        default="admin",
    )
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class QuestRevision(models.Model):
    """One saved version of a quest's source: who saved it, when, and how."""

    class Note(models.TextChoices):
        SHIPPED = "shipped", "Loaded from the shipped file"
        UPLOAD = "upload", "Uploaded by an admin"
        EDIT = "edit", "Edited by an admin"
        RESTORE = "restore", "Restored from an earlier revision"

    definition = models.ForeignKey(
        QuestDefinition, on_delete=models.CASCADE, related_name="revisions"
    )
    number = models.PositiveIntegerField()
    source = models.TextField()
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(default=timezone.now)
    note = models.CharField(max_length=10, choices=Note.choices)
    restored_from = models.PositiveIntegerField(
        null=True, blank=True, help_text="The revision number a restore copied."
    )

    class Meta:
        ordering = ["definition", "-number"]
        constraints = [
            models.UniqueConstraint(
                fields=["definition", "number"], name="quest_revision_number_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.definition.slug} revision {self.number}"
