"""The game websocket: views on connect and after every change, refusals, frames."""

import asyncio
import threading
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db.models import F
from django.test import Client

from apps.accounts.models import User
from apps.core.realtime import game_seat_group
from apps.games.heroquest import HeroQuest
from apps.games.heroquest import engine as rules
from apps.play import consumers, selectors
from apps.play.models import Game
from apps.play.selectors import game_seat_view_encoded, game_view
from apps.play.services import (
    game_action_submit,
    game_group,
    game_seats_changed,
    quest_apply_action,
)
from apps.play.view_cache import SeatView, poke_with_view, shared_views, view_cache
from apps.rooms.models import Seat
from config.asgi import application
from config.routing import websocket_urlpatterns
from tests.conftest import make_user

from .conftest import GameMaker

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

ROLL = {"type": "roll_movement", "hero": "barbarian"}


async def connect(game: Game, user: User | AnonymousUser) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/games/{game.pk}/")
    communicator.scope["user"] = user
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def play_roll(game: Game) -> dict[str, Any]:
    return await sync_to_async(quest_apply_action)(
        game_id=game.pk, seat=2, action=ROLL, expected_version=0, key="roll"
    )


async def test_a_member_gets_the_view_on_connect_and_after_each_action(
    make_game: GameMaker,
) -> None:
    game, users = await sync_to_async(make_game)(3)
    zargon, hero = await connect(game, users[1]), await connect(game, users[3])

    first = await zargon.receive_json_from()
    assert first == {
        "type": "view",
        "version": 0,
        "view": await sync_to_async(game_view)(game_id=game.pk, user=users[1]),
    }
    assert (await hero.receive_json_from())["view"]["seat"] == 3

    await play_roll(game)

    for communicator, user in ((zargon, users[1]), (hero, users[3])):
        frame = await communicator.receive_json_from()
        expected = await sync_to_async(game_view)(game_id=game.pk, user=user)
        assert frame == {"type": "view", "version": 1, "view": expected}
        assert await communicator.receive_nothing()
        await communicator.disconnect()


async def test_anonymous_and_non_members_are_closed_with_4403(make_game: GameMaker) -> None:
    game, _ = await sync_to_async(make_game)(2)
    stranger = await sync_to_async(make_user)()
    for user in (AnonymousUser(), stranger):
        communicator = await connect(game, user)
        assert await communicator.receive_output() == {"type": "websocket.close", "code": 4403}
        await communicator.disconnect()
    communicator = await connect(Game(pk=999_999), stranger)
    assert (await communicator.receive_output())["code"] == 4403
    await communicator.disconnect()


async def test_ping_refresh_and_malformed_frames(make_game: GameMaker) -> None:
    game, users = await sync_to_async(make_game)(2)
    communicator = await connect(game, users[2])
    await communicator.receive_json_from()

    await communicator.send_json_to({"type": "ping"})
    assert await communicator.receive_json_from() == {"type": "pong"}
    for bad in ("not json", "[1, 2]", '{"type": "dance"}', '"ping"', "[" * 1000 + "]" * 1000):
        await communicator.send_to(text_data=bad)
        frame = await communicator.receive_json_from()
        assert frame["type"] == "error" and frame["error"]
    await communicator.send_to(bytes_data=b"\x00\x01")
    assert (await communicator.receive_json_from())["type"] == "error"

    await communicator.send_json_to({"type": "refresh"})  # still open and answering
    frame = await communicator.receive_json_from()
    assert (frame["type"], frame["version"], frame["view"]["seat"]) == ("view", 0, 2)
    await communicator.disconnect()


async def test_the_group_message_carries_no_game_content(make_game: GameMaker) -> None:
    game, _ = await sync_to_async(make_game)(2)
    layer = get_channel_layer()
    assert layer is not None
    channel = await layer.new_channel()
    await layer.group_add(game_group(game_id=game.pk), channel)

    await play_roll(game)

    assert await layer.receive(channel) == {"type": "game.changed", "version": 1}
    await layer.group_discard(game_group(game_id=game.pk), channel)


async def test_a_stale_or_repeated_change_message_sends_nothing_new(make_game: GameMaker) -> None:
    game, users = await sync_to_async(make_game)(2)
    communicator = await connect(game, users[2])
    await communicator.receive_json_from()
    layer = get_channel_layer()
    assert layer is not None
    await layer.group_send(game_group(game_id=game.pk), {"type": "game.changed", "version": 0})
    assert await communicator.receive_nothing()
    await communicator.disconnect()


