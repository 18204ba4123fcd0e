from django.db import models


class QuestDefinition(models.Model):
    """A quest that rooms can play: its validated YAML source, editable by admins."""

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
