"""HeroQuest's standing orders (apps/games/heroquest/orders.py), played as the platform plays
them: the next step from the seat's view, the step applied, the seat's views before and after
compared; the first change that matters stops the queue and nothing is played after it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from apps.games.heroquest import GAME
from apps.games.heroquest.engine import MonsterAttack, State, apply, seat_view
from apps.games.heroquest.engine.quest import SpecialTreasure
from apps.games.port import Refusal, StandingOrders

from .engine.builders import build_quest, monster_phase, place, set_turn, start, zargon_turn

assert isinstance(GAME, StandingOrders)
FACE: Any = GAME


def run(state: State, seat: int, orders: dict[str, Any], limit: int = 60) -> dict[str, Any]:
    """Play `orders` for `seat` until they stop or wait: the platform's loop, without a server.
    Movement dice are forced (4 + 4) so walks are certain."""
    played: list[dict[str, Any]] = []
    befores: list[dict[str, Any]] = []
    reason = None
    for _ in range(limit):
        step = FACE.next_order_step(state, seat, orders)
        if step.action is None:
            reason = step.stop_reason
            orders = step.remaining
            break
        before = seat_view(state, seat)
        dice = [4, 4] if step.action["type"] == "roll_movement" else None
        state = apply(state, seat, step.action, dice=dice).state
        played.append(step.action)
        befores.append(before)
        orders = step.remaining
        reason = FACE.order_interruption(before, seat_view(state, seat))
        if reason is not None:
            orders = {}
            break
    return {"state": state, "played": played, "reason": reason, "orders": orders, "views": befores}


def types(result: dict[str, Any]) -> list[str]:
    return [a["type"] for a in result["played"]]


# Room a (the entrance, 6 x 3) with a door east into room b.
def quest(**kw: Any) -> Any:
    return build_quest("aaaaaabbb\naaaaaabbb\naaaaaabbb", doors=[((5, 1), (6, 1))], **kw)


def heroes_turn(q: Any, seats: int = 5) -> State:
    s = start(q, seats=seats)
    place(s, barbarian=(0, 1), dwarf=(0, 0), elf=(0, 2), wizard=(1, 0))
    return set_turn(s, "barbarian")


def door_id(s: State) -> str:
    return seat_view(s, 2)["map"]["doors"][0]["id"]


def test_a_queued_turn_is_played_to_its_end_and_the_turn_passes() -> None:
    s = heroes_turn(quest())
    s.deck = ["nothing"] * 24
    orders = {"heroes": {"barbarian": {"to": [4, 1], "door": None, "act": "search_treasure"}}}
    assert FACE.order_problems(s, 2, orders) == []
    result = run(s, 2, orders)
    assert types(result) == ["roll_movement", *["move"] * 4, "search_treasure", "end_turn"]
    assert result["reason"] is None and result["orders"] == {}
    end = result["state"]
    assert end.heroes["barbarian"].position == (4, 1) and end.turn.hero == "dwarf"
    # The dwarf's seat (3) has no orders: nothing more is played for seat 2.
    assert FACE.next_order_step(end, 2, {}).action is None


def test_end_the_turn_where_i_stand() -> None:
    s = heroes_turn(quest())
    result = run(s, 2, {"heroes": {"barbarian": {"to": None, "door": None, "act": "end_turn"}}})
    assert types(result) == ["end_turn"] and result["state"].turn.hero == "dwarf"


def test_a_queue_waits_for_its_heros_turn() -> None:
    s = set_turn(heroes_turn(quest()), "dwarf")
    step = FACE.next_order_step(s, 2, {"heroes": {"barbarian": {"act": "end_turn"}}})
    assert step.action is None and step.stop_reason is None
    assert step.remaining == {"heroes": {"barbarian": {"act": "end_turn"}}}


def test_a_walk_short_of_its_square_ends_the_turn_where_the_hero_stands() -> None:
    s = heroes_turn(quest())
    s = set_turn(s, "barbarian", movement=2)
    result = run(s, 2, {"heroes": {"barbarian": {"to": [5, 1], "door": None, "act": "end_turn"}}})
    assert types(result) == ["move", "move", "end_turn"] and result["reason"] is None
    assert result["state"].heroes["barbarian"].position == (2, 1)


def test_a_door_that_reveals_a_room_stops_the_queue_after_opening_it() -> None:
    s = heroes_turn(quest())
    d = door_id(s)
    orders = {"heroes": {"barbarian": {"to": [5, 1], "door": d, "act": "search_treasure"}}}
    result = run(s, 2, orders)
    assert types(result) == ["roll_movement", *["move"] * 5, "open_door"]
    assert result["reason"] == "A room was revealed: Area b."
    assert result["state"].turn.hero == "barbarian"  # the rest of the turn is the player's
    assert result["orders"] == {}


def test_a_revealed_monster_stops_the_queue() -> None:
    s = heroes_turn(quest(monsters=[("orc", (8, 1))]))
    orders = {"heroes": {"barbarian": {"to": [5, 1], "door": door_id(s), "act": "end_turn"}}}
    result = run(s, 2, orders)
    assert types(result)[-1] == "open_door"
    assert result["reason"] == "A monster was revealed: the orc."


def test_a_sprung_trap_stops_the_queue() -> None:
    s = heroes_turn(quest(traps=[("pit", (3, 1))]))
    result = run(s, 2, {"heroes": {"barbarian": {"to": [5, 1], "door": None, "act": "end_turn"}}})
    assert types(result) == ["roll_movement", "move", "move", "move"]
    assert result["reason"] == "A pit trap was sprung."
    assert result["state"].heroes["barbarian"].position == (3, 1)


def test_lost_body_stops_the_queue() -> None:
    s = heroes_turn(quest())
    s.deck = ["hazard", *s.deck]
    orders = {"heroes": {"barbarian": {"to": None, "door": None, "act": "search_treasure"}}}
    result = run(s, 2, orders)
    assert types(result) == ["search_treasure"]
    assert result["reason"] == "The Barbarian lost Body."


# An L-shaped room: the monster round the corner is revealed (the room is) but out of sight.
L_ROOM = "aaaa\n...a\n...a\n...a"


def test_a_monster_coming_into_sight_stops_the_queue() -> None:
    q = build_quest(L_ROOM, monsters=[("goblin", (3, 3))])
    s = start(q, seats=5)
    place(s, barbarian=(0, 0), dwarf=(1, 0), elf=None, wizard=None)
    s = set_turn(s, "barbarian", movement=8)
    s.monsters[q.monsters[0].id].pub = "m1"  # revealed, as the room is
    assert seat_view(s, 2)["monsters"][0]["in_sight_of"] == []
    s = place(s, dwarf=None)
    result = run(s, 2, {"heroes": {"barbarian": {"to": [3, 0], "door": None, "act": "end_turn"}}})
    assert result["reason"] == "The Barbarian sees the goblin."
    assert types(result) == ["move"] * len(result["played"]) and result["played"]
    assert result["state"].turn.hero == "barbarian"


def test_a_queue_never_starts_with_a_monster_in_sight() -> None:
    q = build_quest("aaaaaa\naaaaaa", monsters=[("orc", (5, 1))])
    s = set_turn(place(start(q, seats=5), dwarf=None, elf=None, wizard=None), "barbarian")
    step = FACE.next_order_step(s, 2, {"heroes": {"barbarian": {"act": "end_turn"}}})
    assert step.action is None and step.stop_reason == (
        "The Barbarian sees the orc: the rest of the turn is yours."
    )


def test_problems_are_judged_on_what_the_seat_sees() -> None:
    s = heroes_turn(quest())
    problems = FACE.order_problems(
        s, 2, {"heroes": {"barbarian": {"to": [7, 1], "door": "d9", "act": "dance"}}}
    )
    assert any("'act' must be" in p for p in problems)
    assert any("[7, 1] is not a square your heroes have seen" in p for p in problems)
    assert FACE.order_problems(s, 2, {"heroes": {"elf": {"act": "end_turn"}}}) == [
        "'elf' is not one of your heroes."
    ]
    d = door_id(s)
    assert FACE.order_problems(s, 2, {"heroes": {"barbarian": {"to": [4, 1], "door": d}}}) == [
        f"The Barbarian: door {d} does not touch [4, 1]."
    ]


# --- a queue never depends on hidden information ---------------------------------------------

TWINS: dict[str, dict[str, Any]] = {
    "empty": {},
    "monster": {"monsters": [("orc", (7, 1))]},
    "trap in b": {"traps": [("pit", (7, 1))]},
    "trap on the way": {"traps": [("pit", (3, 1))]},
    "furniture": {"furniture": [("table", [(7, 0)])]},
    "secret door": {"secret_doors": [((5, 0), (6, 0))]},
    "special": {"special": {"b": SpecialTreasure("b", "Crown", "Shiny.")}},
}


def twin(name: str) -> State:
    kw = dict(TWINS[name])
    rows = "aaaaaabbb\naaaaaabbb\naaaaaabbb"
    s = start(build_quest(rows, doors=[((5, 1), (6, 1))], **kw), seats=5)
    place(s, barbarian=(0, 1), dwarf=(0, 0), elf=(0, 2), wizard=(1, 0))
    return set_turn(s, "barbarian")


def canonical(view: dict[str, Any]) -> str:
    return json.dumps(view, sort_keys=True)


@pytest.mark.parametrize(
    "plan",
    [
        {"to": [5, 1], "door": "d1", "act": "search_treasure"},
        {"to": [4, 2], "door": None, "act": "search_secret_doors"},
        {"to": [5, 1], "door": None, "act": "search_traps"},
    ],
)
def test_twins_that_differ_only_in_hidden_things_play_the_same_steps_until_the_view_differs(
    plan: dict[str, Any],
) -> None:
    runs = {}
    for name in TWINS:
        s = twin(name)
        s.deck = ["nothing"] * 24
        runs[name] = run(s, 2, {"heroes": {"barbarian": plan}})
    base = runs["empty"]
    for name, result in runs.items():
        views = [canonical(v) for v in result["views"]]
        base_views = [canonical(v) for v in base["views"]]
        same = 0
        while same < min(len(views), len(base_views)) and views[same] == base_views[same]:
            same += 1
        # Every step chosen from an identical view is the identical step.
        assert result["played"][:same] == base["played"][:same], name
        if same < len(base_views):  # the views part: the step before showed something new
            assert same > 0 and (name != "empty")
    # What the heroes never find out changes nothing at all.
    for name in ("furniture", "secret door", "special", "trap in b"):
        if plan["door"] is None:
            assert runs[name]["played"] == base["played"], name
            assert runs[name]["reason"] == base["reason"], name


# --- Zargon -----------------------------------------------------------------------------------

OPEN = "aaaaaaaaaaaa\naaaaaaaaaaaa"


def zargon_with(monster_at: tuple[int, int], wall_between: bool = False) -> State:
    q = build_quest(
        "aaaaa.bbbbbb\naaaaa.bbbbbb" if wall_between else OPEN,
        monsters=[("zombie", monster_at)],
    )
    s = start(q, seats=2)
    place(s, barbarian=(0, 0), dwarf=None, elf=None, wizard=None)
    s.monsters[q.monsters[0].id].pub = "m1"
    return zargon_turn(s)


def test_idle_monsters_end_zargons_phase_by_themselves() -> None:
    s = zargon_with((11, 1), wall_between=True)  # a zombie (Move 5) far behind a wall
    step = FACE.next_order_step(s, 1, {"idle_ends_phase": True})
    assert step.action == {"type": "end_phase"} and step.remaining == {"idle_ends_phase": True}


def test_a_monster_that_sees_or_reaches_a_hero_leaves_the_phase_to_zargon() -> None:
    s = zargon_with((11, 1))  # in the same open room: it sees the Barbarian
    step = FACE.next_order_step(s, 1, {"idle_ends_phase": True})
    assert step.action is None and step.stop_reason is None


def test_the_ai_plays_one_phase_then_the_order_is_spent() -> None:
    s = zargon_with((3, 0))
    orders: dict[str, Any] = {"ai": "phase"}
    seen = []
    for _ in range(20):
        step = FACE.next_order_step(s, 1, orders)
        if step.action is None:
            break
        seen.append(step.action["type"])
        s = apply(s, 1, step.action, dice=["skull"] * 10).state
        orders = step.remaining
    assert seen[-1] == "end_phase" and "monster_attack" in seen
    assert orders == {}
    assert FACE.order_problems(s, 1, {"ai": "often"}) == ['ai must be "phase", "always" or null.']


def test_orders_in_words() -> None:
    s = heroes_turn(quest())
    lines = FACE.order_lines(
        s, 2, {"heroes": {"barbarian": {"to": [4, 1], "door": "d1", "act": "search_traps"}}}
    )
    assert lines == [
        "The Barbarian: walk to 4,1, then open door d1, then search for traps, then end the turn."
    ]
    assert FACE.order_lines(s, 1, {"idle_ends_phase": True, "ai": "always"})[1] == (
        "The monster AI plays every phase until you revoke it."
    )


def test_twins_part_only_where_the_heroes_find_something_out() -> None:
    plan = {"to": [5, 1], "door": "d1", "act": "search_treasure"}
    runs = {name: run(twin(name), 2, {"heroes": {"barbarian": plan}}) for name in TWINS}
    walk = ["roll_movement", *["move"] * 5, "open_door"]
    for name in ("empty", "furniture", "secret door", "special", "trap in b"):
        assert types(runs[name]) == walk, name
        assert runs[name]["reason"] == "A room was revealed: Area b.", name
    assert types(runs["monster"]) == walk
    assert runs["monster"]["reason"] == "A monster was revealed: the orc."
    # The hidden pit is found by stepping on it: the same steps up to it, then the queue stops.
    assert types(runs["trap on the way"]) == walk[:4]
    assert runs["trap on the way"]["played"] == runs["empty"]["played"][:4]
    assert runs["trap on the way"]["reason"] == "A pit trap was sprung."


# --- the standing rule "drink a healing potion at Body N or less" -------------------------------


def test_a_hero_drinks_at_the_body_its_player_chose() -> None:
    s = monster_phase([("orc", (1, 0))])
    s.monsters[next(iter(s.monsters))].pub = "m1"
    s = FACE.with_settings(s, {"barbarian": {"drink_at": 3}})
    hero = s.heroes["barbarian"]
    hero.body, hero.potions = 5, 1
    attack = MonsterAttack("m1", "barbarian")
    t = apply(
        s, 1, attack, dice=["skull", "skull", "black_shield", "black_shield", "black_shield", 4]
    )
    after = t.state.heroes["barbarian"]
    assert after.potions == 0 and after.body == 7
    assert "drinks a healing potion at 3 Body, as ordered" in " ".join(e["text"] for e in t.events)
    # Without the rule the same blow leaves him at 3 Body with his potion.
    plain = FACE.with_settings(s, {"barbarian": {"drink_at": 0}})
    t = apply(
        plain, 1, attack, dice=["skull", "skull", "black_shield", "black_shield", "black_shield"]
    )
    assert t.state.heroes["barbarian"].body == 3 and t.state.heroes["barbarian"].potions == 1


def test_the_drink_at_rule_is_a_private_setting() -> None:
    s = heroes_turn(quest())
    setting = FACE.setting_of(s, 2, {"type": "set_drink_at", "hero": "barbarian", "body": 2})
    assert (setting.owner, setting.name, setting.value) == ("barbarian", "drink_at", 2)
    view = seat_view(FACE.with_settings(s, {"barbarian": {"drink_at": 2}}), 2)
    mine = next(h for h in view["heroes"] if h["hero"] == "barbarian")
    assert mine["drink_at"] == 2
    others = seat_view(FACE.with_settings(s, {"barbarian": {"drink_at": 2}}), 3)
    assert "drink_at" not in next(h for h in others["heroes"] if h["hero"] == "barbarian")


# --- the standing rule "on a timeout, end my turn in place" (or search first) ------------------


def test_on_a_timeout_a_hero_ends_its_turn_in_place_or_searches_first_as_its_player_set() -> None:
    s = heroes_turn(quest())
    s.deck = ["nothing"] * 24
    end = {"type": "end_turn", "hero": "barbarian"}
    assert FACE.timeout_action(s, 2) == end  # the published default: in place
    rule = {"type": "set_on_timeout", "hero": "barbarian", "act": "search_treasure"}
    setting = FACE.setting_of(s, 2, rule)
    assert (setting.owner, setting.name, setting.value) == (
        "barbarian",
        "on_timeout",
        "search_treasure",
    )
    ruled = FACE.with_settings(s, {"barbarian": {"on_timeout": "search_treasure"}})
    search = FACE.timeout_action(ruled, 2)
    assert search == {"type": "search_treasure", "hero": "barbarian"}
    after = apply(ruled, 2, search).state
    assert FACE.timeout_action(after, 2) == end  # searched: then the turn ends
    # A rule for a search the hero may not make now (a monster in sight) ends the turn in place.
    q = build_quest("aaaaaa\naaaaaa", monsters=[("orc", (5, 1))])
    seen = set_turn(place(start(q, seats=5), dwarf=None, elf=None, wizard=None), "barbarian")
    seen = FACE.with_settings(seen, {"barbarian": {"on_timeout": "search_traps"}})
    assert FACE.timeout_action(seen, 2) == end
    # The rule is the owner's alone, and only its choices are taken.
    assert seat_view(ruled, 2)["heroes"][0]["on_timeout"] == "search_treasure"
    assert "on_timeout" not in seat_view(ruled, 3)["heroes"][0]
    with pytest.raises(Refusal):
        FACE.setting_of(s, 2, {**rule, "act": "dance"})
    with pytest.raises(Refusal):
        FACE.setting_of(s, 3, rule)  # another seat's hero
