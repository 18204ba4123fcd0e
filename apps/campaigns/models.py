from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


class Campaign(models.Model):
    """A party of heroes and the quests it plays, one after another (docs/rules.md 12)."""

    name = models.CharField(max_length=80)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="campaigns"
    )
    created = models.DateTimeField(auto_now_add=True)
    # A Discord or Slack-compatible webhook the campaign's rooms post to (a room's own wins):
    # a secret, set and seen (as "set", never echoed) by the owner only.
    webhook_url = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return self.name


class CampaignRoom(models.Model):
    """A room in which the campaign plays one of its quests (rooms never import campaigns)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="rooms")
    room = models.OneToOneField(
        "rooms.Room", on_delete=models.CASCADE, related_name="campaign_link"
    )
    # Set once the quest's outcome has been written back to the sheets.
    outcome = models.CharField(max_length=10, blank=True)

    class Meta:
        ordering = ["campaign", "room"]

    def __str__(self) -> str:
        return f"{self.campaign}: {self.room}"


class CharacterSheet(models.Model):
    """A hero of the campaign. A fallen hero's sheet is kept; the class gets a new sheet."""

    class Hero(models.TextChoices):
        BARBARIAN = "barbarian", "Barbarian"
        DWARF = "dwarf", "Dwarf"
        ELF = "elf", "Elf"
        WIZARD = "wizard", "Wizard"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="sheets")
    hero = models.CharField(max_length=10, choices=Hero.choices)
    name = models.CharField(max_length=40)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="character_sheets",
    )
    body_max = models.PositiveSmallIntegerField()
    mind_max = models.PositiveSmallIntegerField()
    gold = models.PositiveIntegerField(default=0)
    potions = models.PositiveSmallIntegerField(default=0)
    weapon = models.CharField(max_length=20, blank=True)  # "" = no weapon left
    armour = models.JSONField(default=list, blank=True)
    items = models.JSONField(default=list, blank=True)  # carried spare weapons
    tool_kit = models.BooleanField(default=False)
    artifacts = models.JSONField(default=list, blank=True)
    quests_completed = models.JSONField(default=list, blank=True)  # quest slugs
    fallen = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "fallen", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "hero"],
                condition=Q(fallen=False),
                name="sheet_one_living_hero_per_class",
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} the {self.get_hero_display()}"


class LedgerEntryQuerySet(models.QuerySet["LedgerEntry"]):
    """The ledger is append-only: rows are added, never removed (but with their campaign, which
    Django's cascade deletes without this method). A deleted user or room only empties the
    entry's link to it (SET_NULL, a bulk update left possible for that)."""

    def delete(self) -> tuple[int, dict[str, int]]:
        raise TypeError("The campaign ledger is append-only: its entries are never deleted.")


class LedgerEntry(models.Model):
    """One change to a hero's purse or gear between quests, or at a quest's end: what changed,
    for which hero, who did it and when (docs/design.md, "Campaigns").

    Written by the campaign services in the transaction that makes the change (and by the admin
    when staff change a sheet); never changed or deleted afterwards (only with the whole
    campaign). `actor` is the user who acted (the hero's player, the campaign's owner acting for
    any hero, or staff); None for a quest's end, which the game itself writes back. `gold` and
    `potions` are the changes to `sheet` (negative: spent, sold or given away)."""

    class Kind(models.TextChoices):
        PURCHASE = "purchase", "Bought"
        SALE = "sale", "Sold"
        WIELD = "wield", "Wielded"
        GIFT = "gift", "Gave"
        REWARD = "reward", "Came back from a quest"
        FALLEN = "fallen", "Fell"
        ADMIN = "admin", "Changed by an administrator"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="ledger")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    # RESTRICT: a sheet with entries is deleted only with its campaign (the history stays whole).
    sheet = models.ForeignKey(
        CharacterSheet, on_delete=models.RESTRICT, related_name="ledger_entries"
    )
    # A gift's recipient.
    to_sheet = models.ForeignKey(
        CharacterSheet,
        null=True,
        blank=True,
        on_delete=models.RESTRICT,
        related_name="ledger_gifts_received",
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="campaign_ledger_entries",
    )
    # The armory's ware bought, sold or wielded ("" for the others).
    item = models.CharField(max_length=20, blank=True)
    gold = models.IntegerField(default=0)
    potions = models.IntegerField(default=0)
    # A quest's end: the campaign's room it was played in.
    room = models.ForeignKey(
        "rooms.Room", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # What else the entry tells, by kind: a purchase's "how" (wielded, carried, worn); a
    # wield's "instead_of"; a quest end's "outcome", "share", "found" and "lost" (ware lists).
    details = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(default=timezone.now)

    objects = LedgerEntryQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = "ledger entry"
        verbose_name_plural = "ledger entries"
        indexes = [
            models.Index(fields=["campaign", "-created", "-id"], name="ledger_campaign_newest")
        ]

    def __str__(self) -> str:
        return f"{self.campaign}: {self.get_kind_display()} ({self.sheet})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise TypeError("The campaign ledger is append-only: its entries are never changed.")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise TypeError("The campaign ledger is append-only: its entries are never deleted.")
