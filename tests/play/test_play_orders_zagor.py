"""Legend of Zagor's standing orders through the site (apps/play/orders.py, the game port's
`StandingOrders`): a hero's next turn queued through the API, played step by step by the action
service when it comes, stopped at the first change that matters with the player told why, and
private to its seat; the game page offers them."""

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from apps.accounts.models import User
from apps.games.registry import game_face
from apps.notifications.models import Notification
from apps.play.models import Game, GameEvent
from apps.play.selectors import game_seat_view
from apps.play.services import game_launch
from apps.quests.services import quest_sync_shipped
from apps.rooms import services as rooms

from .conftest import client_for, make_user, post_action

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]
ZAGOR = game_face("zagor")


@pytest.fixture(autouse=True)
def no_pause_between_steps(settings: Any) -> None:
    settings.AI_STEP_SECONDS = 0


def zagor_game(seed: int = 3) -> tuple[Game, dict[int, User]]:
    """A two-hero Orb tale, launched: (game, {seat: user})."""
    quest_sync_shipped()
    host = make_user()
    room = rooms.room_create(
        host=host, name="Orb night", seat_count=2, game="zagor", quest_slug="enchanted_orb"
    )
    users = {1: host, 2: make_user()}
    for number, user in users.items():
        rooms.room_seat_take(room_id=room.pk, user=user, number=number)
    return game_launch(room_id=room.pk, user=host, seed=seed), users


def edit_state(game: Game, change: Callable[[Any], None]) -> None:
    """Set the position up by hand (the log no longer replays to it: never verified here)."""
    state = ZAGOR.state_from_json(game.state, None)
    change(state)
    game.state = ZAGOR.state_to_json(state)
    game.save(update_fields=["state"])


def put_orders(client: Client, game_id: int, orders: dict[str, Any]) -> Any:
    return client.put(
        f"/api/games/{game_id}/orders", {"orders": orders}, content_type="application/json"
    )


def view_of(client: Client, game_id: int) -> dict[str, Any]:
    view: dict[str, Any] = client.get(f"/api/games/{game_id}/view").json()
    return view


def order_rows(game: Game) -> list[GameEvent]:
    rows = game.events.filter(kind=GameEvent.Kind.ACTION, key__startswith="orders-")
    return list(rows.order_by("seq"))


def seats(game: Game) -> tuple[int, int]:
    """(the seat to move, the seat waiting)."""
    (mover,) = game.to_move
    return mover, 3 - mover


def end_turn(client: Client, game: Game, capture: Capture) -> None:
    game.refresh_from_db()
    hero = view_of(client, game.pk)["turn"]["hero"]
    with capture(execute=True):
        action = {"type": "end_turn", "hero": hero, "swap": None}
        response = post_action(client, game.pk, action, game.version)
    assert response.status_code == 200, response.content


