"""The game websocket (`/ws/games/<id>/`): pushes the member's own seat view on every change.

Membership is checked when the socket connects, which fixes the seat it serves; it is checked
again when a seat of the game changes hands (`game.seats`), not on every change. It does not hang
on that poke: every view carries the game's access generation read with it (bumped in the
transaction that gave a seat away or stopped spectators), and a socket checked at an older
generation checks its seat again before sending it, and closes (4403) instead if its access
ended. A frame already on its way when the access ended may still go; none built after it does.
The group message only says "game changed to version V"; the seat's view of V is built once per
version (`apps.play.view_cache`: the action's request keeps its own seat's there for every
process), whatever the number of sockets and processes watching that seat, and sent as
already-encoded text. A socket only ever receives its own seat's view, and not the view
of a version its own page played: the page opens the socket with `?socket=<id>` and sends the
same id with its action (`X-Socket-Id`), whose answer carries the view; that version's poke
names the socket (with the acting user and seat), and that socket alone skips it. Table talk works
the same way: the group message carries a chat message's id only, and each socket reads it back
through `game_chat_message` (members only).
Frames sent: `{"type": "view", "version", "view"}`, `{"type": "chat", "message"}`,
`{"type": "clock"}` (the clock changed: paused, resumed, an away player), `{"type": "pong"}`,
`{"type": "error", "error"}`. Frames accepted: `{"type": "ping"}`,
`{"type": "refresh"}`.

A spectator (a logged-in user without a seat, in a room that allows them) is served the same way
as seat `SPECTATOR_SEAT`: the heroes' common view, and the table talk. When the host stops
spectators, every socket checks its seat again (`game.seats`) and a spectator's closes.

An open socket is the member's presence on the game (stored, so every process sees it): the
page's heartbeat pings keep it fresh, and while it lasts no email is sent about this game. It
also marks its seat in the shared cache (`shared_views.socket_open`, refreshed by the pings and
the frames it is sent): an action's request then builds that seat's view of the new version
from the state it holds, and the poked socket finds it there without reading the game. With
Redis the poke goes to each seat's own group instead, which each socket joins for the seat it
holds, carrying that seat's view: the socket then sends it without reading Redis either.
"""

import asyncio
import json
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.db import DatabaseSyncToAsync, database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from apps.accounts.limits import rate_limit_exceeded
from apps.accounts.models import User
from apps.core.realtime import LOBBY_GROUP, game_group, game_seat_group, socket_id_or_none
from apps.games.port import SPECTATOR_SEAT
from apps.notifications.services import presence_enter, presence_leave, presence_touch
from apps.play.errors import GameNotFound
from apps.play.notices import game_topic
from apps.play.selectors import (
    game_chat_message,
    game_ids_in_play,
    game_membership,
    game_seat_view_encoded,
    game_seat_view_for_socket,
)
from apps.play.view_cache import (
    SOCKET_MARK_SECONDS,
    SeatView,
    seat_view_of_message,
    shared_views,
    view_cache,
)

CLOSE_FORBIDDEN = 4403  # anonymous, or not a member of this game

# Views being built in this process, by (game, seat): sockets of one seat poked at once wait for
# the same build instead of each starting its own.
_building: dict[tuple[int, int], "asyncio.Future[SeatView]"] = {}

# `database_sync_to_async` would queue every socket's view build on asgiref's one thread-sensitive
# thread (under Django's ASGI handler, the one that also ran the requests: a frame then reached
# the screen seconds after its POST returned). The builds run on threads of their own, beside
# the request threads of config/request_threads.py (each holds at most one pooled connection
# while it runs).
VIEW_BUILD_THREADS = 2
_view_builders = ThreadPoolExecutor(VIEW_BUILD_THREADS, thread_name_prefix="seat-views")


def _on_view_builders(func: Callable[..., SeatView]) -> Callable[..., Any]:
    return DatabaseSyncToAsync(func, thread_sensitive=False, executor=_view_builders)


