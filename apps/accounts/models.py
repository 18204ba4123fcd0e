from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone


class User(AbstractUser):
    """A player. Custom from day one so profile fields live on the user row."""

    # Where turn emails and password resets go: a contact address, not an identity (people log in
    # with their username). It is not unique, so that sign-up never tells whether an address is
    # registered: the address's owner is emailed instead (accounts.services.user_sign_up).
    email = models.EmailField("email address", db_index=True)
    display_name = models.CharField(max_length=60, blank=True)

    class TurnEmail(models.TextChoices):
        IMMEDIATELY = "immediately", "Right away"
        DIGEST = "digest", "In one daily digest"
        NEVER = "never", "Never"

    turn_email = models.CharField(
        "email me when it is my turn",
        max_length=12,
        choices=TurnEmail.choices,
        default=TurnEmail.IMMEDIATELY,
    )
    reminders = models.BooleanField("remind me before a turn deadline", default=True)
    email_chat = models.BooleanField("email me table talk", default=False)
    # An IANA zone name ("Europe/Paris"); empty until the browser (or the profile) sets it.
    time_zone = models.CharField(max_length=64, blank=True)
    # While away, the clock of this player's turns waits (apps/play/clock.py).
    away_until = models.DateTimeField(null=True, blank=True)
    digest_sent_at = models.DateTimeField(null=True, blank=True, editable=False)
    confirm_actions = models.BooleanField(
        "ask before a far move or ending a turn with something unused", default=True
    )
    # Chat webhooks mention this person by it when it is their turn (a Discord user id or a
    # Slack member id pings them; any other text is written as @text).
    chat_handle = models.CharField(max_length=60, blank=True)
    # Quiet hours, in the person's own time zone: no push and no email between them (they wait
    # for the end). Both empty: none. quiet_start > quiet_end spans midnight.
    quiet_start = models.TimeField(null=True, blank=True)
    quiet_end = models.TimeField(null=True, blank=True)
    # Signs the private calendar feed's link; a new one (revoking the link) makes the old fail.
    calendar_key = models.CharField(max_length=32, blank=True, editable=False)

    class Meta:
        verbose_name = "user"
        verbose_name_plural = "users"
        # "Bob" and "bob" are the same person to a human.
        constraints = [
            models.UniqueConstraint(
                Lower("username"),
                name="accounts_user_username_ci_unique",
                violation_error_message="A user with that username already exists.",
            ),
        ]

    def __str__(self) -> str:
        return self.display_name or self.username

    @property
    def shown_name(self) -> str:
        return self.display_name or self.username


class ApiToken(models.Model):
    """A personal API token for bots. Only the sha256 of the raw token is stored."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    name = models.CharField(max_length=60, default="api")
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True)
    # Set at issue (settings.API_TOKEN_TTL_DAYS); after it the token authenticates nobody.
    expires = models.DateTimeField()

    class Meta:
        ordering = ("-created",)
        verbose_name = "API token"

    def __str__(self) -> str:
        return f"{self.name} ({self.user})"

    @property
    def is_expired(self) -> bool:
        return timezone.now() >= self.expires


class Vacation(models.Model):
    """Days of a person's yearly vacation allowance spent (settings.VACATION_DAYS_PER_YEAR).

    "Away until" on the profile spends the days it covers (`source` away); a turn that runs out
    in a room that spends vacation instead of timing out spends one day (`source` auto, its game
    named by `game_id`: accounts knows no games). A day begun counts as a whole day.
    """

    class Source(models.TextChoices):
        AWAY = "away", "Away until (the profile)"
        AUTO = "auto", "Spent instead of a timeout"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    start = models.DateTimeField()
    end = models.DateTimeField()
    source = models.CharField(max_length=4, choices=Source.choices)
    game_id = models.PositiveIntegerField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["user", "start"]
        indexes = [models.Index(fields=["user", "start"], name="vacation_user_start")]

    def __str__(self) -> str:
        return f"{self.user}: {self.start:%Y-%m-%d} to {self.end:%Y-%m-%d} ({self.source})"
