"""Reading campaigns: membership, the living sheets, rooms, the options a quest starts with, and
what the armory sells to whom. Nothing here writes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db.models import Q, QuerySet

from apps.accounts.models import User
from apps.campaigns.errors import CampaignError, CampaignNotFound
from apps.campaigns.models import Campaign, CampaignRoom, CharacterSheet, LedgerEntry
from apps.games.heroquest import (
    ARMOUR,
    CINDER_SAGA,
    HERO_ORDER,
    TOOL_KIT_PRICE,
    WEAPONS,
    campaign_hero_problems,
    equipment_problem,
    item_effect,
    saga_quests,
)
from apps.rooms.models import Room, Seat

TOOL_KIT = "tool_kit"
AnyUser = User | AnonymousUser


def campaign_is_member(*, campaign: Campaign, user: AnyUser) -> bool:
    """The owner, the heroes' players and whoever sits in one of the campaign's rooms."""
    if not user.is_authenticated:
        return False
    return bool(
        campaign.owner_id == user.pk
        or campaign.sheets.filter(owner=user).exists()
        or Seat.objects.filter(room__campaign_link__campaign=campaign, user=user).exists()
    )


def campaigns_for(*, user: User) -> QuerySet[Campaign]:
    """The campaigns `user` is a member of, newest first."""
    return (
        Campaign.objects.filter(
            Q(owner=user) | Q(sheets__owner=user) | Q(rooms__room__seats__user=user)
        )
        .distinct()
        .order_by("-created")
    )


def campaign_for_user(*, campaign_id: int, user: AnyUser) -> Campaign:
    campaign = Campaign.objects.select_related("owner").filter(pk=campaign_id).first()
    if campaign is None or not campaign_is_member(campaign=campaign, user=user):
        raise CampaignNotFound("There is no such campaign.")
    return campaign


def campaign_living_sheets(*, campaign: Campaign) -> list[CharacterSheet]:
    """The living sheets, in hero order (barbarian, dwarf, elf, wizard)."""
    sheets = {s.hero: s for s in campaign.sheets.filter(fallen=False).select_related("owner")}
    return [sheets[h] for h in HERO_ORDER if h in sheets]


def campaign_rooms(*, campaign: Campaign) -> list[Room]:
    return list(
        Room.objects.filter(campaign_link__campaign=campaign)
        .select_related("quest")
        .order_by("-created")
    )


def campaign_quest_in_play(campaign: Campaign) -> Room | None:
    """The campaign's room whose quest is being played, if any."""
    return (
        Room.objects.filter(campaign_link__campaign=campaign, status=Room.Status.PLAYING)
        .order_by("-created")
        .first()
    )


def campaign_hero_options(*, room: Room) -> dict[str, Any] | None:
    """`new_game` options for a campaign room (the living sheets), or None outside campaigns.

    Called inside the launch's transaction: the sheet rows are locked, so a purchase, sale or
    gift racing the launch either lands before the sheets are read or sees the quest in play
    and is refused (it locks the same rows, then checks) - never lost under the game's state.
    """
    link = CampaignRoom.objects.filter(room=room).select_related("campaign").first()
    if link is None:
        return None
    list(link.campaign.sheets.select_for_update().filter(fallen=False).order_by("pk"))
    heroes = {
        sheet.hero: {
            "name": sheet.name,
            "body_max": sheet.body_max,
            "mind_max": sheet.mind_max,
            "weapon": sheet.weapon,
            "armour": list(sheet.armour),
            "items": list(sheet.items),
            "tool_kit": sheet.tool_kit,
            "gold": sheet.gold,
            "potions": sheet.potions,
            "artifacts": list(sheet.artifacts),
        }
        for sheet in campaign_living_sheets(campaign=link.campaign)
    }
    for sheet in campaign_living_sheets(campaign=link.campaign):
        problems = campaign_hero_problems(sheet.hero, heroes[sheet.hero])
        if problems:  # stored by hand (the admin, a script): refused with words, never a 500
            raise CampaignError(
                f"{sheet.name}'s character sheet cannot start a quest: {'; '.join(problems)}. "
                "An administrator must correct the sheet first."
            )
    return {"heroes": heroes}