async def test_the_full_asgi_stack_authenticates_with_the_session_cookie(
    make_game: GameMaker,
) -> None:
    game, users = await sync_to_async(make_game)(2)
    client = Client()
    await sync_to_async(client.force_login)(users[2])
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    headers = [(b"origin", b"http://testserver"), (b"cookie", cookie.encode())]

    member = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)
    assert (await member.connect())[0]
    assert (await member.receive_json_from())["view"]["seat"] == 2
    await member.disconnect()

    anonymous = WebsocketCommunicator(
        application, f"/ws/games/{game.pk}/", headers=[(b"origin", b"http://testserver")]
    )
    assert (await anonymous.connect())[0]
    assert (await anonymous.receive_output())["code"] == 4403
    await anonymous.disconnect()


async def test_each_seats_view_is_built_once_per_version_whatever_the_sockets(
    make_game: GameMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, users = await sync_to_async(make_game)(3)
    sockets = [await connect(game, users[seat]) for seat in (1, 1, 1, 3, 3)]
    for socket in sockets:
        await socket.receive_json_from()
    built: list[int] = []
    real_seat_view = HeroQuest.seat_view

    def counted_seat_view(face: HeroQuest, state: rules.State, seat: int) -> dict[str, Any]:
        built.append(seat)
        return real_seat_view(face, state, seat)

    monkeypatch.setattr(HeroQuest, "seat_view", counted_seat_view)
    await play_roll(game)

    frames = [await socket.receive_json_from() for socket in sockets]
    assert {(f["version"], f["view"]["seat"]) for f in frames} == {(1, 1), (1, 3)}
    assert sorted(built) == [1, 3]
    for socket in sockets:
        await socket.disconnect()


async def test_membership_is_checked_again_when_a_seat_changes_hands(
    make_game: GameMaker,
) -> None:
    game, users = await sync_to_async(make_game)(2)
    leaving, staying = await connect(game, users[2]), await connect(game, users[1])
    await leaving.receive_json_from()
    await staying.receive_json_from()
    newcomer = await sync_to_async(make_user)()

    def hand_seat_2_over() -> None:
        Seat.objects.filter(room_id=game.room_id, number=2).update(user=newcomer)
        game_seats_changed(game_id=game.pk)

    await sync_to_async(hand_seat_2_over)()

    assert await leaving.receive_output() == {"type": "websocket.close", "code": 4403}
    frame = await staying.receive_json_from()  # still Zargon, told again
    assert (frame["version"], frame["view"]["seat"]) == (0, 1)
    await leaving.disconnect()
    await staying.disconnect()


async def test_refresh_frames_are_rate_limited(make_game: GameMaker, settings: Any) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "ws_refresh": "2/m"}
    game, users = await sync_to_async(make_game)(2)
    communicator = await connect(game, users[2])
    await communicator.receive_json_from()

    frames = []
    for _ in range(3):
        await communicator.send_json_to({"type": "refresh"})
        frames.append(await communicator.receive_json_from())

    assert [f["type"] for f in frames] == ["view", "view", "error"]
    assert frames[2]["error"].startswith("Too many refreshes")
    await communicator.send_json_to({"type": "ping"})  # the socket lives on
    assert await communicator.receive_json_from() == {"type": "pong"}
    await communicator.disconnect()


async def test_a_new_view_reaches_the_socket_while_the_request_thread_is_busy(
    make_game: GameMaker,
) -> None:
    """Django serves a process's requests on one thread; a socket's view is built on threads of
    its own, so a frame is not queued behind the requests (nor they behind it)."""
    game, users = await sync_to_async(make_game)(3)
    zargon = await connect(game, users[1])
    await zargon.receive_json_from()
    await play_roll(game)
    release = threading.Event()
    busy_requests = asyncio.ensure_future(sync_to_async(release.wait)())  # that one thread
    try:
        frame = await zargon.receive_json_from(timeout=10)
    finally:
        release.set()
        await busy_requests
    assert (frame["version"], frame["view"]["seat"]) == (1, 1)
    await zargon.disconnect()


async def connect_page(game: Game, user: User, socket: str) -> WebsocketCommunicator:
    """A page's game socket, opened with the page's socket id (static/js/table/net.js)."""
    communicator = WebsocketCommunicator(
        URLRouter(websocket_urlpatterns), f"/ws/games/{game.pk}/?socket={socket}"
    )
    communicator.scope["user"] = user
    assert (await communicator.connect())[0]
    assert (await communicator.receive_json_from())["version"] == 0
    return communicator


async def page_plays(
    game: Game, user: User, action: dict[str, Any], version: int, socket: str | None
) -> Any:
    return await sync_to_async(game_action_submit)(
        game_id=game.pk,
        user=user,
        action=action,
        expected_version=version,
        key=f"{socket}-{version}",
        socket=socket,
    )


