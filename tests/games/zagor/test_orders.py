"""Legend of Zagor's standing orders (apps/games/zagor/orders.py), played as the platform plays
them: the next step from the seat's view, the step applied, the seat's views before and after
compared; the first change that matters stops the orders and nothing is played after it."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from apps.games.port import StandingOrders
from apps.games.zagor import GAME
from apps.games.zagor.board import board
from apps.games.zagor.engine import apply
from apps.games.zagor.state import State
from apps.games.zagor.views import seat_view

from .builders import NO_COMMAND, clear_tiles, fight, game, lay, put, turn_to

assert isinstance(GAME, StandingOrders)
FACE: Any = GAME


def run(state: State, seat: int, orders: dict[str, Any], limit: int = 20) -> dict[str, Any]:
    """Play `orders` for `seat` until they stop or wait: the platform's loop, without a server."""
    played: list[dict[str, Any]] = []
    views: list[dict[str, Any]] = []
    reason = None
    for _ in range(limit):
        step = FACE.next_order_step(state, seat, orders)
        if step.action is None:
            reason = step.stop_reason
            orders = step.remaining
            break
        before = seat_view(state, seat)
        quiet = NO_COMMAND if step.action["type"] == "end_turn" else None  # the voice is still
        state = apply(state, seat, step.action, forced=quiet).state
        played.append(step.action)
        views.append(before)
        orders = step.remaining
        reason = FACE.order_interruption(before, seat_view(state, seat))
        if reason is not None:
            orders = {}
            break
    return {"state": state, "played": played, "reason": reason, "orders": orders, "views": views}


def moves(result: dict[str, Any]) -> list[str]:
    return [a["to"] if a["type"] == "move" else a["type"] for a in result["played"]]


def anvar_at(space: str, heroes: int = 2) -> State:
    """Anvar's turn (not the first: the Store is shut), on `space`, no tile on the board."""
    s = clear_tiles(turn_to(game(heroes=heroes), "barbarian"))
    return put(s, "barbarian", space)


def test_a_queued_turn_is_played_to_its_end_and_the_turn_passes() -> None:
    s = anvar_at("s1")
    orders = {"to": "a2", "from": "s1"}
    assert FACE.order_problems(s, 1, orders) == []
    result = run(s, 1, orders)
    assert moves(result) == ["a2", "end_turn"]
    assert result["reason"] is None and result["orders"] == {}
    end = result["state"]
    assert end.heroes["barbarian"].space == "a2" and end.turn.hero == "dwarf"
    # Stubble's seat (2) has no orders, and seat 1's are spent: nothing more is played.
    assert FACE.next_order_step(end, 1, {}).action is None


def test_end_the_turn_where_i_stand() -> None:
    result = run(anvar_at("s1"), 1, {"to": None})
    assert moves(result) == ["end_turn"] and result["state"].turn.hero == "dwarf"


def test_orders_wait_for_their_heros_turn() -> None:
    s = turn_to(anvar_at("s1"), "dwarf")
    step = FACE.next_order_step(s, 1, {"to": "a2"})
    assert step.action is None and step.stop_reason is None and step.remaining == {"to": "a2"}


def test_a_walk_longer_than_a_move_goes_as_far_as_the_move_reaches_then_ends_the_turn() -> None:
    result = run(anvar_at("s1"), 1, {"to": "a12", "from": "s1"})  # s1 a5 a7 a10 a11 a12
    assert moves(result) == ["a7", "end_turn"] and result["reason"] is None
    assert result["state"].heroes["barbarian"].space == "a7"


def test_a_scouts_extra_move_is_walked_on_toward_the_space() -> None:
    s = lay(anvar_at("s1"), "a7", "Scout", revealed=True)
    result = run(s, 1, {"to": "a12"})
    assert moves(result) == ["a7", "a11", "end_turn"] and result["reason"] is None


def test_a_walk_steps_round_a_face_up_tile_that_would_hurt_again() -> None:
    s = lay(anvar_at("a10"), "a12", "Giant Rats", revealed=True)
    result = run(s, 1, {"to": "store"})  # a10 a11 a12 a13 store: a12 is two away, a11 one
    assert moves(result) == ["a11", "end_turn"] and result["reason"] is None


def test_a_walk_never_enters_a_room_it_was_not_sent_to() -> None:
    # c1 c2 cave c3: the Dragon's Cave is the only way on, and a fight; only a player sends
    # his hero in there.
    s = anvar_at("c1")
    assert s.levels == [1, 2, 3]
    result = run(s, 1, {"to": "c3"})
    assert moves(result) == ["c2", "end_turn"]
    assert moves(run(result["state"], 1, {"to": "c3"})) == []  # Stubble's turn: it waits
    again = turn_to(result["state"], "barbarian")
    assert moves(run(again, 1, {"to": "c3"})) == ["end_turn"]
    assert moves(run(again, 1, {"to": "cave"})) == ["cave"]  # sent there: the fight stops it


