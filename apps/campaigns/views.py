from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.accounts.http import AuthenticatedHttpRequest
from apps.campaigns import errors, selectors, services
from apps.campaigns.forms import CampaignCreateForm, GoldGiveForm, NextQuestForm, PotionsGiveForm
from apps.campaigns.models import Campaign, CharacterSheet


def _campaign(request: AuthenticatedHttpRequest, campaign_id: int) -> Campaign:
    try:
        return selectors.campaign_for_user(campaign_id=campaign_id, user=request.user)
    except errors.CampaignNotFound:
        raise Http404("No such campaign.") from None


def _sheet(request: AuthenticatedHttpRequest, campaign_id: int, sheet_id: int) -> CharacterSheet:
    campaign = _campaign(request, campaign_id)
    sheet = campaign.sheets.select_related("campaign", "owner").filter(pk=sheet_id).first()
    if sheet is None:
        raise Http404("No such hero.")
    return sheet


@login_required
@require_GET
def campaign_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    campaigns = selectors.campaigns_for(user=request.user).select_related("owner")
    rows = [(c, selectors.campaign_next_quest(campaign=c)) for c in campaigns]
    return render(request, "campaigns/list.html", {"rows": rows})


@login_required
@require_http_methods(["GET", "POST"])
def campaign_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = CampaignCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            campaign = services.campaign_create(owner=request.user, name=form.cleaned_data["name"])
        except errors.CampaignError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, f"Campaign “{campaign.name}” is ready.")
            return redirect("campaigns:detail", campaign_id=campaign.pk)
    return render(request, "campaigns/create.html", {"form": form})


def _gift_choices(sheet: CharacterSheet, living: list[CharacterSheet]) -> list[tuple[int, str]]:
    return [(s.pk, f"{s.name} the {s.get_hero_display()}") for s in living if s.pk != sheet.pk]


