import secrets
from typing import Any

from django.conf import settings
from django.db import models

from apps.core.fields import JSONTextField
from apps.core.jsontext import json_read_back
from apps.games.registry import DEFAULT_GAME


def new_link_token() -> str:
    """An unguessable token for a link the host shares (256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def as_stored_json(value: Any) -> Any:
    """The value as it comes back from a JSON column (tuples become lists, and so on)."""
    return json_read_back(value)


# Game.outcome of a game an admin ended (the engine never says it; the replay accepts it).
ABANDONED = "abandoned"


class Game(models.Model):
    """A quest in play: the whole authoritative engine state in one row, and its version.

    Restoring a game reads this row only, however long the log grows.
    """

    room = models.OneToOneField("rooms.Room", on_delete=models.CASCADE, related_name="game")
    # The game played (apps/games/registry.py), as its room says; the state is that game's JSON.
    kind = models.CharField(max_length=20, default=DEFAULT_GAME)
    quest_slug = models.SlugField()
    # The quest file as it was at launch: admins may edit the QuestDefinition later, but a game in
    # play (and the replay that verifies it) keeps the map it started with.
    quest_source = models.TextField(blank=True)
    seats = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField()
    # The fair-dice commitment (apps/play/fairness.py): at launch every seat is told
    # sha256("<salt>:<seed>"); the salt and the seed are shown only once the quest is over.
    # Set once by the launch and never changed (no service writes them; the admin shows them
    # read-only). Blank for games launched before commitments existed.
    seed_salt = models.CharField(max_length=64, blank=True)
    seed_commitment = models.CharField(max_length=64, blank=True)
    # The host lets anyone with the link watch the replay once the quest is over.
    replay_public = models.BooleanField(default=False)
    # The links the host shares, unguessable (game ids are sequential and could be walked): the
    # public replay's (`/replays/<replay_token>/`) and, for an invite-only room that lets
    # spectators watch, the spectators' (`/games/watch/<watch_token>/`).
    replay_token = models.CharField(max_length=64, unique=True, default=new_link_token)
    watch_token = models.CharField(max_length=64, unique=True, default=new_link_token)
    # Bumped in the transaction that takes access away (a seat given away, spectators switched
    # off: `services.game_seats_changed`). Every view is built with the generation read with
    # it, and a socket checked at an older one checks again before it sends: no frame leaves for
    # a socket whose access ended, even if the poke that tells it is lost (apps/play/consumers.py).
    access_generation = models.PositiveIntegerField(default=0)
    options = models.JSONField(default=dict)
    # Text, not jsonb (apps/core/fields.py). States written before it was text came through
    # jsonb, which sorts keys: `State.from_json` takes its order from the quest.
    state = JSONTextField(help_text="The engine state JSON.")
    version = models.PositiveIntegerField(default=0)
    # The `seq` of the newest GameEvent: whoever appends to the log (holding the row lock) numbers
    # on from it and bumps it, so an action never scans the log.
    last_seq = models.PositiveIntegerField(default=0)
    # "" while it runs; then the game's outcome word (its face's `outcome_of`), or "abandoned"
    # (an admin ended a stuck game)
    outcome = models.CharField(max_length=20, blank=True)
    # Read from the state by the action that changed them, so the lobby, the clock and the sweeps
    # never decode a state: the seats to move and the round.
    to_move = models.JSONField(default=list)
    round = models.PositiveIntegerField(default=0)
    # The players' private standing settings, per piece (HeroQuest's auto-drink): owner -> {name:
    # value}. Outside the log and the version: changing one tells the other seats nothing. Each
    # action puts them into the state first and its log row records them when they changed it,
    # so a replay reproduces the game exactly.
    settings = models.JSONField(default=dict)
    # Standing orders (apps/play/orders.py), each seat's own: str(seat) -> {"orders": the game's
    # JSON (empty: none), "note": why the last ones stopped, "version": when that was}. Private
    # like the settings: never in a view, a frame, the log or the replay; on the row so that an
    # action learns whether the seat now to move has orders without another statement.
    orders = models.JSONField(default=dict)
    # Turns over days: when the seat to move got the turn, and what has been sent about it.
    turn_started = models.DateTimeField(null=True, blank=True)
    reminded_at = models.DateTimeField(null=True, blank=True)
    # Set while the host has paused the clock (apps/play/clock.py): no deadline, no reminder.
    paused_at = models.DateTimeField(null=True, blank=True)
    # The clock that fits real lives (apps/play/timebank.py). Each restart of the clock (a turn
    # change) numbers the turn on, charges the banks and forgets the extension and reminders.
    turn_serial = models.PositiveIntegerField(default=0)
    reminders_sent = models.PositiveSmallIntegerField(default=0)
    # Time added to this turn's deadline: vacation days spent, extend votes carried.
    extension = models.DurationField(null=True, blank=True)
    # Bank rooms: seat (as text) -> seconds left in that player's bank (absent: the initial).
    banks = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.quest_slug} in {self.room}"


class GameEvent(models.Model):
    """The append-only log: every accepted action, die result, reveal and state change."""

    class Kind(models.TextChoices):
        ACTION = "action", "Accepted action"
        EVENT = "event", "Engine event"
        # Pause, resume, a seat given away, a game ended by an admin: the table's own story,
        # outside the engine (the replay skips these rows, players' logs never show them).
        NOTE = "note", "Table note"

    # No index of its own: the unique (game, seq) index below leads with the game, and serves
    # every lookup by game (a second index would only be written to, on every log row).
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events", db_index=False)
    seq = models.PositiveIntegerField()
    version = models.PositiveIntegerField(help_text="The game version this entry produced.")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    seat = models.PositiveSmallIntegerField(null=True, help_text="Who acted (None: the system).")
    payload = models.JSONField(help_text="The action, or the engine event with its audience.")
    # The engine's own number of an event (`payload["seq"]`, as in the views' `log`), None for
    # an accepted action: the events API pages on it through the index below, never on JSON.
    event_seq = models.PositiveIntegerField(null=True, blank=True)
    # An accepted action's idempotency key: the log is its receipt. A replayed key is answered
    # from the rows of the version it produced, so an action writes no receipt of its own.
    # Namespaced like receipts: a seat's keys (`seat` set), the system's (`seat` None). NULL, not
    # "", for no key: the unique indexes then skip engine events and older games' action rows.
    key = models.CharField(max_length=80, null=True, blank=True)  # noqa: DJ001
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="game_event_unique_seq"),
            models.UniqueConstraint(
                fields=["game", "event_seq"], name="game_event_unique_event_seq"
            ),
            # Also the indexes the action service finds a replayed key by.
            models.UniqueConstraint(
                fields=["game", "seat", "key"],
                condition=models.Q(kind="action", seat__isnull=False),
                name="game_event_unique_seat_key",
            ),
            models.UniqueConstraint(
                fields=["game", "key"],
                condition=models.Q(kind="action", seat__isnull=True),
                name="game_event_unique_system_key",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} #{self.seq} {self.kind}"


class ActionReceipt(models.Model):
    """The answer given to an idempotency key whose action left no row in the log (a private
    setting; also every action of games played before the log kept its keys), returned again if
    the key is replayed. An action that is logged keeps its key on its log row (`GameEvent.key`).

    Keys are namespaced by who sent them: the system's (timeouts, the AI, admins) and each seat's
    own. A client can therefore never take a key the system will use, however it guesses.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="receipts")
    seat = models.PositiveSmallIntegerField()
    system = models.BooleanField(default=False, help_text="Sent by the site, not by a client.")
    key = models.CharField(max_length=80)
    response = models.JSONField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "seat", "system", "key"], name="receipt_unique_key_per_sender"
            )
        ]

    def __str__(self) -> str:
        sender = "system" if self.system else f"seat {self.seat}"
        return f"{self.game_id} {sender} key {self.key}"


