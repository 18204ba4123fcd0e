"""Simultaneous clicks on PostgreSQL: purchases, sales and gifts lock the sheet rows, so a hero
never spends gold it does not have, and nothing is sold or given twice."""

import threading
from collections.abc import Callable

import pytest
from django.db import connection

from apps.accounts.models import User
from apps.campaigns import errors, services
from apps.campaigns.models import Campaign, CharacterSheet

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

THREADS = 8


def race(attempt: Callable[[], object]) -> tuple[int, list[str]]:
    """Run `attempt` from THREADS threads at the same moment, each on its own connection:
    (how many succeeded, the refusals' messages)."""
    start = threading.Barrier(THREADS)
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

    threads = [threading.Thread(target=run) for _ in range(THREADS)]
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