# --- the saga ---------------------------------------------------------------------------------


@dataclass
class SagaStep:
    """One quest of the campaign's saga and where the party stands with it."""

    slug: str
    name: str
    chapter: int
    status: str  # "done", "next" or "locked"
    tries: list[Room]  # the campaign's rooms for this quest, oldest first
    reward_gold: int

    @property
    def room(self) -> Room | None:
        """The room in which the party plays (or is about to play) this quest, if any."""
        last = self.tries[-1] if self.tries else None
        return last if last is not None and last.status != Room.Status.FINISHED else None


def campaign_saga(*, campaign: Campaign) -> list[SagaStep]:
    """The saga's quests in order (docs/rules.md 12): every quest won is *done*; the first one
    not won is *next* (a lost, retreated or abandoned quest stays next: it is tried again);
    the quests after it are *locked*. Every campaign plays the Cinder Saga."""
    rooms: dict[str, list[Room]] = {}
    for room in (
        Room.objects.filter(campaign_link__campaign=campaign)
        .select_related("quest", "campaign_link")
        .order_by("created", "pk")
    ):
        rooms.setdefault(room.quest.slug, []).append(room)
    steps, next_found = [], False
    for quest in saga_quests(CINDER_SAGA):
        tries = rooms.get(quest.slug, [])
        won = any(r.campaign_link.outcome == "heroes" for r in tries)
        status = "done" if won else "locked" if next_found else "next"
        next_found = next_found or status == "next"
        steps.append(
            SagaStep(quest.slug, quest.name, quest.chapter, status, tries, quest.reward_gold)
        )
    return steps


def campaign_next_quest(*, campaign: Campaign) -> SagaStep | None:
    """The saga's next quest, or None once every quest is done."""
    return next((s for s in campaign_saga(campaign=campaign) if s.status == "next"), None)


# --- the armory --------------------------------------------------------------------------------


@dataclass
class ArmoryItem:
    item: str
    label: str
    price: int
    effect: str
    problem: str | None  # why this sheet may not buy it now, or None


def item_label(item: str) -> str:
    return item.replace("_", " ").capitalize()


def armory_price(*, item: str) -> int | None:
    if item in WEAPONS:
        return WEAPONS[item].price
    if item in ARMOUR:
        return ARMOUR[item].price
    if item == TOOL_KIT:
        return TOOL_KIT_PRICE
    return None


def armory_item_problem(sheet: CharacterSheet, item: str) -> str | None:
    """Why `sheet` may not buy `item` (docs/rules.md 10), ignoring who asks and when."""
    price = armory_price(item=item)
    if price is None:
        return f"The armory does not sell “{item_label(item)}”."
    if sheet.fallen:
        return f"{sheet.name} has fallen."
    if item in WEAPONS:
        problem = equipment_problem(sheet.hero, item, list(sheet.armour))
        if problem:
            return sentence(problem)
    elif item in ARMOUR:
        if item in sheet.armour:
            return f"{sheet.name} already wears {item_label(item).lower()}."
        problem = equipment_problem(sheet.hero, sheet.weapon, [*sheet.armour, item])
        if problem:
            return sentence(problem)
    elif sheet.tool_kit:
        return f"{sheet.name} already has a tool kit."
    if sheet.gold < price:
        return f"{sheet.name} has {sheet.gold} gold; the {item_label(item).lower()} costs {price}."
    return None


def sentence(problem: str) -> str:
    text = problem.replace("_", " ")
    return text[0].upper() + text[1:] + "."


def sell_price(*, item: str) -> int | None:
    """What the armory pays for `item`: half its price, rounded down (docs/rules.md 10)."""
    price = armory_price(item=item)
    return None if price is None else price // 2


