"""Campaigns, the writes: creating campaigns and their rooms, outcomes written back, the armory.

Every function takes keyword arguments only and raises `CampaignError` with a message a player can
read. Writes lock the sheets they change (`select_for_update`) inside one transaction.

Outcome write-back (docs/rules.md 12), called by `play` in the transaction that ends the quest:
- heroes win: survivors keep what they carry (gold, potions, equipment, artifacts), get an even
  share of the quest's `reward_gold` (the remainder of the division is lost) and the quest is
  marked completed; Body and Mind are restored (a sheet only stores the maxima).
- Zargon wins: the quest may be replayed, so it is not marked completed and pays no reward; the
  heroes who did not fall still keep what they carry.
- either way a fallen hero's sheet is marked fallen (kept for history) and a fresh sheet of the
  same class (new name, starting stats and equipment, same player) takes its place.
- abandoned (an administrator ended a stuck game): nothing is written back. The sheets stay as
  they were before the quest (no gold, potion or find of the unfinished try is kept, nobody
  falls) and the quest stays the party's next one, to be tried again.

The ledger: every change these services make to a hero's gold, potions or gear (a purchase, a
sale, a weapon wielded, a gift, what a quest's end wrote back, a hero fallen) adds a
`LedgerEntry` in the same transaction, naming who acted (the hero's player, or the campaign's
owner, who may act for any hero; nobody for a quest's end). The campaign page lists them.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from apps.accounts.models import User
from apps.campaigns.errors import CampaignError, CampaignNotFound
from apps.campaigns.models import Campaign, CampaignRoom, CharacterSheet, LedgerEntry
from apps.campaigns.selectors import (
    AnyUser,
    armory_item_problem,
    armory_price,
    campaign_is_member,
    campaign_quest_in_play,
    campaign_saga,
    item_label,
    owned_items,
    sell_price,
    sentence,
    sheet_may_manage,
)
from apps.games.heroquest import (
    ARMOUR,
    HERO_ORDER,
    HEROES,
    WEAPONS,
    equipment_problem,
    seat_of_hero,
)
from apps.rooms.models import Room
from apps.rooms.services import RoomError, room_changed, room_create

NAME_MAX_LENGTH = 80
# Outcomes that leave the sheets as they were before the quest (an admin ended a stuck game).
OUTCOMES_WRITING_NOTHING = frozenset({"abandoned"})

# New heroes' names, in order; after the list runs out: "Brakka III" and so on.
HERO_NAMES: dict[str, tuple[str, ...]] = {
    "barbarian": ("Brakka", "Sigrun", "Torvald", "Hrothgar"),
    "dwarf": ("Durin", "Grimma", "Thrain", "Borin"),
    "elf": ("Elandra", "Faelar", "Sylwen", "Ithil"),
    "wizard": ("Mordane", "Ysolde", "Caspar", "Aurelian"),
}


# --- creating ----------------------------------------------------------------------------------


def _new_sheet(campaign: Campaign, hero: str, owner: User | None) -> CharacterSheet:
    stats = HEROES[hero]
    taken = set(campaign.sheets.filter(hero=hero).values_list("name", flat=True))
    candidates = [*HERO_NAMES[hero]]
    candidates += [f"{HERO_NAMES[hero][0]} {_roman(n)}" for n in range(2, len(taken) + 3)]
    name = next(n for n in candidates if n not in taken)
    return CharacterSheet.objects.create(
        campaign=campaign,
        hero=hero,
        name=name,
        owner=owner,
        body_max=stats.body,
        mind_max=stats.mind,
        weapon=stats.weapon,
    )


def _roman(n: int) -> str:
    out = ""
    for value, letters in ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= value:
            out, n = out + letters, n - value
    return out


def _ledger(
    *,
    kind: str,
    sheet: CharacterSheet,
    actor: AnyUser | None,
    item: str = "",
    gold: int = 0,
    potions: int = 0,
    to_sheet: CharacterSheet | None = None,
    room: Room | None = None,
    **details: Any,
) -> LedgerEntry:
    """Write one ledger entry (inside the caller's transaction: it stands or falls with the
    change it records)."""
    return LedgerEntry.objects.create(
        campaign_id=sheet.campaign_id,
        kind=kind,
        sheet=sheet,
        to_sheet=to_sheet,
        actor=actor if isinstance(actor, User) else None,
        item=item,
        gold=gold,
        potions=potions,
        room=room,
        details=details,
    )


def _wares(sheet: CharacterSheet) -> list[str]:
    """What the hero owns besides gold and potions: armory wares, then artifacts."""
    return [*owned_items(sheet=sheet), *sheet.artifacts]


def _minus(things: list[str], others: list[str]) -> list[str]:
    """`things` without one of each of `others` (a multiset difference, in `things`' order)."""
    left = list(others)
    out = []
    for thing in things:
        if thing in left:
            left.remove(thing)
        else:
            out.append(thing)
    return out


def campaign_create(*, owner: User, name: str) -> Campaign:
    """A campaign with the four heroes' starting sheets (docs/rules.md 1 and 12)."""
    name = (name or "").strip()
    if not name:
        raise CampaignError("Give the campaign a name.")
    if len(name) > NAME_MAX_LENGTH:
        raise CampaignError(f"The campaign name can be at most {NAME_MAX_LENGTH} characters.")
    with transaction.atomic():
        campaign = Campaign.objects.create(owner=owner, name=name)
        for hero in HERO_ORDER:
            _new_sheet(campaign, hero, None)
    return campaign


def campaign_room_create(
    *,
    campaign: Campaign,
    host: User,
    name: str,
    seat_count: int,
    quest_slug: str | None = None,
) -> Room:
    """The campaign's next quest: a new room (the host still takes a seat) linked to it.

    The saga is played in order (docs/rules.md 12): only its *next* quest may start, which is
    also how a lost or retreated quest is tried again. `quest_slug` None means the next one.
    """
    if host.pk != campaign.owner_id:
        raise CampaignError("Only the campaign's owner can start its next quest.")
    with transaction.atomic():
        Campaign.objects.select_for_update().get(pk=campaign.pk)  # one new quest at a time
        quest_slug = _startable_quest(campaign, quest_slug)
        waiting = (
            Room.objects.filter(
                campaign_link__campaign=campaign,
                status__in=[Room.Status.OPEN, Room.Status.PLAYING],
            )
            .order_by("-created")
            .first()
        )
        if waiting is not None:
            raise CampaignError(
                f"The party's quest in room “{waiting.name}” is not over yet: "
                "play it (or leave it) before starting another."
            )
        try:
            # The party's own table: its seats lead to the sheets, so only its invite seats anyone.
            room = room_create(
                host=host,
                name=name,
                seat_count=seat_count,
                quest_slug=quest_slug,
                invite_only=True,
            )
        except RoomError as error:
            raise CampaignError(error.message) from None
        CampaignRoom.objects.create(campaign=campaign, room=room)
        if campaign.webhook_url:  # the campaign's chat hears this quest's news too
            room.webhook_url = campaign.webhook_url
            room.save(update_fields=["webhook_url"])
    return room


def _startable_quest(campaign: Campaign, quest_slug: str | None) -> str:
    """The slug of the saga's next quest, when `quest_slug` names it (or is None)."""
    saga = campaign_saga(campaign=campaign)
    upcoming = next((step for step in saga if step.status == "next"), None)
    if upcoming is None:
        raise CampaignError("The party has completed every quest of the saga.")
    if quest_slug is None or quest_slug == upcoming.slug:
        return upcoming.slug
    step = next((step for step in saga if step.slug == quest_slug), None)
    if step is None:
        raise CampaignError("That quest is not part of the campaign's saga.")
    if step.status == "done":
        raise CampaignError(f"The party has already completed “{step.name}”.")
    raise CampaignError(
        f"“{step.name}” is locked: the party must first complete “{upcoming.name}”."
    )


def campaign_room_abandon(*, room: Room, user: User) -> None:
    """Abandon a campaign room that was never launched: the room goes (its seats with it, and
    from the lobby), so another quest can be started."""
    with transaction.atomic():
        link = CampaignRoom.objects.select_related("campaign", "room").filter(room=room).first()
        if link is None or link.campaign.owner_id != user.pk:
            raise CampaignNotFound("There is no such campaign room.")
        if link.room.status != Room.Status.OPEN:
            raise CampaignError("That quest has already been launched.")
        room_id = link.room_id
        link.delete()
        Room.objects.filter(pk=room_id, status=Room.Status.OPEN).delete()
        room_changed(room_id=room_id)  # its open pages and the lobbies look again


def campaign_record_outcome(
    *, room: Room, outcome: str, heroes: dict[str, dict[str, Any]], reward_gold: int
) -> None:
    """Write a finished quest back to the sheets (see the module docstring); once per room.

    `heroes` maps a hero class to its final engine state (status, gold, potions, weapon, armour,
    items, tool_kit, artifacts). `reward_gold` is the reward of the quest as the game launched it
    (an admin may have edited the quest since). Rooms outside any campaign are ignored.
    """
    with transaction.atomic():
        link = (
            CampaignRoom.objects.select_for_update()
            .select_related("campaign", "room__quest")
            .filter(room=room)
            .first()
        )
        if link is None or link.outcome:
            return
        if outcome in OUTCOMES_WRITING_NOTHING:  # recorded (the room is done), sheets untouched
            link.outcome = outcome
            link.save(update_fields=["outcome"])
            return
        campaign = link.campaign
        sheets = {
            s.hero: s
            for s in CharacterSheet.objects.select_for_update()
            .filter(campaign=campaign, fallen=False)
            .order_by("pk")
        }
        seat_users = dict(link.room.seats.values_list("number", "user_id"))
        won = outcome == "heroes"
        survivors = [
            h for h, final in heroes.items() if h in sheets and final.get("status") != "fallen"
        ]
        reward = reward_gold if won else 0
        share = reward // len(survivors) if survivors else 0
        quest = link.room.quest
        for hero, final in heroes.items():
            sheet = sheets.get(hero)
            if sheet is None:
                continue
            player = seat_users.get(seat_of_hero(link.room.seat_count, hero))
            if player is not None:
                sheet.owner_id = player
            before = (sheet.gold, sheet.potions, _wares(sheet))
            if final.get("status") == "fallen":
                sheet.fallen = True
                sheet.save()
                successor = _new_sheet(campaign, hero, sheet.owner)
                _ledger(
                    kind=LedgerEntry.Kind.FALLEN,
                    sheet=sheet,
                    actor=None,
                    gold=-before[0],
                    potions=-before[1],
                    room=link.room,
                    outcome=outcome,
                    quest=quest.name,
                    lost=before[2],
                    successor=successor.name,
                )
                continue
            sheet.gold = int(final.get("gold", 0)) + share
            sheet.potions = int(final.get("potions", 0))
            sheet.weapon = final.get("weapon") or ""
            sheet.armour = list(final.get("armour", []))
            sheet.items = list(final.get("items", []))
            sheet.tool_kit = bool(final.get("tool_kit", False))
            sheet.artifacts = list(final.get("artifacts", []))
            if won and quest.slug not in sheet.quests_completed:
                sheet.quests_completed = [*sheet.quests_completed, quest.slug]
            sheet.save()
            after = _wares(sheet)
            _ledger(
                kind=LedgerEntry.Kind.REWARD,
                sheet=sheet,
                actor=None,
                gold=sheet.gold - before[0],
                potions=sheet.potions - before[1],
                room=link.room,
                outcome=outcome,
                quest=quest.name,
                share=share,
                found=_minus(after, before[2]),
                lost=_minus(before[2], after),
            )
        link.outcome = outcome
        link.save(update_fields=["outcome"])


def _locked_sheets(*pks: int) -> dict[int, CharacterSheet]:
    rows = CharacterSheet.objects.select_for_update().filter(pk__in=pks).order_by("pk")
    return {s.pk: s for s in rows.select_related("campaign")}


def _refuse_during_quest(campaign: Campaign) -> None:
    room = campaign_quest_in_play(campaign)
    if room is not None:
        raise CampaignError(
            f"The party is on a quest (room “{room.name}”): the armory and purses wait until "
            "it ends."
        )


def armory_buy(*, sheet: CharacterSheet, item: str, user: AnyUser) -> CharacterSheet:
    """`user` buys `item` for the hero with the hero's own gold (between quests only).

    A weapon better than the wielded one is wielded (the old one is carried); otherwise it is
    carried. Armour is worn; a tool kit lets the hero disarm traps.
    """
    with transaction.atomic():
        locked = _manage_locked(sheet, user, f"spend {sheet.name}'s gold")
        problem = armory_item_problem(locked, item)
        if problem:
            raise CampaignError(problem)
        price = armory_price(item=item) or 0
        locked.gold -= price
        how = "carried"
        if item in WEAPONS:
            current = WEAPONS.get(locked.weapon)
            if current is None or WEAPONS[item].attack > current.attack:
                if locked.weapon:
                    locked.items = [*locked.items, locked.weapon]
                locked.weapon, how = item, "wielded"
            else:
                locked.items = [*locked.items, item]
        elif item in ARMOUR:
            locked.armour, how = [*locked.armour, item], "worn"
        else:
            locked.tool_kit = True
        locked.save()
        _ledger(
            kind=LedgerEntry.Kind.PURCHASE,
            sheet=locked,
            actor=user,
            item=item,
            gold=-price,
            how=how,
        )
    return locked


def _manage_locked(sheet: CharacterSheet, user: AnyUser, doing: str) -> CharacterSheet:
    """`sheet`'s row, locked, once `user` may act for the hero between quests."""
    locked = _locked_sheets(sheet.pk).get(sheet.pk)
    if locked is None or not campaign_is_member(campaign=locked.campaign, user=user):
        raise CampaignNotFound("There is no such hero.")
    if not sheet_may_manage(sheet=locked, user=user):
        raise CampaignError(f"Only {locked.name}'s player can {doing}.")
    if locked.fallen:
        raise CampaignError(f"{locked.name} has fallen.")
    _refuse_during_quest(locked.campaign)
    return locked


def armory_sell(*, sheet: CharacterSheet, item: str, user: AnyUser) -> int:
    """The armory buys `item` back from the hero at half its price, rounded down (docs/rules.md
    10); returns the gold paid. A carried spare goes before the wielded or worn one; a hero who
    sells the wielded weapon wields the best carried one (or none)."""
    with transaction.atomic():
        locked = _manage_locked(sheet, user, f"sell {sheet.name}'s equipment")
        if sell_price(item=item) is None or item not in owned_items(sheet=locked):
            raise CampaignError(f"{locked.name} has no {item_label(item).lower()} to sell.")
        if item in locked.items:
            locked.items = _without_one(locked.items, item)
        elif item == locked.weapon:
            locked.weapon, locked.items = _best_carried(locked)
        elif item in locked.armour:
            locked.armour = _without_one(locked.armour, item)
        else:
            locked.tool_kit = False
        paid = sell_price(item=item) or 0
        locked.gold += paid
        locked.save()
        _ledger(kind=LedgerEntry.Kind.SALE, sheet=locked, actor=user, item=item, gold=paid)
    return paid


def _without_one(things: list[str], thing: str) -> list[str]:
    out = list(things)
    out.remove(thing)
    return out


def _best_carried(sheet: CharacterSheet) -> tuple[str, list[str]]:
    """The weapon to wield once the wielded one is gone (as the engine's `lose_weapon` does):
    the best usable carried one, a melee weapon before a crossbow; and what is left carried."""
    usable = [
        w
        for w in sheet.items
        if w in WEAPONS and equipment_problem(sheet.hero, w, list(sheet.armour)) is None
    ]
    best = max(usable, key=lambda w: (not WEAPONS[w].ranged, WEAPONS[w].attack), default=None)
    if best is None:
        return "", list(sheet.items)
    return best, _without_one(sheet.items, best)


def sheet_wield(*, sheet: CharacterSheet, weapon: str, user: AnyUser) -> CharacterSheet:
    """The hero wields a carried `weapon` from the next quest on (docs/rules.md 10: the player
    picks); the wielded one is carried instead. The engine attacks with the wielded weapon."""
    with transaction.atomic():
        locked = _manage_locked(sheet, user, f"choose {sheet.name}'s weapon")
        if weapon not in WEAPONS or weapon not in locked.items:
            raise CampaignError(f"{locked.name} carries no {item_label(weapon).lower()}.")
        problem = equipment_problem(locked.hero, weapon, list(locked.armour))
        if problem:
            raise CampaignError(sentence(problem))
        items = _without_one(locked.items, weapon)
        instead_of = locked.weapon
        locked.items = [*items, locked.weapon] if locked.weapon else items
        locked.weapon = weapon
        locked.save(update_fields=["weapon", "items"])
        _ledger(
            kind=LedgerEntry.Kind.WIELD,
            sheet=locked,
            actor=user,
            item=weapon,
            instead_of=instead_of,
        )
    return locked


GIFTS = {"gold": "gold", "potions": "potions of healing"}


def gift_words(field: str, amount: int) -> str:
    """ "25 gold", "1 potion of healing", "2 potions of healing"."""
    if field == "potions" and amount == 1:
        return "1 potion of healing"
    return f"{amount} {GIFTS[field]}"


def _give(
    *,
    field: str,
    from_sheet: CharacterSheet,
    to_sheet: CharacterSheet,
    amount: int,
    user: AnyUser | None,
) -> None:
    """Move `amount` of `field` (gold or potions) from one living hero to another of the same
    campaign, both rows locked, between quests; any bad request changes nothing."""
    what = GIFTS[field]
    if from_sheet.pk == to_sheet.pk:
        raise CampaignError(f"A hero cannot give {what} to themself.")
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise CampaignError(
            f"Give at least 1 of the {what}." if field == "potions" else "Give at least 1 gold."
        )
    with transaction.atomic():
        sheets = _locked_sheets(from_sheet.pk, to_sheet.pk)
        giver, taker = sheets.get(from_sheet.pk), sheets.get(to_sheet.pk)
        if giver is None or taker is None or giver.campaign_id != taker.campaign_id:
            raise CampaignNotFound("There is no such hero in this campaign.")
        if user is not None:
            if not campaign_is_member(campaign=giver.campaign, user=user):
                raise CampaignNotFound("There is no such hero in this campaign.")
            if not sheet_may_manage(sheet=giver, user=user):
                raise CampaignError(f"Only {giver.name}'s player can give {giver.name}'s {what}.")
        for hero in (giver, taker):
            if hero.fallen:
                raise CampaignError(f"{hero.name} has fallen: fallen heroes neither give nor take.")
        _refuse_during_quest(giver.campaign)
        owned = getattr(giver, field)
        if owned < amount:
            raise CampaignError(f"{giver.name} has only {owned} {what}.")
        setattr(giver, field, owned - amount)
        setattr(taker, field, getattr(taker, field) + amount)
        giver.save(update_fields=[field])
        taker.save(update_fields=[field])
        _ledger(
            kind=LedgerEntry.Kind.GIFT,
            sheet=giver,
            to_sheet=taker,
            actor=user,
            gold=-amount if field == "gold" else 0,
            potions=-amount if field == "potions" else 0,
        )


def gold_give(
    *,
    from_sheet: CharacterSheet,
    to_sheet: CharacterSheet,
    amount: int,
    user: AnyUser | None = None,
) -> None:
    """One hero gives gold to another hero of the same campaign (between quests only).

    With `user`, only the giving hero's player (or the campaign's owner) may give.
    """
    _give(field="gold", from_sheet=from_sheet, to_sheet=to_sheet, amount=amount, user=user)


def potions_give(
    *,
    from_sheet: CharacterSheet,
    to_sheet: CharacterSheet,
    count: int,
    user: AnyUser | None = None,
) -> None:
    """One hero gives potions of healing to another, as `gold_give` gives gold."""
    _give(field="potions", from_sheet=from_sheet, to_sheet=to_sheet, amount=count, user=user)


# --- staff's changes -----------------------------------------------------------------------------

LEDGER_FIELDS = ("gold", "potions", "weapon", "armour", "items", "tool_kit", "artifacts")


def sheet_admin_changed(*, sheet: CharacterSheet, before: dict[str, Any], user: AnyUser) -> None:
    """Staff changed `sheet` in the admin (in the admin's transaction, the sheet already saved):
    a ledger entry says what changed in its purse and gear, and who changed it. `before`: the
    sheet's fields as the admin's form found them; nothing changed there, nothing is written."""
    old = CharacterSheet(hero=sheet.hero)
    for field in LEDGER_FIELDS:  # a field the form did not show kept its value
        setattr(old, field, before.get(field, getattr(sheet, field)))
    if all(getattr(old, field) == getattr(sheet, field) for field in LEDGER_FIELDS):
        return
    was, now = _wares(old), _wares(sheet)
    _ledger(
        kind=LedgerEntry.Kind.ADMIN,
        sheet=sheet,
        actor=user,
        gold=sheet.gold - old.gold,
        potions=sheet.potions - old.potions,
        found=_minus(now, was),
        lost=_minus(was, now),
    )