async def test_the_acting_page_is_not_sent_its_own_view_again(make_game: GameMaker) -> None:
    """The page that played an action has the new view from its answer: its socket skips that
    version. The same user's other tab, a socket with no id, every other seat, and a socket of
    another user that happens to carry the same id all get their frames; the next version
    reaches the acting page again."""
    game, users = await sync_to_async(make_game)(3)
    acting = await connect_page(game, users[2], "page-one-0001")
    other_tab = await connect_page(game, users[2], "page-two-0002")
    without_id = await connect(game, users[2])
    await without_id.receive_json_from()
    same_id_other_user = await connect_page(game, users[1], "page-one-0001")
    other_seat = await connect_page(game, users[3], "page-three-03")

    answer = await page_plays(game, users[2], ROLL, 0, "page-one-0001")

    assert answer.view.version == 1
    for communicator, user in (
        (other_tab, users[2]),
        (without_id, users[2]),
        (same_id_other_user, users[1]),
        (other_seat, users[3]),
    ):
        frame = await communicator.receive_json_from()
        expected = await sync_to_async(game_view)(game_id=game.pk, user=user)
        assert frame == {"type": "view", "version": 1, "view": expected}
    assert await acting.receive_nothing()
    assert (
        answer.view.frame()
        == (
            await sync_to_async(game_seat_view_encoded)(game_id=game.pk, seat=2, state_needed=False)
        ).frame()
    )  # what the socket would have sent: the answer brought it

    # The other tab plays next: now it is the one that hears nothing, the first tab hears v2.
    await page_plays(game, users[2], {"type": "end_turn", "hero": "barbarian"}, 1, "page-two-0002")
    frame = await acting.receive_json_from()
    assert (frame["version"], frame["view"]["seat"]) == (2, 2)
    assert await other_tab.receive_nothing()
    for communicator in (without_id, same_id_other_user, other_seat):
        assert (await communicator.receive_json_from())["version"] == 2

    # A refresh still answers with the view: only the poke of its own action is skipped.
    await acting.send_json_to({"type": "refresh"})
    assert (await acting.receive_json_from())["version"] == 2
    for communicator in (acting, other_tab, without_id, same_id_other_user, other_seat):
        assert await communicator.receive_nothing()
        await communicator.disconnect()


async def test_a_poke_naming_a_socket_skips_it_only_for_its_user_and_seat(
    make_game: GameMaker,
) -> None:
    """A socket id is no key to another person's frames: a poke naming the socket but another
    user or seat (a page that sent someone else's id) leaves that socket's frame alone."""
    game, users = await sync_to_async(make_game)(3)
    page = await connect_page(game, users[2], "page-one-0001")
    await play_roll(game)  # version 1, played by the site: every socket hears of it
    assert (await page.receive_json_from())["version"] == 1
    layer = get_channel_layer()
    assert layer is not None
    group = game_group(game_id=game.pk)
    for version, answered in (
        (2, {"socket": "page-one-0001", "user": users[3].pk, "seat": 2}),
        (3, {"socket": "page-one-0001", "user": users[2].pk, "seat": 3}),
        (4, {"socket": "page-one-0001", "user": users[2].pk}),
        (5, "page-one-0001"),
    ):
        await sync_to_async(_bump_version)(game.pk)
        await layer.group_send(
            group, {"type": "game.changed", "version": version, "answered": answered}
        )
        assert (await page.receive_json_from())["version"] == version
    await page.disconnect()


def _bump_version(game_id: int) -> None:
    """A newer version of the game (its state unchanged), as an action would leave it."""
    Game.objects.filter(pk=game_id).update(version=F("version") + 1)


async def test_a_malformed_socket_id_is_no_id(make_game: GameMaker) -> None:
    game, users = await sync_to_async(make_game)(2)
    page = await connect_page(game, users[2], "a b")  # spaces: not an id
    answer = await page_plays(game, users[2], ROLL, 0, "a b")
    assert answer.view.version == 1
    assert (await page.receive_json_from())["version"] == 1
    await page.disconnect()


