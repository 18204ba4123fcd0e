from django.conf import settings
from django.db import models
from django.db.models import Q


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
