"""A seat's view of a version is built once for every process (apps/play/view_cache.py).

"Another process" is played here by forgetting this process's own cache: what is left is the
cache every process shares (Redis in production; here the tests' cache, files without Redis).
"""

import asyncio
import json
import random
import threading
import time
from typing import Any

import pytest
import redis
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.core.jsontext import json_text
from apps.core.realtime import game_seat_group
from apps.games.registry import game_face
from apps.play import services
from apps.play import view_cache as view_cache_module
from apps.play.models import Game
from apps.play.selectors import (
    game_seat_view_cached,
    game_seat_view_for_socket,
    game_state,
    seat_view_of_state,
)
from apps.play.services import quest_apply_action
from apps.play.view_cache import (
    SeatView,
    poke_with_view,
    seat_view_of_message,
    shared_views,
    view_cache,
)
from apps.quests.services import quest_sync_shipped
from apps.rooms import services as rooms

from .conftest import GameMaker, client_for, make_user, post_action

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def shared_seat_views(settings: Any) -> None:
    settings.SHARED_SEAT_VIEWS = True  # on with Redis; these tests run without it too


ROLL = {"type": "roll_movement", "hero": "barbarian"}


def test_the_acting_seats_new_view_reaches_its_socket_in_another_process_without_reading_the_game(
    make_game: GameMaker, django_capture_on_commit_callbacks: Any
) -> None:
    game, users = make_game(3)
    shared_views.socket_open(game.pk, 2)  # the barbarian's page is open too, in some process
    with django_capture_on_commit_callbacks(execute=True):  # kept once committed
        answer = post_action(client_for(users[2]), game.pk, ROLL, 0).json()
    view_cache.clear()  # another process: only the shared cache knows the view
    with CaptureQueriesContext(connection) as queries:
        view = game_seat_view_for_socket(game_id=game.pk, seat=2, at_least=1)
    assert len(queries) == 0
    assert view.version == 1
    assert view.json.startswith("{") and '"version":1' in view.json
    assert answer["view"]["version"] == 1 and answer["view"]["seat"] == 2


def test_the_acting_seats_view_stays_in_its_process_when_no_socket_of_that_seat_is_open(
    make_game: GameMaker, django_capture_on_commit_callbacks: Any
) -> None:
    """A bot playing through the API has no socket: nobody else would read the view."""
    game, users = make_game(3)
    shared_views.socket_open(game.pk, 1)  # Zargon watches
    with django_capture_on_commit_callbacks(execute=True):
        post_action(client_for(users[2]), game.pk, ROLL, 0)

    assert cache.get(f"seat-view:{game.pk}:2:1") is None
    assert view_cache.get(game.pk, 2, at_least=1) is not None  # this process keeps it
    assert cache.get(f"seat-view:{game.pk}:1:1").seat == 1  # Zargon's socket finds its own