async def test_an_open_socket_has_the_actions_build_its_seats_view_for_it(
    make_game: GameMaker, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.SHARED_SEAT_VIEWS = True  # on with Redis: the marks live in the shared cache
    game, users = await sync_to_async(make_game)(3)
    zargon = await connect(game, users[1])
    await zargon.receive_json_from()
    marked = sync_to_async(shared_views.seats_with_sockets)
    for _ in range(100):  # the socket marks its seat just after its first frame
        if await marked(game.pk, range(4)):
            break
        await asyncio.sleep(0.01)
    assert await marked(game.pk, range(4)) == [1]
    view_cache.clear()  # Zargon's socket is in another process than the action
    reads: list[int] = []
    real_encoded = selectors.game_seat_view_encoded

    def counted(**kwargs: Any) -> Any:
        reads.append(kwargs["seat"])
        return real_encoded(**kwargs)

    monkeypatch.setattr(selectors, "game_seat_view_encoded", counted)
    await play_roll(game)

    frame = await zargon.receive_json_from()
    assert frame["version"] == 1 and frame["view"]["role"] == "zargon"
    assert reads == []  # the socket read no game: the action built its view
    await zargon.disconnect()


def _frames_without_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on, a socket that reads Redis or the game for a view fails the test."""

    async def no_shared_read(*args: Any) -> None:
        raise AssertionError("the socket read the shared cache")

    def no_build(**kwargs: Any) -> None:
        raise AssertionError("the socket built its view")

    monkeypatch.setattr(shared_views, "aget", no_shared_read)
    monkeypatch.setattr(consumers, "game_seat_view_for_socket", no_build)


async def test_a_view_carried_by_its_seats_poke_goes_out_without_reading_redis_or_the_game(
    make_game: GameMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, users = await sync_to_async(make_game)(2)
    hero = await connect(game, users[2])
    await hero.receive_json_from(timeout=5)
    view_cache.clear()  # the action was played in another process
    _frames_without_reading(monkeypatch)
    layer = get_channel_layer()
    assert layer is not None
    view = SeatView(game_id=game.pk, seat=2, version=1, json='{"seat":2,"sent":"with the poke"}')
    poke = poke_with_view({"type": "game.changed", "version": 1}, view)

    await layer.group_send(game_seat_group(game_id=game.pk, seat=2), poke)

    assert await hero.receive_from(timeout=5) == view.frame()
    await hero.disconnect()


async def test_a_seats_view_is_kept_as_that_seats_whichever_socket_hears_it(
    make_game: GameMaker,
) -> None:
    """Only seat 1's sockets are in seat 1's group; and a poke naming seat 1 that reached a
    socket of seat 3 (one that has just changed seats) is kept as seat 1's, never as seat 3's."""
    game, users = await sync_to_async(make_game)(3)
    zargon, hero = await connect(game, users[1]), await connect(game, users[3])
    await zargon.receive_json_from(timeout=5)
    await hero.receive_json_from(timeout=5)
    layer = get_channel_layer()
    assert layer is not None
    secret = SeatView(game_id=game.pk, seat=1, version=0, json='{"seat":1,"monsters":"hidden"}')
    poke = poke_with_view({"type": "game.changed", "version": 0}, secret)  # a version they have

    view_cache.clear()

    await layer.group_send(game_seat_group(game_id=game.pk, seat=1), poke)
    await layer.group_send(game_seat_group(game_id=game.pk, seat=3), poke)

    assert await hero.receive_nothing() and await zargon.receive_nothing()
    assert view_cache.get(game.pk, 3) is None
    assert view_cache.get(game.pk, 1) == secret
    await zargon.disconnect()
    await hero.disconnect()


async def test_a_socket_follows_its_users_seat_into_that_seats_group(
    make_game: GameMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, users = await sync_to_async(make_game)(3)
    player = users[2]
    socket = await connect(game, player)
    assert (await socket.receive_json_from(timeout=5))["view"]["seat"] == 2

    def seat_2_for_seat_3() -> None:  # the player swaps seat 2 for seat 3
        Seat.objects.filter(room_id=game.room_id, number=3).update(user=None)
        Seat.objects.filter(room_id=game.room_id, number=2).update(user=users[3])
        Seat.objects.filter(room_id=game.room_id, number=3).update(user=player)
        game_seats_changed(game_id=game.pk)

    await sync_to_async(seat_2_for_seat_3)()
    assert (await socket.receive_json_from(timeout=5))["view"]["seat"] == 3
    view_cache.clear()
    _frames_without_reading(monkeypatch)
    layer = get_channel_layer()
    assert layer is not None
    old = SeatView(game_id=game.pk, seat=2, version=1, json='{"seat":2}')
    new = SeatView(game_id=game.pk, seat=3, version=1, json='{"seat":3}')
    changed = {"type": "game.changed", "version": 1}

    await layer.group_send(game_seat_group(game_id=game.pk, seat=2), poke_with_view(changed, old))
    await layer.group_send(game_seat_group(game_id=game.pk, seat=3), poke_with_view(changed, new))

    assert await socket.receive_from(timeout=5) == new.frame()
    assert await socket.receive_nothing()
    assert view_cache.get(game.pk, 2) is None  # no longer in seat 2's group
    await socket.disconnect()
