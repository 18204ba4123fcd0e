"""Standing orders through the site (apps/play/orders.py): queued through the API, played by the
action service when the seat's turn comes, stopped at the first change that matters with the
player told why, and private to their seat. Also the recap of what a seat missed
(apps/play/recap.py)."""

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from apps.notifications.models import Notification
from apps.play.models import Game, GameEvent
from apps.play.orders import orders_play, orders_sweep
from apps.play.selectors import game_seat_view

from .conftest import GameMaker, client_for, key, post_action

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]


@pytest.fixture(autouse=True)
def no_pause_between_steps(settings: Any) -> None:
    settings.AI_STEP_SECONDS = 0


def put_orders(client: Client, game_id: int, orders: dict[str, Any]) -> Any:
    return client.put(
        f"/api/games/{game_id}/orders", {"orders": orders}, content_type="application/json"
    )


def view_of(client: Client, game_id: int) -> dict[str, Any]:
    view: dict[str, Any] = client.get(f"/api/games/{game_id}/view").json()
    return view


def end_turn(client: Client, game: Game, hero: str, capture: Capture) -> None:
    game.refresh_from_db()
    with capture(execute=True):
        response = post_action(client, game.pk, {"type": "end_turn", "hero": hero}, game.version)
    assert response.status_code == 200, response.content


def order_rows(game: Game) -> list[GameEvent]:
    rows = game.events.filter(kind=GameEvent.Kind.ACTION, key__startswith="orders-")
    return list(rows.order_by("seq"))


def test_a_queued_turn_plays_when_the_turn_comes_and_its_player_is_not_called(
    make_game: GameMaker, django_capture_on_commit_callbacks: Capture
) -> None:
    game, users = make_game(seats=3)
    c2, c3 = client_for(users[2]), client_for(users[3])
    orders = {
        "heroes": {
            "elf": {"to": None, "door": None, "act": "search_traps"},
            "wizard": {"to": None, "door": None, "act": "end_turn"},
        }
    }
    answer = put_orders(c3, game.pk, orders)
    assert answer.status_code == 200, answer.content
    assert answer.json()["lines"] == [
        "The Elf: search for traps, then end the turn.",
        "The Wizard: end the turn where the hero stands.",
    ]
    Notification.objects.all().delete()

    end_turn(c2, game, "barbarian", django_capture_on_commit_callbacks)
    end_turn(c2, game, "dwarf", django_capture_on_commit_callbacks)

    game.refresh_from_db()
    played = [row.payload["action"] for row in order_rows(game)]
    assert played == [
        {"type": "search_traps", "hero": "elf"},
        {"type": "end_turn", "hero": "elf"},
        {"type": "end_turn", "hero": "wizard"},
    ]
    assert all(row.seat is None and row.payload["system"] for row in order_rows(game))
    assert 3 not in game.to_move  # the seat's turn is over
    assert not Notification.objects.filter(user=users[3], kind="your_turn").exists()
    mine = c3.get(f"/api/games/{game.pk}/orders").json()
    assert mine["orders"] == {} and mine["note"] == ""


def test_a_change_that_matters_stops_the_orders_and_the_player_is_told_why(
    make_game: GameMaker, django_capture_on_commit_callbacks: Capture
) -> None:
    game, users = make_game(seats=3, seed=7)  # the Barbarian's first roll: 7
    c2 = client_for(users[2])
    stair = view_of(c2, game.pk)["map"]["doors"][0]["id"]
    for version, action in enumerate(
        [
            {"type": "roll_movement", "hero": "barbarian"},
            {"type": "move", "hero": "barbarian", "to": [2, 14]},
            {"type": "open_door", "hero": "barbarian", "door": stair},
        ]
    ):  # by hand: the Ember Run beyond the stair door is in sight now
        assert post_action(c2, game.pk, action, version).status_code == 200
    view = view_of(c2, game.pk)
    guard = next(d for d in view["map"]["doors"] if [3, 12] in d["between"])
    orders = {
        "heroes": {
            "barbarian": {"to": [3, 12], "door": guard["id"], "act": "search_treasure"},
            "dwarf": {"to": None, "door": None, "act": "end_turn"},
        }
    }
    with django_capture_on_commit_callbacks(execute=True):  # his turn already: at once
        assert put_orders(c2, game.pk, orders).status_code == 200

    game.refresh_from_db()
    assert [row.payload["action"]["type"] for row in order_rows(game)] == [
        *["move"] * 3,
        "open_door",
    ]
    view = view_of(c2, game.pk)
    assert view["turn"]["hero"] == "barbarian"  # nothing played after it: the rest is his
    mine = c2.get(f"/api/games/{game.pk}/orders").json()
    assert mine["orders"] == {} and mine["note"] == "A monster was revealed: the orc."
    assert mine["note_version"] == game.version
    told = Notification.objects.get(user=users[2], body__startswith="Your standing orders")
    assert told.body == "Your standing orders stopped: A monster was revealed: the orc."


