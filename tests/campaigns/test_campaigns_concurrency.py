"""Simultaneous clicks on PostgreSQL: purchases, sales and gifts lock the sheet rows, so a hero
never spends gold it does not have, and nothing is sold or given twice."""

import threading
from collections.abc import Callable

import pytest
from django.db import connection

from apps.accounts.models import User
from apps.campaigns import errors, services
from apps.campaigns.models import Campaign, CharacterSheet
from apps.play.models import Game
from apps.play.services import game_launch
from apps.rooms.services import room_seat_take
from tests.conftest import make_user

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

THREADS = 8


def race(attempt: Callable[[], object], *others: Callable[[], object]) -> tuple[int, list[str]]:
    """Run `attempt` from THREADS threads (and each of `others` from one more) at the same
    moment, each on its own connection: (how many attempts succeeded, the refusals' messages)."""
    start = threading.Barrier(THREADS + len(others))
    done: list[int] = []
    refusals: list[str] = []

    def run() -> None:
        try:
            start.wait()
            attempt()
            done.append(1)
        except errors.CampaignError as error:
            refusals.append(error.message)
        finally:
            connection.close()

    def run_other(other: Callable[[], object]) -> None:
        try:
            start.wait()
            other()
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(THREADS)]
    threads += [threading.Thread(target=run_other, args=(other,)) for other in others]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(done) + len(refusals) == THREADS  # nothing failed in another way
    return len(done), refusals


def sheet(campaign: Campaign, hero: str) -> CharacterSheet:
    return CharacterSheet.objects.get(campaign=campaign, hero=hero, fallen=False)


def test_eight_clicks_buy_only_what_the_gold_pays_for(
    postgres: None, campaign: Campaign, owner: User
) -> None:
    dwarf = sheet(campaign, "dwarf")
    dwarf.gold = 50  # two daggers' worth
    dwarf.save()

    bought, refusals = race(lambda: services.armory_buy(sheet=dwarf, item="dagger", user=owner))

    dwarf.refresh_from_db()
    assert bought == 2 and dwarf.gold == 0
    assert dwarf.items == ["dagger", "dagger"]
    assert all("has 0 gold" in message for message in refusals), refusals


def test_eight_clicks_sell_one_spare_once(postgres: None, campaign: Campaign, owner: User) -> None:
    dwarf = sheet(campaign, "dwarf")
    dwarf.items = ["handaxe"]
    dwarf.save()

    sold, refusals = race(lambda: services.armory_sell(sheet=dwarf, item="handaxe", user=owner))

    dwarf.refresh_from_db()
    assert sold == 1 and dwarf.gold == 100 and dwarf.items == []
    assert dwarf.weapon == "shortsword"  # the wielded one was never sold for the spare
    assert all("has no handaxe" in message for message in refusals), refusals


def test_eight_gifts_and_purchases_never_overspend(
    postgres: None, campaign: Campaign, owner: User
) -> None:
    dwarf, elf = sheet(campaign, "dwarf"), sheet(campaign, "elf")
    dwarf.gold = 100
    dwarf.save()
    turn = iter(range(THREADS))
    lock = threading.Lock()

    def give_or_buy() -> None:
        with lock:
            n = next(turn)
        if n % 2:
            services.gold_give(from_sheet=dwarf, to_sheet=elf, amount=25, user=owner)
        else:
            services.armory_buy(sheet=dwarf, item="dagger", user=owner)

    done, _ = race(give_or_buy)

    dwarf.refresh_from_db()
    elf.refresh_from_db()
    assert done == 4 and dwarf.gold == 0
    assert elf.gold + 25 * len(dwarf.items) == 100


def test_purchases_racing_the_launch_are_in_the_game_or_refused(
    postgres: None, campaign: Campaign, owner: User
) -> None:
    dwarf = sheet(campaign, "dwarf")
    dwarf.gold = 200  # eight daggers' worth
    dwarf.save()
    room = services.campaign_room_create(campaign=campaign, host=owner, name="Race", seat_count=2)
    room_seat_take(room_id=room.pk, user=owner, number=1)
    room_seat_take(room_id=room.pk, user=make_user(), number=2, invite_code=room.invite_code)

    bought, refusals = race(
        lambda: services.armory_buy(sheet=dwarf, item="dagger", user=owner),
        lambda: game_launch(room_id=room.pk, user=owner, seed=1),
    )

    dwarf.refresh_from_db()
    in_game = Game.objects.get(room=room).options["heroes"]["dwarf"]
    assert (in_game["gold"], in_game["items"]) == (dwarf.gold, dwarf.items)  # nothing lost
    assert dwarf.gold == 200 - 25 * bought
    assert all("on a quest" in message for message in refusals), refusals