# --- what stops them ---------------------------------------------------------------------------


def test_a_tile_turned_up_stops_the_orders_after_the_move() -> None:
    s = lay(anvar_at("s1"), "a2", "Sorcerer")
    result = run(s, 1, {"to": "a2", "from": "s1"})
    assert moves(result) == ["a2"]
    assert result["reason"] == "A tile was turned up: Sorcerer."
    assert result["state"].turn.hero == "barbarian"  # the rest of the turn is the player's
    assert result["orders"] == {}


def test_a_tile_turned_up_and_used_up_at_once_stops_the_orders_too() -> None:
    s = lay(anvar_at("s1"), "a2", "Leather Pouch")
    result = run(s, 1, {"to": "a2", "from": "s1"})
    assert moves(result) == ["a2"]
    assert result["reason"] == "A tile was turned up on corridor c1 and used up."  # a2, as shown


def test_a_monster_met_stops_the_orders() -> None:
    s = anvar_at("a1")
    s.rooms["r11"].monster = "Orc"
    result = run(s, 1, {"to": "r11"})
    assert moves(result) == ["r11"] and result["reason"] == "Anvar meets Orc."
    assert result["state"].fight is not None and result["state"].turn.hero == "barbarian"


def test_a_corridor_monster_turned_up_stops_the_orders_as_a_fight() -> None:
    s = game(heroes=2)
    s.levels = [1, 2]
    s = put(lay(clear_tiles(turn_to(s, "barbarian")), "b3", "Giant Spider"), "barbarian", "b2")
    result = run(s, 1, {"to": "b3"})
    assert moves(result) == ["b3"] and result["reason"] == "Anvar meets the Giant Spider."


def test_a_hero_hurt_stops_the_orders() -> None:
    s = lay(anvar_at("s1"), "a2", "Giant Rats", revealed=True)  # sent onto it: he knows
    result = run(s, 1, {"to": "a2"})
    assert moves(result) == ["a2"] and result["reason"] == "Anvar lost Stamina."


def test_a_hero_carried_off_stops_the_orders() -> None:
    s = lay(anvar_at("s1"), "a2", "Teleport", revealed=True)
    result = run(s, 1, {"to": "a2"})
    assert moves(result) == ["a2"]
    where = board().spaces[result["state"].heroes["barbarian"].space]
    assert where.id != "a2" and where.kind == "corridor"
    label = f"{chr(97 + where.x)}{where.y + 1}"  # the page's name of the square
    assert result["reason"] == f"Anvar was carried off to corridor {label}."


def test_gold_lost_stops_the_orders() -> None:
    s = lay(anvar_at("s1"), "a2", "Guard", revealed=True)
    result = run(s, 1, {"to": "a2"})
    assert moves(result) == ["a2"] and result["reason"] == "Anvar lost gold."


def test_orders_never_start_in_a_fight() -> None:
    s = fight(anvar_at("r11"))
    result = run(s, 1, {"to": None})
    assert result["played"] == []
    assert result["reason"] == "Anvar is fighting Orc: the rest of the turn is yours."


def test_orders_stop_before_the_first_step_if_the_hero_was_carried_off_meanwhile() -> None:
    s = anvar_at("s1")
    orders = {"to": "a2", "from": "s1"}
    assert FACE.order_problems(s, 1, orders) == []
    put(s, "barbarian", "a5")  # a Whirlwind, in another hero's turn
    result = run(s, 1, orders)
    assert result["played"] == []
    assert result["reason"] == "Anvar is no longer where you queued the orders (now: corridor a2)."


def test_problems_are_judged_on_what_the_seat_sees() -> None:
    s = anvar_at("s1")
    assert FACE.order_problems(s, 1, {"to": "x9"}) == ["'x9' is not a space of this tale's board."]
    assert FACE.order_problems(s, 1, {"to": "a2", "from": "a5"}) == [
        "Anvar no longer stands where you queued these orders: look at the board again."
    ]
    assert FACE.order_problems(s, 1, {"go": "a2"}) == ["Unknown order field(s): go."]
    assert FACE.order_problems(s, 0, {"to": None}) == ["Only a player's seat gives orders."]
    put(s, "dwarf", "r11")
    assert FACE.order_problems(s, 1, {"to": "r11"}) == ["No way leads Anvar to Guard Room now."]


