"""docs/rules.md section 10: the armory's items, prices and what each does."""

import pytest

from apps.games.heroquest.engine.data import ARMOUR, TOOL_KIT_PRICE, WEAPONS, item_effect

# Item, price, effect as a player reads it: the docs/rules.md section 10 table.
ARMORY_TABLE = [
    ("dagger", 25, "1 attack die; may be thrown"),
    ("staff", 100, "1 attack die; attacks diagonally; two-handed"),
    ("shortsword", 150, "2 attack dice; not for the Wizard"),
    ("spear", 150, "2 attack dice; attacks diagonally; may be thrown; not for the Wizard"),
    ("handaxe", 200, "2 attack dice; may be thrown; not for the Wizard"),
    ("broadsword", 250, "3 attack dice; not for the Wizard"),
    ("longsword", 350, "3 attack dice; attacks diagonally; not for the Wizard"),
    ("crossbow", 350, "3 attack dice; at a visible monster not adjacent; not for the Wizard"),
    ("battle_axe", 450, "4 attack dice; two-handed; not for the Wizard"),
    ("helmet", 125, "+1 defend; not for the Wizard"),
    ("shield", 150, "+1 defend; not with two-handed weapons; not for the Wizard"),
    ("bracers", 220, "+1 defend"),
    ("chain_mail", 500, "+1 defend; not for the Wizard"),
    ("plate_mail", 850, "+2 defend; movement rolls one die; not for the Wizard"),
    ("tool_kit", 250, "lets a hero disarm traps"),
]


@pytest.mark.parametrize(("item", "price", "effect"), ARMORY_TABLE)
def test_every_armory_item_has_the_rules_price_and_says_what_it_does(
    item: str, price: int, effect: str
) -> None:
    prices = {**{k: w.price for k, w in WEAPONS.items()}, **{k: a.price for k, a in ARMOUR.items()}}
    prices["tool_kit"] = TOOL_KIT_PRICE

    assert prices[item] == price
    assert item_effect(item) == effect


def test_the_armory_sells_nothing_beyond_the_rules_table() -> None:
    assert {*WEAPONS, *ARMOUR, "tool_kit"} == {item for item, _, _ in ARMORY_TABLE}