def owned_items(*, sheet: CharacterSheet) -> list[str]:
    """Everything the armory would buy back from the hero: wielded, carried, worn, tool kit
    (artifacts and potions are not the armory's wares)."""
    owned = [sheet.weapon] if sheet.weapon else []
    owned += [*sheet.items, *sheet.armour]
    owned += [TOOL_KIT] if sheet.tool_kit else []
    return [item for item in owned if armory_price(item=item) is not None]


@dataclass
class OwnedItem:
    item: str
    label: str
    how: str  # "wielded", "carried", "worn" or "" (the tool kit)
    sell_price: int
    may_wield: bool  # a carried weapon the hero may wield instead


def sheet_equipment(*, sheet: CharacterSheet) -> list[OwnedItem]:
    """The hero's armory wares, each with its buy-back price and whether it may be wielded."""
    out = []
    if sheet.weapon in WEAPONS:
        out.append(OwnedItem(sheet.weapon, item_label(sheet.weapon), "wielded", 0, False))
    for item in sheet.items:
        usable = item in WEAPONS and equipment_problem(sheet.hero, item, list(sheet.armour)) is None
        out.append(OwnedItem(item, item_label(item), "carried", 0, usable))
    out += [OwnedItem(a, item_label(a), "worn", 0, False) for a in sheet.armour if a in ARMOUR]
    if sheet.tool_kit:
        out.append(OwnedItem(TOOL_KIT, item_label(TOOL_KIT), "", 0, False))
    for entry in out:
        entry.sell_price = sell_price(item=entry.item) or 0
    return out


def armory_items(*, sheet: CharacterSheet) -> list[ArmoryItem]:
    """Everything the armory sells, with its price and why this sheet may not buy it."""
    in_play = campaign_quest_in_play(sheet.campaign)
    out = []
    for item in [*WEAPONS, *ARMOUR, TOOL_KIT]:
        problem = armory_item_problem(sheet, item)
        if in_play is not None and problem is None:
            problem = "The armory is closed while the party is on a quest."
        price = armory_price(item=item) or 0
        out.append(ArmoryItem(item, item_label(item), price, item_effect(item), problem))
    return out


def sheet_may_manage(*, sheet: CharacterSheet, user: AnyUser) -> bool:
    """The hero's player, and the campaign's owner, may spend the hero's gold."""
    return bool(user.is_authenticated and user.pk in (sheet.owner_id, sheet.campaign.owner_id))


# --- the ledger --------------------------------------------------------------------------------

LEDGER_PAGE = 50
MINUS = "\u2212"  # a minus sign, not a hyphen
OUTCOME_WORDS = {"heroes": "won", "zargon": "lost", "retreat": "retreated"}


@dataclass(frozen=True)
class LedgerLine:
    """A ledger entry as the campaign page shows it."""

    id: int
    kind: str
    when: datetime
    who: str  # the acting user's shown name, or who else wrote it
    hero: str  # "Brakka the Barbarian"
    what: str  # what happened, in words
    gold: int  # the hero's gold change

    @property
    def gold_text(self) -> str:
        """ "+40", "\u2212250" (a minus sign), or "" for no change."""
        return _signed(self.gold, str(abs(self.gold))) if self.gold else ""


def _hero_words(sheet: CharacterSheet) -> str:
    return f"{sheet.name} the {sheet.get_hero_display()}"


def _ware(item: str) -> str:
    """An armory ware in a sentence ("the battle axe"), an artifact by its name ("Emberbrand")."""
    if armory_price(item=item) is None:
        return item
    return f"the {item_label(item).lower()}"


def _potions(count: int) -> str:
    return f"{count} potion{'s' if count != 1 else ''} of healing"


