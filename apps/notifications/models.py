from django.conf import settings
from django.db import models


class Notification(models.Model):
    """A message to one user: stored, shown on /notifications/, pushed live, maybe emailed.

    Notifications know users, not quests: the sender (play) writes the title, body and link.
    """

    class Kind(models.TextChoices):
        YOUR_TURN = "your_turn", "Your turn"
        REMINDER = "reminder", "Reminder"
        TIMEOUT = "timeout", "Turn timed out"
        GAME_OVER = "game_over", "Game over"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    title = models.CharField(max_length=200)
    body = models.TextField(blank=True)
    url = models.CharField(max_length=300, blank=True, help_text="A site path, e.g. /games/3/.")
    created = models.DateTimeField(auto_now_add=True)
    read = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [models.Index(fields=["user", "read"], name="notification_user_read")]

    def __str__(self) -> str:
        return f"{self.user}: {self.title}"