def test_the_views_of_every_seat_with_a_socket_go_to_the_shared_cache_in_one_round_trip(
    make_game: GameMaker, django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, users = make_game(3)
    for seat in (0, 1, 2, 3):
        shared_views.socket_open(game.pk, seat)
    writes: list[list[str]] = []

    class RecordedCache:  # the shared cache, each write recorded
        def set(self, key: str, *args: Any) -> Any:
            writes.append([key])
            return cache.set(key, *args)

        def set_many(self, data: dict[str, Any], *args: Any) -> Any:
            writes.append(sorted(data))
            return cache.set_many(data, *args)

        def set_many_then_publish(self, data: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
            writes.append(sorted(data))  # Redis: the poke in the same round trip
            return cache.set_many_then_publish(data, *args, **kwargs)  # type: ignore[attr-defined]

        def __getattr__(self, name: str) -> Any:
            return getattr(cache, name)

    monkeypatch.setattr(view_cache_module, "cache", RecordedCache())
    with django_capture_on_commit_callbacks(execute=True):
        post_action(client_for(users[2]), game.pk, ROLL, 0)

    assert writes == [[f"seat-view:{game.pk}:{seat}:1" for seat in (0, 1, 2, 3)]]
    for seat in (0, 1, 2, 3):
        assert cache.get(f"seat-view:{game.pk}:{seat}:1").seat == seat


def test_without_redis_one_process_keeps_its_views_to_itself(
    make_game: GameMaker, settings: Any
) -> None:
    settings.SHARED_SEAT_VIEWS = False
    game, users = make_game(3)
    post_action(client_for(users[2]), game.pk, ROLL, 0)
    game_seat_view_for_socket(game_id=game.pk, seat=1, at_least=1)
    assert cache.get(f"seat-view:{game.pk}:1:1") is None
    assert view_cache.get(game.pk, 1, at_least=1) is not None


def test_a_view_nobody_built_is_built_once_and_kept_for_the_others(make_game: GameMaker) -> None:
    game, users = make_game(3)
    post_action(client_for(users[2]), game.pk, ROLL, 0)
    view_cache.clear()
    built = game_seat_view_for_socket(game_id=game.pk, seat=1, at_least=1)  # Zargon's
    view_cache.clear()
    with CaptureQueriesContext(connection) as queries:
        again = game_seat_view_for_socket(game_id=game.pk, seat=1, at_least=1)
    assert len(queries) == 0 and again == built


def test_a_poked_socket_asks_the_shared_cache_for_a_version_once_before_building_it(
    make_game: GameMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, users = make_game(3)
    post_action(client_for(users[2]), game.pk, ROLL, 0)
    view_cache.clear()
    asked: list[str] = []
    real_get = cache.get

    def counted_get(key: str, *args: Any) -> Any:
        asked.append(key)
        return real_get(key, *args)

    monkeypatch.setattr(cache, "get", counted_get)
    view = game_seat_view_for_socket(game_id=game.pk, seat=1, at_least=1)  # Zargon's, unbuilt

    assert asked == [f"seat-view:{game.pk}:1:1"]
    assert view.version == 1 and cache.get(f"seat-view:{game.pk}:1:1") == view


def test_a_process_waits_for_the_view_another_one_claimed(make_game: GameMaker) -> None:
    game, _ = make_game(3)
    game.refresh_from_db()
    assert shared_views.claim(game.pk, 1, game.version)  # "the other process" builds it
    theirs = SeatView(game_id=game.pk, seat=1, version=game.version, json='{"theirs":1}')
    threading.Timer(0.05, shared_views.put, args=(theirs,)).start()
    started = time.monotonic()
    view = game_seat_view_cached(game=game, seat=1)
    assert view == theirs
    assert time.monotonic() - started < 0.45  # it came before the wait gave up


def test_a_failing_shared_cache_costs_only_a_build(
    make_game: GameMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, users = make_game(3)

    def broken(*args: object, **kwargs: object) -> None:
        raise ConnectionError("the cache is down")

    for method in ("get", "set", "add", "delete_many"):
        monkeypatch.setattr(cache, method, broken)
    answer = post_action(client_for(users[2]), game.pk, ROLL, 0)
    assert answer.status_code == 200
    view_cache.clear()
    view = game_seat_view_for_socket(game_id=game.pk, seat=1, at_least=1)
    assert view.version == 1 and '"role":"zargon"' in view.json


def test_a_private_setting_is_not_hidden_by_a_shared_view_of_the_same_version(
    make_game: GameMaker,
) -> None:
    game, users = make_game(3)
    elf = client_for(users[3])
    before = elf.get(f"/api/games/{game.pk}/view").json()
    setting = {"type": "set_auto_drink", "hero": "elf", "on": False}
    assert post_action(elf, game.pk, setting, 0).status_code == 200
    view_cache.clear()
    after = elf.get(f"/api/games/{game.pk}/view").json()
    assert after["version"] == before["version"]
    assert after != before


def test_the_action_builds_the_views_of_the_seats_with_a_socket_open_for_every_process(
    make_game: GameMaker, django_capture_on_commit_callbacks: Any
) -> None:
    game, users = make_game(3)
    shared_views.socket_open(game.pk, 1)  # Zargon's page is open, in some process
    with django_capture_on_commit_callbacks(execute=True):
        post_action(client_for(users[2]), game.pk, ROLL, 0)
    view_cache.clear()  # the socket's process: only the shared cache knows the view
    with CaptureQueriesContext(connection) as queries:
        zargons = game_seat_view_for_socket(game_id=game.pk, seat=1, at_least=1)
    assert len(queries) == 0
    shared_views.forget(game.pk, 1, 1)
    view_cache.clear()
    from_the_row = game_seat_view_for_socket(game_id=game.pk, seat=1, at_least=1)
    # The same view as one built from the stored state (PostgreSQL's jsonb orders keys its way).
    assert json.loads(zargons.json) == json.loads(from_the_row.json)
    assert '"role":"zargon"' in zargons.json


def test_the_action_builds_no_view_for_a_seat_without_a_socket(
    make_game: GameMaker, django_capture_on_commit_callbacks: Any
) -> None:
    game, users = make_game(3)
    shared_views.socket_open(game.pk, 3)  # only the elf's page is open
    with django_capture_on_commit_callbacks(execute=True):
        post_action(client_for(users[2]), game.pk, ROLL, 0)
    assert cache.get(f"seat-view:{game.pk}:1:1") is None
    assert isinstance(cache.get(f"seat-view:{game.pk}:3:1"), SeatView)


def test_a_process_reads_a_games_socket_marks_once_a_second_at_most(
    make_game: GameMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, _ = make_game(3)
    clock = [1000.0]
    monkeypatch.setattr(view_cache_module.time, "monotonic", lambda: clock[0])
    seats = range(4)
    assert shared_views.seats_with_sockets(game.pk, seats) == []
    cache.set(f"seat-socket:{game.pk}:1", 1)  # Zargon's socket opens in another process

    clock[0] += 0.9
    assert shared_views.seats_with_sockets(game.pk, seats) == []  # as read a moment ago
    clock[0] += 0.2
    assert shared_views.seats_with_sockets(game.pk, seats) == [1]


def test_a_socket_opened_in_this_process_is_known_to_its_actions_at_once(
    make_game: GameMaker,
) -> None:
    game, _ = make_game(3)
    assert shared_views.seats_with_sockets(game.pk, range(4)) == []
    shared_views.socket_open(game.pk, 2)
    assert shared_views.seats_with_sockets(game.pk, range(4)) == [2]


def test_the_marks_of_another_seat_range_are_read_afresh(make_game: GameMaker) -> None:
    game, _ = make_game(3)
    cache.set(f"seat-socket:{game.pk}:0", 1)  # a spectator
    assert shared_views.seats_with_sockets(game.pk, range(1, 4)) == []
    assert shared_views.seats_with_sockets(game.pk, range(4)) == [0]


def test_a_timeout_or_the_ai_builds_the_views_of_the_seats_with_a_socket_open(
    make_game: GameMaker, django_capture_on_commit_callbacks: Any
) -> None:
    game, _ = make_game(3)
    shared_views.socket_open(game.pk, 1)
    shared_views.socket_open(game.pk, 2)
    with django_capture_on_commit_callbacks(execute=True):
        quest_apply_action(
            game_id=game.pk, seat=2, action=ROLL, expected_version=0, key="k", system=True
        )
    assert {seat for seat in (1, 2, 3) if cache.get(f"seat-view:{game.pk}:{seat}:1")} == {1, 2}


def test_a_view_for_a_socket_that_fails_to_build_fails_nothing_else(
    make_game: GameMaker,
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game, users = make_game(3)
    shared_views.socket_open(game.pk, 1)

    def broken(**kwargs: object) -> None:
        raise RuntimeError("a bug in a view")

    monkeypatch.setattr(services, "seat_views_for_sockets", broken)
    with django_capture_on_commit_callbacks(execute=True):
        answer = post_action(client_for(users[2]), game.pk, ROLL, 0)
    assert answer.status_code == 200 and answer.json()["version"] == 1
    view_cache.clear()
    view = game_seat_view_for_socket(game_id=game.pk, seat=1, at_least=1)  # built by the socket
    assert view.version == 1 and '"role":"zargon"' in view.json


def test_without_redis_no_seat_is_marked_and_the_sockets_build_their_views(
    make_game: GameMaker, settings: Any
) -> None:
    settings.SHARED_SEAT_VIEWS = False
    game, _ = make_game(3)
    shared_views.socket_open(game.pk, 1)
    assert cache.get(f"seat-socket:{game.pk}:1") is None
    assert shared_views.seats_with_sockets(game.pk, range(4)) == []


def test_a_socket_reads_the_view_another_process_kept_from_its_own_loop(
    make_game: GameMaker, django_capture_on_commit_callbacks: Any
) -> None:
    game, users = make_game(3)
    shared_views.socket_open(game.pk, 2)
    with django_capture_on_commit_callbacks(execute=True):
        post_action(client_for(users[2]), game.pk, ROLL, 0)
    view_cache.clear()  # another process

    found = asyncio.run(shared_views.aget(game.pk, 2, 1))

    assert found is not None and (found.game_id, found.seat, found.version) == (game.pk, 2, 1)
    assert asyncio.run(shared_views.aget(game.pk, 2, 2)) is None  # a version nobody built


def test_a_hung_shared_cache_costs_a_socket_its_timeout_and_then_a_build(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.REDIS_TIMEOUT = 0.1

    class HungCache:
        async def aget(self, key: str) -> Any:
            await asyncio.Event().wait()  # a frozen Redis never answers

    monkeypatch.setattr(view_cache_module, "cache", HungCache())
    started = time.monotonic()

    assert asyncio.run(shared_views.aget(1, 1, 1)) is None
    assert time.monotonic() - started < 2


def _every_seats_view_is_its_engine_view_exactly(game: Game, actions: int) -> None:
    face = game_face(game.kind)
    rnd = random.Random(game.pk)
    seats = [1, *range(2, game.seats + 1), 0, 1]  # interleaved, a spectator's among them
    for _ in range(actions):
        state = game_state(game=game)
        for seat in seats:
            built = json.loads(seat_view_of_state(game=game, seat=seat, state=state).json)
            whole = json.loads(json_text(face.seat_view(state, seat)))
            assert built == whole | {"version": game.version, "game_id": game.pk}
        if game.outcome or not face.seats_to_move(state):
            break
        seat = rnd.choice(face.seats_to_move(state))
        quest_apply_action(
            game_id=game.pk,
            seat=seat,
            action=rnd.choice(face.legal_actions(state, seat)),
            expected_version=game.version,
            key=f"k{game.version}",
            system=True,
        )
        game = Game.objects.get(pk=game.pk)


def test_every_seats_heroquest_view_is_its_engine_view_though_the_maps_text_is_kept(
    make_game: GameMaker,
) -> None:
    """The map's text is kept by the map object (`GameFace.shared_view_parts`): Zargon's map,
    with every room and trap, is another object than the heroes', and never reaches them."""
    game, _ = make_game(3, seed=11)
    _every_seats_view_is_its_engine_view_exactly(game, actions=40)


def test_every_seats_zagor_view_is_its_engine_view_though_the_boards_text_is_kept() -> None:
    quest_sync_shipped()
    host, other = make_user(), make_user()
    room = rooms.room_create(
        host=host, name="Orb night", seat_count=2, game="zagor", quest_slug="enchanted_orb"
    )
    rooms.room_seat_take(room_id=room.pk, user=host, number=1)
    rooms.room_seat_take(room_id=room.pk, user=other, number=2)
    game = services.game_launch(room_id=room.pk, user=host, seed=6)
    _every_seats_view_is_its_engine_view_exactly(game, actions=40)


async def _heard(layer: RedisPubSubChannelLayer, channel: str) -> dict[str, Any] | None:
    try:
        heard: dict[str, Any] = await asyncio.wait_for(layer.receive(channel), timeout=0.5)
        return heard
    except TimeoutError:
        return None


@pytest.mark.asyncio
@pytest.mark.redis
@pytest.mark.parametrize("turn", [False, True])
async def test_the_views_and_the_pokes_carrying_them_reach_redis_in_one_round_trip(
    redis_url: str, monkeypatch: pytest.MonkeyPatch, turn: bool
) -> None:
    """Each seat's group hears the poke once, with that seat's view alone where one was built;
    the game's group (lobbies following it) hears it only when the turn changed."""
    layer = get_channel_layer()
    assert isinstance(layer, RedisPubSubChannelLayer)
    lobby = await layer.new_channel()
    await layer.group_add("game-4343", lobby)
    seat_sockets = {seat: await layer.new_channel() for seat in (0, 1, 2, 3)}
    for seat, channel in seat_sockets.items():
        await layer.group_add(game_seat_group(game_id=4343, seat=seat), channel)
    views = [SeatView(game_id=4343, seat=n, version=9, json=f'{{"seat":{n}}}') for n in (1, 2)]
    message = {"type": "game.changed", "version": 9} | ({"turn": True} if turn else {})
    round_trips: list[int] = []
    real_send = redis.connection.AbstractConnection.send_packed_command

    def counted(connection: Any, command: Any, check_health: bool = True) -> None:
        round_trips.append(1)
        real_send(connection, command, check_health)

    monkeypatch.setattr(redis.connection.AbstractConnection, "send_packed_command", counted)
    await sync_to_async(shared_views.put_many_then_poke, thread_sensitive=False)(
        views, game_id=4343, seats=range(0, 4), message=message
    )
    monkeypatch.undo()

    assert len(round_trips) == 1
    for view in views:
        heard = await _heard(layer, seat_sockets[view.seat])
        assert heard is not None and seat_view_of_message(heard) == view
        assert {k: v for k, v in heard.items() if k in message} == message
        assert await shared_views.aget(4343, view.seat, 9) == view  # there for later readers
    for seat in (0, 3):  # no view built for them: the poke alone
        assert await _heard(layer, seat_sockets[seat]) == message
    assert [await _heard(layer, channel) for channel in seat_sockets.values()] == [None] * 4
    assert await _heard(layer, lobby) == (message if turn else None)
    await layer.group_discard("game-4343", lobby)
    for seat, channel in seat_sockets.items():
        await layer.group_discard(game_seat_group(game_id=4343, seat=seat), channel)


def test_a_poke_carries_the_view_whole_and_nothing_else_is_taken_for_one() -> None:
    view = SeatView(game_id=5, seat=2, version=9, json='{"seat":2}', outcome="won", generation=3)
    message = poke_with_view({"type": "game.changed", "version": 9, "turn": True}, view)

    assert seat_view_of_message(message) == view
    assert seat_view_of_message(json.loads(json.dumps(message))) == view
    assert message["turn"] is True  # the poke's own fields kept
    plain = {"type": "game.changed", "version": 9}
    assert poke_with_view(plain, None) == plain
    for broken in (
        {**message, "seat": None},
        {**message, "seat": True},  # a bool is no seat
        {**message, "version": "9"},
        {**message, "json": {"seat": 2}},
        {"type": "game.changed", "version": 9},
    ):
        assert seat_view_of_message(broken) is None
