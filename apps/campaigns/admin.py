"""The campaigns admin. A character sheet feeds the engine at the next launch, so the admin checks
it with the engine's own tables (`campaign_hero_problems`) and says what is wrong, as the armory
does for players; nothing the engine would refuse is saved."""

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest

from apps.campaigns.models import Campaign, CampaignRoom, CharacterSheet, LedgerEntry
from apps.campaigns.services import sheet_admin_changed
from apps.games.heroquest import campaign_hero_problems

# Which form field each engine problem is about (the first word that names one).
_PROBLEM_FIELDS = (
    ("carried", "items"),
    ("artifact", "artifacts"),
    ("weapon", "weapon"),
    ("wield", "weapon"),
    ("armour", "armour"),
    ("wear", "armour"),
    ("body_max", "body_max"),
    ("mind_max", "mind_max"),
    ("gold", "gold"),
    ("potions", "potions"),
    ("tool_kit", "tool_kit"),
)


class CharacterSheetForm(forms.ModelForm[CharacterSheet]):
    class Meta:
        model = CharacterSheet
        fields = (
            "campaign",
            "hero",
            "name",
            "owner",
            "body_max",
            "mind_max",
            "gold",
            "potions",
            "weapon",
            "armour",
            "items",
            "tool_kit",
            "artifacts",
            "quests_completed",
            "fallen",
        )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        instance = self.instance
        sheet = {
            key: cleaned.get(key, getattr(instance, key, None))
            for key in (
                "weapon",
                "armour",
                "items",
                "artifacts",
                "body_max",
                "mind_max",
                "gold",
                "potions",
                "tool_kit",
            )
        }
        hero = cleaned.get("hero", instance.hero)
        if not hero or any(value is None for value in sheet.values()):
            return cleaned  # a field error is already shown
        for problem in campaign_hero_problems(hero, sheet):
            field = next((f for word, f in _PROBLEM_FIELDS if word in problem), None)
            message = problem[0].upper() + problem[1:] + "."
            if field is not None and field in self.fields:
                self.add_error(field, message)
            else:
                self.add_error(None, message)
        return cleaned


class CharacterSheetInline(admin.TabularInline[CharacterSheet, Campaign]):
    model = CharacterSheet
    form = CharacterSheetForm
    extra = 0
    fields = ["hero", "name", "owner", "gold", "potions", "weapon", "fallen"]


class LedgerEntryInline(admin.TabularInline[LedgerEntry, Campaign]):
    """The campaign's ledger, newest first and read only: the services write it, nobody edits
    it. (An inline, not a model page of its own: deleting a campaign takes its ledger along.)"""

    model = LedgerEntry
    fk_name = "campaign"
    extra = 0
    can_delete = False
    fields = ("created", "kind", "sheet", "to_sheet", "actor", "item", "gold", "potions")
    readonly_fields = fields
    ordering = ["-created", "-id"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class CampaignRoomInline(admin.TabularInline[CampaignRoom, Campaign]):
    model = CampaignRoom
    extra = 0
    raw_id_fields = ["room"]


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin[Campaign]):
    list_display = ["name", "owner", "created"]
    search_fields = ["name", "owner__username"]
    exclude = ["webhook_url"]  # the owner's secret: nobody else sees it, staff included
    inlines = [CharacterSheetInline, CampaignRoomInline, LedgerEntryInline]

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        """A sheet changed in the campaign's page gets its ledger entry (as on its own page)."""
        changed = [
            (f.instance, dict(f.initial))
            for f in formset.forms
            if isinstance(f.instance, CharacterSheet) and f.instance.pk and f.has_changed()
        ]
        super().save_formset(request, form, formset, change)
        for sheet, before in changed:
            if sheet.pk is not None and sheet not in formset.deleted_objects:
                sheet_admin_changed(sheet=sheet, before=before, user=request.user)


@admin.register(CharacterSheet)
class CharacterSheetAdmin(admin.ModelAdmin[CharacterSheet]):
    form = CharacterSheetForm
    list_display = ["name", "hero", "campaign", "owner", "gold", "potions", "fallen"]
    list_filter = ["hero", "fallen"]
    search_fields = ["name", "campaign__name"]

    def save_model(
        self, request: HttpRequest, obj: CharacterSheet, form: Any, change: bool
    ) -> None:
        """Staff's change of a hero's purse or gear goes in the campaign's ledger, by name."""
        super().save_model(request, obj, form, change)
        if change:
            sheet_admin_changed(sheet=obj, before=dict(form.initial), user=request.user)
