from django.contrib import admin

from apps.campaigns.models import Campaign, CampaignRoom, CharacterSheet


class CharacterSheetInline(admin.TabularInline):
    model = CharacterSheet
    extra = 0
    fields = ["hero", "name", "owner", "gold", "potions", "weapon", "fallen"]


class CampaignRoomInline(admin.TabularInline):
    model = CampaignRoom
    extra = 0
    raw_id_fields = ["room"]


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "created"]
    search_fields = ["name", "owner__username"]
    exclude = ["webhook_url"]  # the owner's secret: nobody else sees it, staff included
    inlines = [CharacterSheetInline, CampaignRoomInline]


@admin.register(CharacterSheet)
class CharacterSheetAdmin(admin.ModelAdmin):
    list_display = ["name", "hero", "campaign", "owner", "gold", "potions", "fallen"]
    list_filter = ["hero", "fallen"]
    search_fields = ["name", "campaign__name"]