class ChatMessage(models.Model):
    """Table talk: a message in a game's chat, for its players only. Plain text, never HTML."""

    class Kind(models.TextChoices):
        PLAYER = "player", "A player"
        NARRATOR = "narrator", "The narrator (the game master's seat)"
        PARCHMENT = "parchment", "The scenario's parchment"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.PLAYER)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    text = models.TextField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "id"]
        indexes = [models.Index(fields=["game", "id"], name="chat_game_id")]

    def __str__(self) -> str:
        return f"{self.game_id} chat #{self.pk}"


class GameWatcher(models.Model):
    """A logged-in person who opened the spectators' link of an invite-only room's game: they
    may watch it (as SPECTATOR_SEAT) while the room lets spectators watch. Listed rooms need no
    link: the lobby lists their games."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="watchers")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="game_watcher_unique_user")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} watches {self.game_id}"


class SeatVisit(models.Model):
    """The newest version a seat's player has seen of a game (the page and its socket say so):
    where the recap of what they missed begins (apps/play/recap.py)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="visits")
    seat = models.PositiveSmallIntegerField()
    seen_version = models.PositiveIntegerField(default=0)
    seen_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="seat_visit_unique_seat")
        ]

    def __str__(self) -> str:
        return f"{self.game_id} seat {self.seat} saw v{self.seen_version}"


class ExtendVote(models.Model):
    """A player's "yes" to giving the player to move more time on this turn (`turn_serial`):
    once two thirds of the other players said yes, the deadline moves by the room's hours."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="extend_votes")
    turn_serial = models.PositiveIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "turn_serial", "user"], name="extend_vote_once_per_turn"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} extends game {self.game_id} turn {self.turn_serial}"
