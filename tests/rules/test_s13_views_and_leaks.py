"""rules.md section 13: what each seat may see. Also random-playout leak checks."""

import random

import pytest

from apps.rules import CastSpell, apply, event_for_seat, load_quest, seat_view
from apps.rules.playout import random_playout
from apps.rules.quest import SpecialTreasure

from .builders import build_quest, start
from .leakcheck import assert_event_clean, assert_hero_view_clean

QUEST = build_quest("""
aaaaPPPPbbbb
aaaa....bbbb
aaaaQQQQbbbb
""", doors=[((3, 0), (4, 0)), ((7, 0), (8, 0))], secret_doors=[((3, 2), (4, 2))],
    monsters=[("orc", (10, 1)), ("goblin", (9, 2))], traps=[("pit", (6, 0))],
    villain=0, special={"b": SpecialTreasure("b", "Crown", "Shiny.")})


def test_hero_seats_see_only_the_revealed_map_and_monsters():
    s = start(QUEST, seats=3)
    view = seat_view(s, 2)
    assert view["role"] == "hero" and view["heroes_owned"] == ["barbarian", "dwarf"]
    assert view["monsters"] == [] and view["map"]["traps"] == []
    assert [d["id"] for d in view["map"]["doors"]] == ["d1"]
    assert "notes" not in view["quest"]
    assert_hero_view_clean(s, 2, view)


def test_zargon_sees_everything_with_flags_but_no_hero_inventories():
    s = start(QUEST, seats=3)
    view = seat_view(s, 1)
    assert view["role"] == "zargon" and view["quest"]["notes"] == "Secret notes."
    assert {m["revealed"] for m in view["monsters"]} == {False}
    assert all(m["id"].startswith("z-") for m in view["monsters"])
    assert [(t["kind"], t["detected"]) for t in view["map"]["traps"]] == [("pit", False)]
    assert any(d["secret"] and not d["found"] for d in view["map"]["doors"])
    assert view["quest"]["special_treasures"][0]["name"] == "Crown"
    assert all("spells" not in h for h in view["heroes"])


def test_only_the_owner_sees_a_heros_spells_and_inventory():
    s = start(QUEST, seats=3)
    mine = {h["hero"]: h for h in seat_view(s, 3)["heroes"]}
    assert "spells" in mine["wizard"] and "spells" not in mine["barbarian"]


def test_the_view_lists_legal_actions_as_json_for_the_seat_to_move():
    s = start(QUEST, seats=3)
    assert {"type": "roll_movement", "hero": "barbarian"} in seat_view(s, 2)["legal_actions"]
    assert seat_view(s, 3)["legal_actions"] == []


def test_view_log_resolves_events_for_the_seat():
    s = start(QUEST, seats=3)
    assert [e["type"] for e in seat_view(s, 2)["log"]][:1] == ["quest_start"]
    assert all("audience" not in e for e in seat_view(s, 2)["log"])


def test_spell_effects_are_public_but_spell_lists_private():
    s = start(QUEST, seats=3)
    s.turn.hero = "wizard"

    s = apply(s, 3, CastSpell("wizard", "courage", "wizard")).state
    wizard = next(h for h in seat_view(s, 1)["heroes"] if h["hero"] == "wizard")
    assert wizard["effects"] == ["courage"] and "spells" not in wizard


def check_playout_for_leaks(quest, seats, seed, max_actions):
    def on_step(before, seat, action, transition):
        after = transition.state
        for hero_seat in range(2, after.seats + 1):
            assert_hero_view_clean(after, hero_seat, seat_view(after, hero_seat))
            for event in transition.events:
                assert_event_clean(after, hero_seat, event_for_seat(event, hero_seat))

    random_playout(quest, seats, seed, max_actions=max_actions, on_step=on_step,
                   chooser=random.Random(seed))


@pytest.mark.parametrize("seed", range(8))
def test_no_hero_seat_ever_sees_hidden_things_in_random_playouts(seed):
    check_playout_for_leaks(QUEST, 2 + seed % 4, seed, 300)


@pytest.mark.parametrize("seed", range(3))
def test_no_leaks_in_random_ashen_vault_playouts(seed):
    check_playout_for_leaks(load_quest("ashen_vault"), 2 + seed % 4, seed, 400)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(30))
def test_no_leaks_in_long_ashen_vault_playouts(seed):
    check_playout_for_leaks(load_quest("ashen_vault"), 2 + seed % 4, 100 + seed, 3000)
