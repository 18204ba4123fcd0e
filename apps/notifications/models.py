from django.conf import settings
from django.db import models
from django.db.models import Q


class Notification(models.Model):
    """A message to one user: stored, shown on /notifications/, pushed live, maybe emailed.

    The row is also the outbox: it is written in the sender's transaction with `delivered_at`
    empty, and a task (or the sweep, if the broker was down) delivers it once: the live push and
    the email the user's choices call for (services.notification_deliver).

    Notifications know users, not quests: the sender (play) writes the title, body, link and
    `topic` (what it is about, e.g. "game-12": opening that game marks them read).
    """

    class Kind(models.TextChoices):
        YOUR_TURN = "your_turn", "Your turn"
        REMINDER = "reminder", "Reminder"
        TIMEOUT = "timeout", "Turn timed out"
        GAME_OVER = "game_over", "Game over"
        SEAT = "seat", "Seat given to you"
        CHAT = "chat", "Table talk"
        WEBHOOK = "webhook", "Chat webhook failing"

    class Email(models.TextChoices):
        PENDING = "pending", "Not delivered yet"
        NONE = "none", "No email (the user's choice)"
        PRESENT = "present", "No email (the user had it open)"
        SENT = "sent", "Emailed"
        DIGEST = "digest", "Waiting for the daily digest"
        DIGESTED = "digested", "Sent in a daily digest"
        # The router's other outcomes (apps/notifications/router.py), for push as for email.
        HELD = "held", "Waiting for the end of quiet hours"
        SUPERSEDED = "superseded", "Not sent: a newer message about the same game replaced it"
        FAILED = "failed", "The push service refused it"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    title = models.CharField(max_length=200)
    body = models.TextField(blank=True)
    url = models.CharField(max_length=300, blank=True, help_text="A site path, e.g. /games/3/.")
    topic = models.CharField(max_length=60, blank=True, help_text='What it is about: "game-3".')
    created = models.DateTimeField(auto_now_add=True)
    read = models.BooleanField(default=False)
    emailable = models.BooleanField(default=True, help_text="False: never emailed.")
    email_status = models.CharField(max_length=10, choices=Email.choices, default=Email.PENDING)
    # Web push to the user's devices, decided by the same router as the email.
    push_status = models.CharField(max_length=10, choices=Email.choices, default=Email.PENDING)
    # Set while quiet hours hold the email or the push: the sweep delivers it from then on.
    held_until = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)
    # A deliverer's lease: another one leaves the row alone until it runs out.
    claimed_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [
            models.Index(fields=["user", "read"], name="notification_user_read"),
            models.Index(fields=["user", "topic"], name="notification_user_topic"),
            models.Index(
                fields=["created"],
                name="notification_outbox",
                condition=Q(delivered_at__isnull=True),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.title}"


class Presence(models.Model):
    """One open socket of a user on a topic (a game page): no email about what they watch.

    Written by the socket's consumer (any web process), refreshed by its heartbeat; a row whose
    `seen` is older than PRESENCE_TTL is a socket that died without saying goodbye.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="presences"
    )
    topic = models.CharField(max_length=60)
    channel_name = models.CharField(max_length=200, unique=True)
    seen = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["user", "topic", "seen"], name="presence_user_topic")]

    def __str__(self) -> str:
        return f"{self.user} on {self.topic}"


class PushSubscription(models.Model):
    """One browser (phone or desktop) of a user that takes web push: what its push service gave
    it (the endpoint and the keys the payload is encrypted to, RFC 8291). Dropped when the push
    service answers 404 or 410 (the browser unsubscribed, or the subscription expired)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    label = models.CharField(max_length=100, blank=True, help_text="Which browser, in words.")
    created = models.DateTimeField(auto_now_add=True)
    last_sent = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["user", "created"]

    def __str__(self) -> str:
        return f"{self.user}: {self.label or 'a browser'}"


class WebhookMessage(models.Model):
    """One line for a chat webhook (Discord or Slack-compatible): its own outbox row, written in
    the transaction that changed the game, posted after commit with retries and backoff; after
    the last try the room's host is told (apps/notifications/webhooks/)."""

    class Status(models.TextChoices):
        PENDING = "pending", "Not posted yet"
        SENT = "sent", "Posted"
        FAILED = "failed", "Given up (the host was told)"

    url = models.CharField(max_length=500)
    payload = models.JSONField()
    # Who is told when it cannot be posted, about what, and where they mend it.
    report_to = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    about = models.CharField(max_length=100, blank=True)
    manage_url = models.CharField(max_length=300, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.CharField(max_length=200, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["created"], name="webhook_outbox", condition=Q(status="pending"))
        ]

    def __str__(self) -> str:
        return f"webhook line {self.pk} ({self.status})"