def test_orders_in_words() -> None:
    s = anvar_at("s1")
    assert FACE.order_lines(s, 1, {"to": "a2"}) == [
        "Anvar: walk toward corridor c1, then end the turn."  # as the page names the square
    ]
    assert FACE.order_lines(s, 1, {"to": "b3"}) == [
        "Anvar: walk toward corridor e1 (level 2), then end the turn."
    ]
    assert FACE.order_lines(s, 1, {"to": "store"}) == [
        "Anvar: walk toward the Dungeon Store, then end the turn."
    ]
    assert FACE.order_lines(s, 1, {"to": None}) == ["Anvar: end the turn where he stands."]
    assert FACE.order_lines(s, 1, {}) == []


def test_a_recap_sums_walks_up_and_keeps_what_mattered() -> None:
    entries = [
        {"type": "turn", "text": "Round 2: Anvar's turn.", "hero": "barbarian"},
        {"type": "move", "text": "Anvar moves to a corridor.", "hero": "barbarian", "path": ["a1"]},
        {"type": "move", "text": "...", "hero": "barbarian", "path": ["a2", "a3"]},
        {"type": "tile", "text": "Anvar turns up Axe: take an Axe.", "hero": "barbarian"},
        {"type": "rest", "text": "Anvar rests: +1 Stamina.", "hero": "barbarian"},
        {"type": "voice", "text": "Zagor: Stubble, a monster hunts you."},
        {"type": "voice", "text": "Zagor: Orc attacks with 2: a miss.", "dice": [{"kind": "d10"}]},
    ]
    assert FACE.recap_lines(entries) == [
        "Anvar moved 3 spaces.",
        "Anvar turns up Axe: take an Axe.",
        "Zagor: Stubble, a monster hunts you.",
    ]


# --- the orders never depend on hidden information --------------------------------------------


def hidden_twin(s: State, seed: int) -> State:
    """`s` with everything the first seat cannot see shuffled: the faces of the face-down tiles
    (within each level), the spell deck, the chests' contents and the other heroes' hands."""
    twin = s.copy()
    rnd = random.Random(seed)
    known = set(twin.heroes["barbarian"].known)
    by_level: dict[str, list[str]] = {}
    for space, tile in twin.tiles.items():
        if not tile.revealed and space not in known:
            by_level.setdefault(space[0], []).append(space)
    for spaces in by_level.values():
        faces = [twin.tiles[sp].face for sp in spaces]
        rnd.shuffle(faces)
        for sp, face in zip(spaces, faces, strict=True):
            twin.tiles[sp].face = face
    rnd.shuffle(twin.deck)
    mine = {str(c) for c in twin.heroes["barbarian"].chests}
    numbers = [c for c in twin.chest_contents if c not in mine]
    contents = [twin.chest_contents[c] for c in numbers]
    rnd.shuffle(contents)
    twin.chest_contents.update(zip(numbers, contents, strict=True))
    for name, hero in twin.heroes.items():
        if name != "barbarian" and hero.spells:
            hero.spells = [rnd.choice(sorted(set(twin.deck) | set(hero.spells)))] * len(hero.spells)
    return twin


def canonical(view: dict[str, Any]) -> str:
    return json.dumps(view, sort_keys=True)


def test_twins_that_differ_only_in_hidden_things_play_the_same_steps_until_the_view_differs() -> (
    None
):
    parted = identical = 0
    for seed in range(1, 13):
        s = turn_to(game(heroes=3, seed=seed), "barbarian")
        spaces = sorted(seat_view(s, 1)["spaces"])
        for to in random.Random(seed).sample(spaces, 6):
            orders = {"to": to, "from": "s1"}
            base = run(s, 1, orders)
            other = run(hidden_twin(s, seed), 1, orders)
            views = [canonical(v) for v in other["views"]]
            base_views = [canonical(v) for v in base["views"]]
            same = 0
            while same < min(len(views), len(base_views)) and views[same] == base_views[same]:
                same += 1
            # Every step chosen from an identical view is the identical step.
            assert other["played"][:same] == base["played"][:same], (seed, to)
            assert same >= 1  # the first view is the same: the twins differ in nothing shown
            if other["played"] == base["played"] and other["reason"] == base["reason"]:
                identical += 1
            else:
                parted += 1
    # Both happen: a tile turned up tells the twins apart, a walk on known ground does not.
    assert identical and parted


@pytest.mark.parametrize("seat", [1, 2, 3])
def test_the_face_offers_orders_for_every_hero_seat(seat: int) -> None:
    s = game(heroes=3)
    view = seat_view(s, seat)
    step = FACE.next_order_step(s, seat, {"to": None})
    if view["turn"]["seat"] == seat:
        assert step.action == {"type": "end_turn", "hero": view["me"]["hero"], "swap": None}
    else:
        assert step.action is None and step.stop_reason is None