def test_a_queued_walk_plays_when_the_turn_comes_and_its_player_is_not_called(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    game, users = zagor_game()
    mover, waiting = seats(game)
    edit_state(game, lambda s: s.tiles.clear())  # plain corridors: nothing to turn up
    me = client_for(users[waiting])
    view = view_of(me, game.pk)
    hero = view["me"]["hero"]
    here = next(h["space"] for h in view["heroes"] if h["hero"] == hero)
    # Two links on, through the corridor next to the start space.
    first = next(a for a, b in view["layout"]["links"] if b == here and a[0] == "a")
    answer = put_orders(me, game.pk, {"to": first, "from": here})
    assert answer.status_code == 200, answer.content
    name = view["heroes"][waiting - 1]["name"].split()[0]
    square = next(sp for lv in view["layout"]["levels"] for sp in lv["spaces"] if sp["id"] == first)
    label = f"corridor {chr(97 + square['x'])}{square['y'] + 1}"  # as the page names it
    assert answer.json()["lines"] == [f"{name}: walk toward {label}, then end the turn."]
    Notification.objects.all().delete()

    end_turn(client_for(users[mover]), game, django_capture_on_commit_callbacks)

    game.refresh_from_db()
    played = [row.payload["action"] for row in order_rows(game)]
    assert played == [
        {"type": "move", "hero": hero, "to": first},
        {"type": "end_turn", "hero": hero, "swap": None},
    ]
    assert all(row.seat is None and row.payload["system"] for row in order_rows(game))
    assert game.to_move == [mover]  # the turn went round
    assert not Notification.objects.filter(user=users[waiting], kind="your_turn").exists()
    mine = me.get(f"/api/games/{game.pk}/orders").json()
    assert mine["orders"] == {} and mine["note"] == ""
    spaces = {h["hero"]: h["space"] for h in view_of(me, game.pk)["heroes"]}
    assert spaces[hero] == first


def test_a_tile_turned_up_stops_the_orders_and_the_player_is_told_why(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    game, users = zagor_game()
    mover, waiting = seats(game)
    me = client_for(users[waiting])
    view = view_of(me, game.pk)
    here = next(h["space"] for h in view["heroes"] if h["seat"] == waiting)
    assert put_orders(me, game.pk, {"to": "store", "from": here}).status_code == 200

    end_turn(client_for(users[mover]), game, django_capture_on_commit_callbacks)

    game.refresh_from_db()
    assert [row.payload["action"]["type"] for row in order_rows(game)] == ["move"]
    after = view_of(me, game.pk)
    assert after["turn"]["seat"] == waiting  # nothing played after it: the rest is the player's
    mine = me.get(f"/api/games/{game.pk}/orders").json()
    assert mine["orders"] == {} and mine["note"].startswith("A tile was turned up")
    assert mine["note_version"] == game.version
    told = Notification.objects.get(user=users[waiting], body__startswith="Your standing orders")
    assert told.body == f"Your standing orders stopped: {mine['note']}"


def test_zagor_orders_are_their_seats_alone(django_capture_on_commit_callbacks: Capture) -> None:
    game, users = zagor_game()
    mover, waiting = seats(game)
    c_mover, me = client_for(users[mover]), client_for(users[waiting])

    def what_others_see() -> list[Any]:
        game.refresh_from_db()
        fresh = [game_seat_view(game=game, seat=seat) for seat in (0, mover)]
        api = f"/api/games/{game.pk}"
        served = [c_mover.get(f"{api}/{part}").content for part in ("view", "events")]
        return [*fresh, *served]

    before = what_others_see()
    assert put_orders(me, game.pk, {"to": "store"}).status_code == 200
    assert what_others_see() == before  # not a byte of it reaches another seat
    assert c_mover.get(f"/api/games/{game.pk}/orders").json()["orders"] == {}
    refused = put_orders(me, game.pk, {"to": "nowhere"})
    assert refused.status_code == 422 and "not a space" in refused.json()["detail"]
    # Cancelled before it runs: nothing is played.
    assert me.delete(f"/api/games/{game.pk}/orders").json()["orders"] == {}
    end_turn(c_mover, game, django_capture_on_commit_callbacks)
    assert order_rows(game) == []


def test_the_zagor_page_offers_standing_orders_and_the_recap() -> None:
    game, users = zagor_game()
    page = client_for(users[1]).get(f"/games/{game.pk}/").content.decode()
    assert 'id="orders-panel"' in page and 'id="recap"' in page
    assert "js/games/zagor/orders.js" in page
    assert "js/games/heroquest/orders.js" not in page


def test_orders_that_cannot_start_stop_at_once_and_never_play_a_later_turn(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    game, users = zagor_game()
    mover, waiting = seats(game)
    me = client_for(users[waiting])
    view = view_of(me, game.pk)
    hero = view["me"]["hero"]
    here = next(h["space"] for h in view["heroes"] if h["hero"] == hero)
    assert put_orders(me, game.pk, {"to": "store", "from": here}).status_code == 200
    edit_state(game, lambda s: setattr(s.heroes[hero], "space", "a10"))  # a Whirlwind, say
    Notification.objects.all().delete()

    end_turn(client_for(users[mover]), game, django_capture_on_commit_callbacks)

    game.refresh_from_db()
    assert order_rows(game) == [] and game.to_move == [waiting]
    mine = me.get(f"/api/games/{game.pk}/orders").json()
    assert mine["orders"] == {}
    name = view["heroes"][waiting - 1]["name"].split()[0]
    assert mine["note"] == f"{name} is no longer where you queued the orders (now: corridor a4)."
    # Told once, by the stop (no second "your turn" notice), and nothing waits for a later turn.
    told = Notification.objects.filter(user=users[waiting], kind="your_turn")
    assert [n.body for n in told] == [f"Your standing orders stopped: {mine['note']}"]
    end_turn(me, game, django_capture_on_commit_callbacks)
    end_turn(client_for(users[mover]), game, django_capture_on_commit_callbacks)
    assert order_rows(game) == []