def _listed(things: list[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    if len(things) <= 1:
        return "".join(things)
    return f"{', '.join(things[:-1])} and {things[-1]}"


def _signed(amount: int, words: str) -> str:
    return f"{'+' if amount > 0 else MINUS}{words}"


def _entry_words(entry: LedgerEntry) -> str:
    d = entry.details or {}
    kind = entry.kind
    if kind == LedgerEntry.Kind.PURCHASE:
        how = {"wielded": "now wielded", "worn": "worn", "carried": "carried"}.get(
            str(d.get("how"))
        )
        return f"Bought {_ware(entry.item)} for {-entry.gold} gold" + (f" ({how})" if how else "")
    if kind == LedgerEntry.Kind.SALE:
        return f"Sold {_ware(entry.item)} to the armory for {entry.gold} gold"
    if kind == LedgerEntry.Kind.WIELD:
        old = d.get("instead_of")
        return f"Wields {_ware(entry.item)}" + (f" instead of {_ware(old)}" if old else "")
    if kind == LedgerEntry.Kind.GIFT:
        gift = f"{-entry.gold} gold" if entry.gold else _potions(-entry.potions)
        taker = _hero_words(entry.to_sheet) if entry.to_sheet else "another hero"
        return f"Gave {gift} to {taker}"
    quest = str(d.get("quest") or "a quest")
    if quest.startswith("The "):  # "came back from the Ashen Vault"
        quest = "the " + quest[4:]
    outcome = OUTCOME_WORDS.get(d.get("outcome", ""), "")
    where = quest + (f" ({outcome})" if outcome else "")
    if kind == LedgerEntry.Kind.FALLEN:
        lost = [f"{-entry.gold} gold"] if entry.gold else []
        lost += [_potions(-entry.potions)] if entry.potions else []
        lost += [_ware(w) for w in d.get("lost", [])]
        text = f"Fell in {quest}" + (f", losing {_listed(lost)}" if lost else "")
        successor = d.get("successor")
        hero = entry.sheet.get_hero_display()
        return text + (f"; {successor} is the party's new {hero}" if successor else "")
    admin = kind == LedgerEntry.Kind.ADMIN
    changes = []
    if entry.gold:
        gold = _signed(entry.gold, f"{abs(entry.gold)} gold")
        share = d.get("share") or 0
        if share:
            gold += (
                " (the quest's reward)" if share == entry.gold else f" ({share} of it the reward)"
            )
        changes.append(gold)
    if entry.potions:
        changes.append(_signed(entry.potions, _potions(abs(entry.potions))))
    if d.get("found"):
        changes.append(f"{'given' if admin else 'found'} {_listed([_ware(w) for w in d['found']])}")
    if d.get("lost"):
        changes.append(f"{'taken' if admin else 'lost'} {_listed([_ware(w) for w in d['lost']])}")
    if admin:
        return "Changed the sheet in the admin" + (f": {'; '.join(changes)}" if changes else "")
    if not changes:
        return f"Came back from {where} with nothing new"
    return f"Came back from {where}: {'; '.join(changes)}"


def _actor_words(entry: LedgerEntry) -> str:
    if entry.actor is not None:
        return entry.actor.shown_name
    if entry.kind in (LedgerEntry.Kind.REWARD, LedgerEntry.Kind.FALLEN):
        return "The quest's end"
    return "A deleted account"


def campaign_ledger(
    *, campaign: Campaign, limit: int | None = LEDGER_PAGE
) -> tuple[list[LedgerLine], int]:
    """The campaign's ledger, newest first (at most `limit` lines; None: all of them), and how
    many entries it holds in all."""
    entries = campaign.ledger.select_related("actor", "sheet", "to_sheet").order_by(
        "-created", "-id"
    )
    total = entries.count()
    chosen = entries if limit is None else entries[:limit]
    lines = [
        LedgerLine(
            id=e.pk,
            kind=e.kind,
            when=e.created,
            who=_actor_words(e),
            hero=_hero_words(e.sheet),
            what=_entry_words(e),
            gold=e.gold,
        )
        for e in chosen
    ]
    return lines, total