def test_orders_are_their_seats_alone(
    make_game: GameMaker, django_capture_on_commit_callbacks: Capture
) -> None:
    game, users = make_game(seats=3)
    c1, c2, c3 = (client_for(users[n]) for n in (1, 2, 3))

    def what_others_see() -> list[Any]:
        game.refresh_from_db()
        fresh = [game_seat_view(game=game, seat=seat) for seat in (0, 1, 2)]
        served = [
            c.get(f"/api/games/{game.pk}/{what}").content
            for c in (c1, c2)
            for what in ("view", "events")
        ]
        return [*fresh, *served]

    before = what_others_see()
    orders = {"heroes": {"wizard": {"to": [3, 16], "door": None, "act": "end_turn"}}}
    assert put_orders(c3, game.pk, orders).status_code == 200
    assert what_others_see() == before  # not a byte of it reaches another seat
    assert c2.get(f"/api/games/{game.pk}/orders").json()["orders"] == {}
    assert c1.get(f"/api/games/{game.pk}/orders").json()["orders"] == {}
    # Another seat's hero, a square nobody has seen, a stranger: refused.
    refused = put_orders(c2, game.pk, {"heroes": {"elf": {"act": "end_turn"}}})
    assert refused.status_code == 422 and "not one of your heroes" in refused.json()["detail"]
    unseen = put_orders(c3, game.pk, {"heroes": {"elf": {"to": [20, 2], "act": "end_turn"}}})
    assert unseen.status_code == 422 and "have seen" in unseen.json()["detail"]
    stranger = client_for(make_game()[1][2])
    assert stranger.get(f"/api/games/{game.pk}/orders").status_code == 404
    # Cancelled before it runs: nothing is played.
    assert c3.delete(f"/api/games/{game.pk}/orders").json()["orders"] == {}
    end_turn(c2, game, "barbarian", django_capture_on_commit_callbacks)
    end_turn(c2, game, "dwarf", django_capture_on_commit_callbacks)
    assert order_rows(game) == []


def test_zargons_idle_monsters_end_his_phase_by_themselves(
    make_game: GameMaker, django_capture_on_commit_callbacks: Capture
) -> None:
    game, users = make_game(seats=2)
    c1, c2 = client_for(users[1]), client_for(users[2])
    assert put_orders(c1, game.pk, {"idle_ends_phase": True}).status_code == 200
    Notification.objects.all().delete()
    for hero in ("barbarian", "dwarf", "elf", "wizard"):
        end_turn(c2, game, hero, django_capture_on_commit_callbacks)
    game.refresh_from_db()
    # Either no monster is revealed (the engine skips the phase) or none can reach a hero:
    # either way Zargon was never called, and the heroes play round 2.
    assert game.round == 2 and game.to_move == [2]
    assert not Notification.objects.filter(user=users[1], kind="your_turn").exists()
    assert c1.get(f"/api/games/{game.pk}/orders").json()["orders"] == {"idle_ends_phase": True}


def test_a_player_who_plays_the_turn_themself_stands_the_orders_down(
    make_game: GameMaker, django_capture_on_commit_callbacks: Capture
) -> None:
    game, users = make_game(seats=3)
    c2 = client_for(users[2])
    # The Dwarf's turn is queued while the Barbarian's is played by hand: the orders wait, then
    # play when the Dwarf's turn comes (the seat keeps the turn: no turn change).
    assert put_orders(c2, game.pk, {"heroes": {"dwarf": {"act": "end_turn"}}}).status_code == 200
    end_turn(c2, game, "barbarian", django_capture_on_commit_callbacks)
    assert [r.payload["action"] for r in order_rows(game)] == [
        {"type": "end_turn", "hero": "dwarf"}
    ]
    # Orders for the turn being played, and a step by hand: the player takes over.
    c3 = client_for(users[3])
    game.refresh_from_db()
    assert game.to_move == [3]
    orders = {"heroes": {"elf": {"act": "search_traps"}}}
    with django_capture_on_commit_callbacks(execute=False):  # the task has not run yet
        assert put_orders(c3, game.pk, orders).status_code == 200
    game.refresh_from_db()
    roll = {"type": "roll_movement", "hero": "elf"}
    assert post_action(c3, game.pk, roll, game.version).status_code == 200
    assert c3.get(f"/api/games/{game.pk}/orders").json()["orders"] == {}
    assert orders_play(game_id=game.pk, pause=0) == 0