async def _newest_view(game_id: int, seat: int, at_least: int) -> SeatView:
    """The seat's view of version `at_least` or newer: cached, being built, or built now."""
    while True:
        cached = view_cache.get(game_id, seat, at_least=at_least)
        if cached is not None:
            return cached
        pending = _building.get((game_id, seat))
        if pending is None:
            return await _build(game_id, seat, at_least)
        view = await asyncio.shield(pending)
        if view.version >= at_least:
            return view
        # that build read the game before version `at_least` committed: look again


async def _build(game_id: int, seat: int, at_least: int) -> SeatView:
    """The view another process (the action's request) built, read from the shared cache on
    this loop; else built on a thread (which may find it in the shared cache by then)."""
    future: asyncio.Future[SeatView] = asyncio.get_running_loop().create_future()
    _building[(game_id, seat)] = future
    try:
        view = await shared_views.aget(game_id, seat, at_least)
        if view is not None:
            view_cache.put(view)
        else:
            view = await _on_view_builders(game_seat_view_for_socket)(
                game_id=game_id, seat=seat, at_least=at_least
            )
    except BaseException as exc:
        future.set_exception(exc)
        future.exception()  # retrieved: waiters get it, nobody is warned about it
        raise
    else:
        future.set_result(view)
        return view
    finally:
        _building.pop((game_id, seat), None)


async def _current_view(game_id: int, seat: int, *, state_needed: bool) -> SeatView:
    view: SeatView = await _on_view_builders(game_seat_view_encoded)(
        game_id=game_id, seat=seat, state_needed=state_needed
    )
    return view


class OffRequestThreadConsumer(AsyncJsonWebsocketConsumer):
    """A consumer whose messages are handled without a hop onto the request thread.

    Channels' `dispatch` first closes old database connections through asgiref's one
    thread-sensitive thread (under Django's ASGI handler, the requests' thread), so every message
    to every socket (a "game changed" poke to each watcher) waited its turn there. Here every
    database call goes through
    `DatabaseSyncToAsync`, which closes old connections around each call itself, so that hop
    is left out.
    """

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