@login_required
@require_GET
def campaign_detail(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    campaign = _campaign(request, campaign_id)
    user = request.user
    living = selectors.campaign_living_sheets(campaign=campaign)
    rows = [
        {
            "sheet": s,
            "may_manage": selectors.sheet_may_manage(sheet=s, user=user),
            "gold_form": GoldGiveForm(choices=_gift_choices(s, living), prefix=f"s{s.pk}"),
            "potions_form": PotionsGiveForm(choices=_gift_choices(s, living), prefix=f"p{s.pk}"),
        }
        for s in living
    ]
    saga = selectors.campaign_saga(campaign=campaign)
    upcoming = next((step for step in saga if step.status == "next"), None)
    in_play = selectors.campaign_quest_in_play(campaign)
    whole_ledger = request.GET.get("ledger") == "all"
    ledger, ledger_total = selectors.campaign_ledger(
        campaign=campaign, limit=None if whole_ledger else selectors.LEDGER_PAGE
    )
    context = {
        "ledger": ledger,
        "ledger_older": ledger_total - len(ledger),
        "campaign": campaign,
        "rows": rows,
        "fallen": campaign.sheets.filter(fallen=True).select_related("owner"),
        "saga": saga,
        "next_step": upcoming,
        "in_play": in_play,
        "is_owner": campaign.owner_id == user.pk,
        "next_form": NextQuestForm(
            initial={
                "name": f"{campaign.name}: {upcoming.name}" if upcoming else "",
                "quest": upcoming.slug if upcoming else "",
                # The party plays again at its own table: the seats of its last quest.
                "seats": _party_seats(campaign),
            }
        ),
    }
    return render(request, "campaigns/detail.html", context)


def _party_seats(campaign: Campaign) -> int:
    """How many seats the campaign's last room had (5 for a campaign's first quest)."""
    rooms = selectors.campaign_rooms(campaign=campaign)
    return rooms[0].seat_count if rooms else 5


@login_required
@require_POST
def next_quest(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    campaign = _campaign(request, campaign_id)
    form = NextQuestForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Give the room a name and a number of seats.")
        return redirect("campaigns:detail", campaign_id=campaign.pk)
    try:
        room = services.campaign_room_create(
            campaign=campaign,
            host=request.user,
            name=form.cleaned_data["name"],
            seat_count=form.cleaned_data["seats"],
            quest_slug=form.cleaned_data["quest"] or None,
        )
    except errors.CampaignError as error:
        messages.error(request, error.message)
        return redirect("campaigns:detail", campaign_id=campaign.pk)
    messages.success(request, "The next quest is ready: take a seat and invite the party.")
    return redirect("rooms:detail", room_id=room.pk)


@login_required
@require_POST
def abandon_room(request: AuthenticatedHttpRequest, campaign_id: int, room_id: int) -> HttpResponse:
    """Drop a campaign room nobody launched, so that the party can start another quest."""
    campaign = _campaign(request, campaign_id)
    room = next((r for r in selectors.campaign_rooms(campaign=campaign) if r.pk == room_id), None)
    if room is None:
        raise Http404("There is no such quest in this campaign.")
    try:
        services.campaign_room_abandon(room=room, user=request.user)
    except errors.CampaignNotFound:
        raise Http404("There is no such quest in this campaign.") from None
    except errors.CampaignError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, f"“{room.name}” is no longer this campaign's next quest.")
    return redirect("campaigns:detail", campaign_id=campaign.pk)


@login_required
@require_http_methods(["GET", "POST"])
def armory(request: AuthenticatedHttpRequest, campaign_id: int, sheet_id: int) -> HttpResponse:
    sheet = _sheet(request, campaign_id, sheet_id)
    user = request.user
    if request.method == "POST":
        try:
            services.armory_buy(sheet=sheet, item=request.POST.get("item", ""), user=user)
        except errors.CampaignNotFound:
            raise Http404("No such hero.") from None
        except errors.CampaignError as error:
            messages.error(request, error.message)
        else:
            label = selectors.item_label(request.POST.get("item", "")).lower()
            messages.success(request, f"{sheet.name} bought the {label}.")
        return redirect("campaigns:armory", campaign_id=campaign_id, sheet_id=sheet.pk)
    context = {
        "campaign": sheet.campaign,
        "sheet": sheet,
        "items": selectors.armory_items(sheet=sheet),
        "owned": selectors.sheet_equipment(sheet=sheet),
        "in_play": selectors.campaign_quest_in_play(sheet.campaign),
        "may_manage": selectors.sheet_may_manage(sheet=sheet, user=user),
    }
    return render(request, "campaigns/armory.html", context)


@login_required
@require_POST
def armory_sell(request: AuthenticatedHttpRequest, campaign_id: int, sheet_id: int) -> HttpResponse:
    sheet = _sheet(request, campaign_id, sheet_id)
    item = request.POST.get("item", "")
    try:
        paid = services.armory_sell(sheet=sheet, item=item, user=request.user)
    except errors.CampaignNotFound:
        raise Http404("No such hero.") from None
    except errors.CampaignError as error:
        messages.error(request, error.message)
    else:
        label = selectors.item_label(item).lower()
        messages.success(request, f"{sheet.name} sold the {label} for {paid} gold.")
    return redirect("campaigns:armory", campaign_id=campaign_id, sheet_id=sheet.pk)


@login_required
@require_POST
def wield(request: AuthenticatedHttpRequest, campaign_id: int, sheet_id: int) -> HttpResponse:
    sheet = _sheet(request, campaign_id, sheet_id)
    weapon = request.POST.get("weapon", "")
    try:
        services.sheet_wield(sheet=sheet, weapon=weapon, user=request.user)
    except errors.CampaignNotFound:
        raise Http404("No such hero.") from None
    except errors.CampaignError as error:
        messages.error(request, error.message)
    else:
        label = selectors.item_label(weapon).lower()
        messages.success(request, f"{sheet.name} now wields the {label}.")
    return redirect("campaigns:armory", campaign_id=campaign_id, sheet_id=sheet.pk)


def _give(
    request: AuthenticatedHttpRequest, campaign_id: int, sheet_id: int, field: str
) -> HttpResponse:
    """Gold or potions from one hero to another, from the campaign page's forms."""
    sheet = _sheet(request, campaign_id, sheet_id)
    living = selectors.campaign_living_sheets(campaign=sheet.campaign)
    form_class, prefix = (GoldGiveForm, "s") if field == "gold" else (PotionsGiveForm, "p")
    form = form_class(
        request.POST, choices=_gift_choices(sheet, living), prefix=f"{prefix}{sheet.pk}"
    )
    what = services.GIFTS[field]
    if not form.is_valid():
        messages.error(request, f"Choose another living hero and at least 1 of the {what}.")
        return redirect("campaigns:detail", campaign_id=campaign_id)
    to_sheet = next(s for s in living if s.pk == form.cleaned_data["to_sheet"])
    amount = form.cleaned_data["amount"]
    user = request.user
    try:
        if field == "gold":
            services.gold_give(from_sheet=sheet, to_sheet=to_sheet, amount=amount, user=user)
        else:
            services.potions_give(from_sheet=sheet, to_sheet=to_sheet, count=amount, user=user)
    except errors.CampaignNotFound:
        raise Http404("No such hero.") from None
    except errors.CampaignError as error:
        messages.error(request, error.message)
    else:
        gift = services.gift_words(field, amount)
        messages.success(request, f"{sheet.name} gave {gift} to {to_sheet.name}.")
    return redirect("campaigns:detail", campaign_id=campaign_id)


@login_required
@require_POST
def gold_give(request: AuthenticatedHttpRequest, campaign_id: int, sheet_id: int) -> HttpResponse:
    return _give(request, campaign_id, sheet_id, "gold")


@login_required
@require_POST
def potions_give(
    request: AuthenticatedHttpRequest, campaign_id: int, sheet_id: int
) -> HttpResponse:
    return _give(request, campaign_id, sheet_id, "potions")