def test_a_second_runner_plays_nothing_twice(
    make_game: GameMaker, django_capture_on_commit_callbacks: Capture
) -> None:
    game, users = make_game(seats=3)
    c2 = client_for(users[2])
    orders = {"heroes": {"barbarian": {"to": None, "door": None, "act": "end_turn"}}}
    with django_capture_on_commit_callbacks(execute=True):
        assert put_orders(c2, game.pk, orders).status_code == 200
    assert orders_play(game_id=game.pk, pause=0) == 0  # spent: nothing left to play
    game.refresh_from_db()
    assert [r.payload["action"] for r in order_rows(game)] == [
        {"type": "end_turn", "hero": "barbarian"}
    ]


def test_the_sweep_plays_orders_whose_task_was_lost(
    make_game: GameMaker,
    django_capture_on_commit_callbacks: Capture,
    monkeypatch: pytest.MonkeyPatch,
    time_machine: Any,
) -> None:
    game, users = make_game(seats=3)
    c2, c3 = client_for(users[2]), client_for(users[3])
    orders = {"heroes": {"elf": {"act": "end_turn"}, "wizard": {"act": "end_turn"}}}
    assert put_orders(c3, game.pk, orders).status_code == 200
    monkeypatch.setattr("apps.play.services.orders_enqueue", lambda game_id: None)  # lost
    end_turn(c2, game, "barbarian", django_capture_on_commit_callbacks)
    end_turn(c2, game, "dwarf", django_capture_on_commit_callbacks)
    assert order_rows(game) == [] and orders_sweep() == []  # not stalled yet
    time_machine.move_to(timezone.now() + timedelta(minutes=3))
    with django_capture_on_commit_callbacks(execute=True):
        assert orders_sweep() == [game.pk]
    assert [r.payload["action"]["hero"] for r in order_rows(game)] == ["elf", "wizard"]


# --- the recap ---------------------------------------------------------------------------------


def test_the_frames_of_a_recap_are_exactly_the_seats_views_at_those_versions(
    make_game: GameMaker, django_capture_on_commit_callbacks: Capture
) -> None:
    game, users = make_game(seats=3, seed=7)
    c2, c3 = client_for(users[2]), client_for(users[3])
    start = view_of(c3, game.pk)["version"]
    assert c3.post(
        f"/api/games/{game.pk}/seen", {"version": start}, content_type="application/json"
    ).json() == {"seen_version": start}
    seen: dict[int, dict[str, Any]] = {start: view_of(c3, game.pk)}
    # Seat 2 plays the Barbarian's and the Dwarf's turns while seat 3 is away.
    for _ in range(40):
        view = view_of(c2, game.pk)
        if view["turn"]["seat"] != 2:
            break
        legal = view["legal_actions"]
        pick = next(
            (a for a in legal if a["type"] in ("roll_movement", "open_door", "move")),
            {"type": "end_turn", "hero": view["turn"]["hero"]},
        )
        if view["turn"]["movement_left"] == 0 and view["turn"]["movement_rolled"]:
            pick = {"type": "end_turn", "hero": view["turn"]["hero"]}
        response = post_action(c2, game.pk, pick, view["version"], key())
        assert response.status_code == 200, response.content
        live = view_of(c3, game.pk)
        seen[live["version"]] = live

    recap = c3.get(f"/api/games/{game.pk}/recap").json()
    assert recap["since"] == start and recap["version"] == max(seen)
    assert recap["frames"][0]["version"] == start and len(recap["frames"]) > 2
    for frame in recap["frames"]:
        expected = {
            k: v for k, v in seen[frame["version"]].items() if k not in ("legal_actions", "log")
        }
        expected.pop("version"), expected.pop("game_id")
        assert frame["view"] == expected, frame["version"]
        log_seqs = {e["seq"] for e in seen[frame["version"]]["log"]}
        assert {e["seq"] for e in frame["entries"]} <= log_seqs
    assert "The Barbarian moved 7 squares." in recap["lines"]  # a few story lines
    # Once shown, the next recap starts where this one ended.
    c3.post(f"/api/games/{game.pk}/seen", {"version": recap["version"]}, "application/json")
    assert c3.get(f"/api/games/{game.pk}/recap").json()["frames"] == []
