"""docs/rules.md section 1: seats and heroes."""

import pytest

from apps.games.heroquest.engine import (
    IllegalAction,
    RollMovement,
    apply,
    legal_actions,
    new_game,
    seat_view,
)
from apps.games.heroquest.engine.data import heroes_of_seat

from .builders import build_quest, start

ROOM = """
aaaa
aaaa
"""


@pytest.mark.parametrize(
    ("seats", "expected"),
    [
        (2, {2: ("barbarian", "dwarf", "elf", "wizard")}),
        (3, {2: ("barbarian", "dwarf"), 3: ("elf", "wizard")}),
        (4, {2: ("barbarian", "dwarf"), 3: ("elf",), 4: ("wizard",)}),
        (5, {2: ("barbarian",), 3: ("dwarf",), 4: ("elf",), 5: ("wizard",)}),
    ],
)
def test_hero_seats_share_the_heroes_in_contiguous_blocks(seats, expected):
    assert {seat: heroes_of_seat(seats, seat) for seat in range(2, seats + 1)} == expected
    assert heroes_of_seat(seats, 1) == ()


@pytest.mark.parametrize("seats", [1, 6])
def test_a_quest_needs_two_to_five_seats(seats):
    with pytest.raises(ValueError):
        new_game(build_quest(ROOM), seats, 1)


def test_heroes_start_with_their_table_stats_and_weapons():
    s = start(build_quest(ROOM))
    stats = {h: (x.body, x.mind, x.weapon) for h, x in s.heroes.items()}
    assert stats == {
        "barbarian": (8, 2, "broadsword"),
        "dwarf": (7, 3, "shortsword"),
        "elf": (6, 4, "shortsword"),
        "wizard": (4, 6, "dagger"),
    }
    view = seat_view(s, 2)
    attack = {h["hero"]: (h["attack"], h["defend"]) for h in view["heroes"]}
    assert attack == {"barbarian": (3, 2), "dwarf": (2, 2), "elf": (2, 2), "wizard": (1, 2)}


def test_elf_holds_earth_spells_and_wizard_air_fire_water():
    s = start(build_quest(ROOM))
    assert sorted(s.heroes["elf"].spells) == ["heal_body", "pass_through_rock", "rock_skin"]
    assert len(s.heroes["wizard"].spells) == 9
    assert "heal_body" not in s.heroes["wizard"].spells


def test_only_the_seat_owning_a_hero_may_act_for_it():
    s = start(build_quest(ROOM), seats=5)
    assert legal_actions(s, 3) == []
    with pytest.raises(IllegalAction, match="do not control"):
        apply(s, 3, RollMovement("barbarian"))
    assert legal_actions(s, 2)


def test_zargon_cannot_act_for_a_hero():
    s = start(build_quest(ROOM))
    with pytest.raises(IllegalAction):
        apply(s, 1, RollMovement("barbarian"))


def test_campaign_heroes_bring_their_equipment():
    s = start(
        build_quest(ROOM),
        heroes={
            "barbarian": {
                "weapon": "longsword",
                "armour": ["helmet", "plate_mail"],
                "tool_kit": True,
                "potions": 2,
            }
        },
    )
    b = s.heroes["barbarian"]
    assert (b.weapon, b.armour, b.tool_kit, b.potions) == (
        "longsword",
        ["helmet", "plate_mail"],
        True,
        2,
    )
    view = seat_view(s, 2)
    barb = next(h for h in view["heroes"] if h["hero"] == "barbarian")
    assert barb["defend"] == 2 + 1 + 2


def test_the_wizard_cannot_wear_plate_mail():
    with pytest.raises(ValueError, match="Wizard"):
        start(build_quest(ROOM), heroes={"wizard": {"armour": ["plate_mail"]}})