class GameConsumer(OffRequestThreadConsumer):
    game_id: int
    seat: int | None = None
    group: str | None = None
    version: int = -1
    # The game's access generation when this socket's seat was last checked: a view built at a
    # newer one means a seat changed hands (or spectators were switched off) since, and the
    # socket checks again before it sends anything, whether or not the poke saying so came.
    generation: int = -1
    # The page's id for this socket (`?socket=`): the actions that page plays are answered with
    # their view, so their pokes, naming it, send it nothing.
    socket_id: str | None = None
    # The seat this socket last marked as having a socket open (`shared_views.socket_open`),
    # and when (time.monotonic()).
    marked: tuple[int, float] | None = None
    # The group of this socket's seat (`game_seat_group`), where the actions' requests send their
    # pokes, with that seat's new view, on the pub/sub layer.
    seat_group: str | None = None

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.socket_id = socket_id_or_none((query.get("socket") or [None])[0])
        # Accept first so that the close code reaches the client (a refused handshake loses it).
        await self.accept()
        if not await self._check_seat():
            return
        # Join before reading the view: a change committed in between is then not missed.
        group = game_group(game_id=self.game_id)
        await self.channel_layer.group_add(group, self.channel_name)
        self.group = group
        await self._follow_seat_group()
        if self.seat != SPECTATOR_SEAT:  # a spectator is told nothing, so has no presence
            await database_sync_to_async(presence_enter)(
                user_id=self.scope["user"].pk,
                topic=game_topic(game_id=self.game_id),
                channel_name=self.channel_name,
            )
        await self._send_view(force=True)
        await self._mark_socket_open()

    async def _check_seat(self) -> bool:
        """Find the seat this socket's user plays; close the socket if there is none."""
        user = self.scope.get("user")
        try:
            if user is None or not user.is_authenticated:
                raise GameNotFound("There is no such game.")
            game, self.seat = await database_sync_to_async(game_membership)(
                game_id=self.game_id, user=user, watch=True
            )
            self.generation = game.access_generation
            if self.group is not None:  # connected: its seat's group follows the seat
                await self._follow_seat_group()
        except GameNotFound:
            self.seat = None
            await self.disconnect(CLOSE_FORBIDDEN)
            await self.close(code=CLOSE_FORBIDDEN)
            return False
        return True

    async def _follow_seat_group(self) -> None:
        """Be in the group of this socket's seat, and of no other seat."""
        seat_group = None
        if self.seat is not None:
            seat_group = game_seat_group(game_id=self.game_id, seat=self.seat)
        if seat_group == self.seat_group:
            return
        if self.seat_group is not None:
            await self.channel_layer.group_discard(self.seat_group, self.channel_name)
        self.seat_group = seat_group
        if seat_group is not None:
            await self.channel_layer.group_add(seat_group, self.channel_name)

    async def disconnect(self, code: int) -> None:
        if self.seat_group is not None:
            await self.channel_layer.group_discard(self.seat_group, self.channel_name)
            self.seat_group = None
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = None
            await database_sync_to_async(presence_leave)(channel_name=self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.group is None:
            return
        if text_data is None:
            await self._error("Send JSON text frames.")
            return
        try:
            content = json.loads(text_data)
        except (ValueError, RecursionError):  # RecursionError: nested thousands deep
            await self._error("That frame is not JSON (or is nested too deep).")
            return
        await self.receive_json(content)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "ping":
            await database_sync_to_async(presence_touch)(channel_name=self.channel_name)
            await self.send_json({"type": "pong"})
            await self._mark_socket_open()
        elif kind == "refresh":
            user = self.scope["user"]
            limited = await sync_to_async(rate_limit_exceeded)(
                group="ws_refresh", key=f"user:{user.pk}"
            )
            if limited:
                await self._error("Too many refreshes: the view is sent when the game changes.")
                return
            await self._send_view(force=True)
        else:
            await self._error('Unknown frame: send {"type": "ping"} or {"type": "refresh"}.')

    async def game_changed(self, message: dict[str, Any]) -> None:
        """The group message: a newer version exists; send this seat's view if we are behind.

        A poke to this seat's group may carry the seat's view (`poke_with_view`): it is kept for
        this process's sockets of the seat it names (which a socket that has just changed seats
        may not hold), and sent as any view, after this socket's checks."""
        carried = seat_view_of_message(message)
        if carried is not None and carried.game_id == self.game_id:
            view_cache.put(carried)
        version = message.get("version")
        if not isinstance(version, int):
            version = self.version + 1
        if version <= self.version:
            return
        if self._answered(message.get("answered")):
            # This socket's page played the action: its answer carried this version's view.
            self.version = version
            return
        await self._send_view(force=False, at_least=version)

    def _answered(self, answered: Any) -> bool:
        """The poke's version was played from this socket's page, by its user, from its seat."""
        user = self.scope.get("user")
        return (
            self.socket_id is not None
            and isinstance(answered, dict)
            and answered.get("socket") == self.socket_id
            and user is not None
            and answered.get("user") == user.pk
            and answered.get("seat") == self.seat
        )

    async def game_seats(self, message: dict[str, Any]) -> None:
        """A seat changed hands: check again which seat (if any) this socket's user plays."""
        if self.group is not None and await self._check_seat():
            await self._send_view(force=True)

    async def game_clock(self, message: dict[str, Any]) -> None:
        """The game's clock changed (paused, resumed, an away player): the page redraws it."""
        if self.seat is not None:
            await self.send_json({"type": "clock"})

    async def chat_posted(self, message: dict[str, Any]) -> None:
        """The group message: a chat message was posted; send it if this user may read it."""
        message_id = message.get("id")
        if self.seat is None or not isinstance(message_id, int):
            return
        try:
            chat = await database_sync_to_async(game_chat_message)(
                game_id=self.game_id, user=self.scope["user"], message_id=message_id
            )
        except GameNotFound:  # the seat changed hands, or spectators were switched off
            self.seat = None
            await self.disconnect(CLOSE_FORBIDDEN)
            await self.close(code=CLOSE_FORBIDDEN)
            return
        if chat is not None:
            await self.send_json({"type": "chat", "message": chat})

    async def _send_view(self, *, force: bool, at_least: int | None = None) -> None:
        """Send the seat's view if newer than the last one sent (or anyway, with `force`).

        Without `at_least` (connecting, refresh) the game row says which version is current.
        """
        if self.seat is None:
            return
        try:
            if at_least is None:
                view = await _current_view(self.game_id, self.seat, state_needed=False)
            else:
                view = await _newest_view(self.game_id, self.seat, at_least)
        except GameNotFound:
            await self.disconnect(CLOSE_FORBIDDEN)
            await self.close(code=CLOSE_FORBIDDEN)
            return
        if view.generation > self.generation:  # access changed since this socket was checked
            seat = self.seat
            if not await self._check_seat():
                return  # closed: its access ended, and no frame left for it
            if self.seat != seat:  # the user holds another seat now: that seat's view
                await self._send_view(force=True)
                return
        if not force and view.version <= self.version:
            return
        self.version = view.version
        await self.send(text_data=view.frame())
        await self._mark_socket_open()

    async def _mark_socket_open(self) -> None:
        """Tell every process this socket's seat has a socket open, if not told lately: their
        actions' requests then build its views (a page that never pings is marked as it is sent
        them)."""
        if self.seat is None or self.group is None:
            return
        now = time.monotonic()
        marked_seat, marked_at = self.marked or (None, 0.0)
        if marked_seat == self.seat and now - marked_at < SOCKET_MARK_SECONDS / 3:
            return
        self.marked = (self.seat, now)
        await sync_to_async(shared_views.socket_open, thread_sensitive=False)(
            self.game_id, self.seat
        )

    async def _error(self, error: str) -> None:
        await self.send_json({"type": "error", "error": error})


class LobbyConsumer(OffRequestThreadConsumer):
    """The lobby's websocket (`/ws/lobby/`): content-free pokes when the lobby would change.

    It listens to every room's changes (rooms created, filled, launched, finished) and to the
    games its user plays in, and sends only `{"type": "changed"}`: the page then fetches itself
    again, so the socket carries nothing the page would not show. The games are looked up when
    the socket connects and again on each room change (a launch adds one).
    """

    games: frozenset[int] = frozenset()
    listening = False

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.accept()
            await self.close(code=CLOSE_FORBIDDEN)
            return
        # Join before accepting: once the socket is open, no change can slip past it.
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        self.listening = True
        await self._follow_games(user)
        await self.accept()

    async def _follow_games(self, user: User) -> None:
        games = frozenset(await database_sync_to_async(game_ids_in_play)(user=user))
        for game_id in games - self.games:
            await self.channel_layer.group_add(game_group(game_id=game_id), self.channel_name)
        for game_id in self.games - games:
            await self.channel_layer.group_discard(game_group(game_id=game_id), self.channel_name)
        self.games = games

    async def disconnect(self, code: int) -> None:
        if self.listening:
            await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)
            for game_id in self.games:
                await self.channel_layer.group_discard(
                    game_group(game_id=game_id), self.channel_name
                )
            self.listening, self.games = False, frozenset()

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if self.listening and isinstance(content, dict) and content.get("type") == "ping":
            await self.send_json({"type": "pong"})

    async def room_changed(self, message: dict[str, Any]) -> None:
        await self._follow_games(self.scope["user"])
        await self.send_json({"type": "changed"})

    async def game_changed(self, message: dict[str, Any]) -> None:
        """Only a change of whose turn it is (or the end) changes what the lobby shows."""
        if message.get("turn"):
            await self.send_json({"type": "changed"})

    async def chat_posted(self, message: dict[str, Any]) -> None:
        """Table talk in a followed game changes nothing the lobby shows."""

    async def game_clock(self, message: dict[str, Any]) -> None:
        """A followed game's clock changed (its deadline shows in "my games")."""
        await self.send_json({"type": "changed"})

    async def game_seats(self, message: dict[str, Any]) -> None:
        """A seat of a followed game changed hands: the user may have left it."""
        await self.room_changed(message)
