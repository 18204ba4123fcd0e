"""Reading a quest in play: the engine state of a game, membership, seat views, the log, the lobby.

Nothing here writes. A seat's view and log entries are computed by the engine for that seat only
(docs/rules.md 13), so what a reader gets is what that seat may know.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db import models
from django.db.models import Case, Count, Exists, OuterRef, Q, Subquery, Value, When
from django.db.models.functions import Coalesce

from apps.accounts.models import User
from apps.campaigns.models import CampaignRoom
from apps.core.fields import stored_json_text
from apps.core.jsontext import json_text, json_text_sharing
from apps.core.prepared import PreparedQuery
from apps.games.port import SPECTATOR_SEAT, GameFace, Json, StandingOrders
from apps.games.registry import game_face
from apps.play.clock import TurnClock, game_clock, seat_users
from apps.play.errors import GameNotFound
from apps.play.fairness import Fairness
from apps.play.models import ChatMessage, Game, GameEvent, GameWatcher
from apps.play.state_cache import state_cache
from apps.play.view_cache import SeatView, seat_view_keep, shared_views, view_cache
from apps.rooms.models import Room, Seat
from apps.rooms.services import room_member_seat

EVENTS_PAGE_MAX = 1000
CHAT_PAGE_SIZE = 50
CHAT_PAGE_MAX = 200

AnyUser = User | AnonymousUser


# --- scenarios and states ----------------------------------------------------------------------


def game_face_of(game: Game) -> GameFace:
    """The face of the game `game` plays."""
    return game_face(game.kind)


@functools.lru_cache(maxsize=16)
def scenario_of_source(*, game: str, slug: str, source: str) -> Any:
    """The game's scenario for a scenario file's text (cached: parsing on every action is slow)."""
    return game_face(game).scenario_parse(slug, source)


def game_kind_json(*, face: GameFace) -> dict[str, Any]:
    """What a client needs to know of a game to open a room of it (GET /api/games/kinds)."""
    return {
        "slug": face.slug,
        "name": face.name,
        "min_seats": face.min_seats,
        "max_seats": face.max_seats,
        "ai_seat": face.ai_seat,
        "has_campaigns": face.has_campaigns,
        "scenarios": [{"slug": s.slug, "name": s.name} for s in face.scenarios()],
        "options": [
            {
                "name": o.name,
                "label": o.label,
                "default": o.default,
                "choices": [list(c) for c in o.choices],
                "help": o.help,
            }
            for o in face.option_specs()
        ],
        "seat_roles": [
            {"number": r.number, "role": r.role, "label": r.label, "pieces": list(r.pieces)}
            for r in face.seat_roles(face.max_seats)
        ],
        "timeout_rule": face.timeout_rule(),
    }


def game_scenario(*, game: Game) -> Any:
    """The scenario `game` was launched with (its own copy of the scenario file)."""
    return scenario_of_source(game=game.kind, slug=game.quest_slug, source=game.quest_source)


def game_state(*, game: Game) -> Any:
    """The game's state as stored in `game`, without the players' settings: the one this
    process keeps (apps/play/state_cache.py) if it is that one, else decoded (and kept)."""
    scenario = game_scenario(game=game)
    text = stored_json_text(game, "state")
    if text is None:  # read already: the text it would be stored as
        text = json_text(game.state)
    where = {"game_id": game.pk, "version": game.version, "scenario": scenario}
    state = state_cache.get(**where, text=text)
    if state is None:
        state = game_face_of(game).state_from_json(game.state, scenario)
        state_cache.put(**where, text=text, state=state)
    return state


def game_state_in_play(*, game: Game) -> Any:
    """The game's state with the players' private settings in force (what views show)."""
    state = game_state(game=game)
    return game_face_of(game).with_settings(state, game.settings) if game.settings else state


# --- standing orders (apps/play/orders.py) ------------------------------------------------------


def orders_face(face: GameFace) -> StandingOrders | None:
    """The game's standing orders, if it takes any (apps/games/port.py, `StandingOrders`)."""
    return face if isinstance(face, StandingOrders) else None


def seat_orders(game: Game, seat: int) -> Json:
    """The standing orders `seat` has queued in `game` (read from the row; empty: none)."""
    return dict((game.orders.get(str(seat)) or {}).get("orders") or {})


def orders_due(*, game: Game, state: Any) -> list[int]:
    """The seats now to move whose standing orders play a step now, or stop before it (a
    monster in sight as the turn begins), from the row, no query: the action service skips
    their "your turn" notice and enqueues the orders instead, which play or stop them, and
    their player is told why (orders that stop are never left to play a later turn)."""
    face = orders_face(game_face_of(game)) if game.orders else None
    if face is None or game.outcome:
        return []
    due = []
    for seat in game.to_move:
        orders = seat_orders(game, seat)
        if not orders:
            continue
        step = face.next_order_step(state, seat, orders)
        if step.action is not None or step.stop_reason:
            due.append(seat)
    return due


# --- membership --------------------------------------------------------------------------------


def member_seat(user: AnyUser) -> Subquery | Value:
    """The seat `user` holds in the outer Game's room, as an annotation (NULL: not a member)."""
    if not user.is_authenticated:
        return Value(None, output_field=models.IntegerField())
    seats = Seat.objects.filter(room=OuterRef("room_id"), user=user).order_by().values("number")
    return Subquery(seats[:1], output_field=models.IntegerField())


def watcher_seat(user: AnyUser) -> Coalesce | Value:
    """The seat `user` holds in the outer Game's room, else SPECTATOR_SEAT if the room lets
    logged-in people watch, as an annotation (NULL: may not see the game at all)."""
    if not user.is_authenticated:
        return Value(None, output_field=models.IntegerField())
    # An invite-only room's game is watched only by those who opened the host's link
    # (`GameWatcher`): its id alone, sequential, must not lead anyone in.
    invited = Exists(GameWatcher.objects.filter(game=OuterRef("pk"), user=user))
    watching = Case(
        When(
            Q(room__allow_spectators=True) & (Q(room__invite_only=False) | invited),
            then=Value(SPECTATOR_SEAT),
        ),
        default=Value(None),
        output_field=models.IntegerField(),
    )
    return Coalesce(member_seat(user), watching, output_field=models.IntegerField())


def game_seat_for_user(*, game: Game, user: AnyUser) -> int | None:
    """The seat `user` plays in `game`, or None (not a member)."""
    return room_member_seat(room=game.room, user=user)


def game_membership(*, game_id: int, user: AnyUser, watch: bool = False) -> tuple[Game, int]:
    """The game and the seat `user` plays in it (GameNotFound for non-members); one query.

    `watch`: reading only, so a spectator of a room that allows them gets SPECTATOR_SEAT (the
    heroes' common view); writers leave it off and so never see a spectator as a seat.
    """
    game = (
        Game.objects.select_related("room")
        .annotate(member_seat=watcher_seat(user) if watch else member_seat(user))
        .filter(pk=game_id)
        .first()
    )
    if game is None or game.member_seat is None:
        raise GameNotFound("There is no such game.")
    return game, int(game.member_seat)


def entry_for_seat(
    face: GameFace, payload: dict[str, Any], version: int, seat: int
) -> dict[str, Any] | None:
    """A log entry as `seat` may see it (None: nothing), with the version that produced it."""
    entry = face.event_for_seat(payload, seat)
    if entry is None:
        return None
    entry = dict(entry)
    entry["version"] = version
    return entry


# --- what a seat sees --------------------------------------------------------------------------


def _seat_view_dict(game: Game, view: dict[str, Any]) -> dict[str, Any]:
    view = dict(view)
    view["version"] = game.version
    view["game_id"] = game.pk
    return game_ended_view(game=game, view=view)


def game_ended_view(*, game: Game, view: dict[str, Any]) -> dict[str, Any]:
    """`view` as the game's row says: a game ended outside the engine (an admin's
    `abandoned`, which the engine state never holds) shows that outcome and offers no action."""
    if game.outcome and not view.get("outcome"):
        view["outcome"] = game.outcome
        view["legal_actions"] = []
    return view


def seat_view_of_state(*, game: Game, seat: int, state: Any) -> SeatView:
    """`seat`'s view of `state` (the game's state at `game.version`, settings in), encoded."""
    face = game_face_of(game)
    view = face.seat_view(state, seat)
    text = json_text_sharing(_seat_view_dict(game, view), face.shared_view_parts)
    return SeatView(
        game_id=game.pk,
        seat=seat,
        version=game.version,
        json=text,
        outcome=game.outcome,
        generation=game.access_generation,
    )


def seat_views_for_sockets(*, game: Game, state: Any, built: SeatView | None) -> list[SeatView]:
    """The views of the seats of `game` with a socket open (in any process), from `state`, its
    state at `game.version`, each kept in this process (`built`: a seat's view built already,
    among them only if that seat has a socket open): the action's request builds them once
    committed and sends them to the shared cache with its poke (`put_many_then_poke`), so the
    poked sockets find their views without reading the game."""
    views = []
    for seat in shared_views.seats_with_sockets(game.pk, range(SPECTATOR_SEAT, game.seats + 1)):
        if built is not None and seat == built.seat:
            views.append(built)
        else:
            views.append(seat_view_of_state(game=game, seat=seat, state=state))
            view_cache.put(views[-1])
    return views


def game_seat_view_cached(*, game: Game, seat: int, shared_missed: int | None = None) -> SeatView:
    """The seat's view of `game` as loaded: from this process's cache, from the cache every
    process shares, or built (and kept in both). `shared_missed`: a version the caller has just
    looked for in the shared cache and not found, not asked for again."""
    cached = view_cache.get(game.pk, seat, at_least=game.version)
    if cached is not None and cached.is_as_new_as(version=game.version, outcome=game.outcome):
        if cached.generation < game.access_generation:  # the row read now knows better
            cached = dataclasses.replace(cached, generation=game.access_generation)
            view_cache.put(cached)
        return cached
    shared = (
        None if game.version == shared_missed else shared_views.get(game.pk, seat, game.version)
    )
    if shared is None and not shared_views.claim(game.pk, seat, game.version):
        shared = shared_views.wait_for(game.pk, seat, game.version)  # another process builds it
    if shared is not None and shared.is_as_new_as(version=game.version, outcome=game.outcome):
        if shared.generation < game.access_generation:
            shared = dataclasses.replace(shared, generation=game.access_generation)
        view_cache.put(shared)
        return shared
    view = seat_view_of_state(game=game, seat=seat, state=game_state_in_play(game=game))
    seat_view_keep(view)
    return view


def game_seat_view(*, game: Game, seat: int) -> dict[str, Any]:
    """The engine's seat view of `game`, plus `version` and `game_id`."""
    view = game_face_of(game).seat_view(game_state_in_play(game=game), seat)
    return _seat_view_dict(game, view)


def game_view(*, game_id: int, user: AnyUser) -> dict[str, Any]:
    """The view of the seat `user` plays, or a spectator's (GameNotFound for anyone else)."""
    game, seat = game_membership(game_id=game_id, user=user, watch=True)
    return game_seat_view(game=game, seat=seat)


def _viewed_game_rows(*, game_id: int, user_id: int) -> models.QuerySet[Game]:
    """The game row without its state, with the seat user `user_id` may watch it from."""
    watcher = User(pk=user_id)
    return (
        Game.objects.defer("state").annotate(member_seat=watcher_seat(watcher)).filter(pk=game_id)
    )


def _game_rows(*, game_id: int, state_needed: bool) -> models.QuerySet[Game]:
    return (Game.objects.all() if state_needed else Game.objects.defer("state")).filter(pk=game_id)


# The rows every view GET and every socket's build reads, compiled to SQL once per database
# (apps/core/prepared.py): building and compiling them was a tenth of a busy web process. The
# stand-ins are ids no row has.
_GAME_ID, _USER_ID = -1_000_001, -1_000_003
_VIEWED_GAME = PreparedQuery(_viewed_game_rows, game_id=_GAME_ID, user_id=_USER_ID)
_GAME = {
    needed: PreparedQuery(functools.partial(_game_rows, state_needed=needed), game_id=_GAME_ID)
    for needed in (False, True)
}


def _is_an_id(game_id: int) -> bool:
    return 0 < game_id < 2**63  # a prepared statement skips the ORM's range check


def game_view_encoded(*, game_id: int, user: AnyUser) -> SeatView:
    """`game_view` as JSON text, built at most once per version and seat in this process.

    One query (membership, version, settings); the state is read only if the cache has nothing
    as new as the row.
    """
    if not _is_an_id(game_id):
        raise GameNotFound("There is no such game.")
    if user.is_authenticated:
        game = _VIEWED_GAME.first(game_id=game_id, user_id=user.pk)
    else:
        games = Game.objects.defer("state").annotate(member_seat=watcher_seat(user))
        game = games.filter(pk=game_id).first()
    seat = None if game is None else getattr(game, "member_seat", None)
    if game is None or seat is None:
        raise GameNotFound("There is no such game.")
    return game_seat_view_cached(game=game, seat=int(seat))


def game_seat_view_encoded(
    *, game_id: int, seat: int, state_needed: bool, shared_missed: int | None = None
) -> SeatView:
    """The current view of `seat`, for a socket whose membership was checked when it joined.

    `state_needed`: the caller knows the cache has nothing as new, so the state is read with the
    row; otherwise it is read only if the cache has nothing as new as the row. `shared_missed`:
    as for `game_seat_view_cached`.
    """
    game = _GAME[state_needed].first(game_id=game_id) if _is_an_id(game_id) else None
    if game is None:
        raise GameNotFound("There is no such game.")
    return game_seat_view_cached(game=game, seat=seat, shared_missed=shared_missed)


def game_seat_view_for_socket(*, game_id: int, seat: int, at_least: int) -> SeatView:
    """The view of version `at_least` (or newer) for a poked socket: the one another process
    (the action's request, another socket) built, without reading the game; else built."""
    shared = shared_views.get(game_id, seat, at_least)
    if shared is not None:
        view_cache.put(shared)
        return shared
    return game_seat_view_encoded(
        game_id=game_id, seat=seat, state_needed=True, shared_missed=at_least
    )


def game_events(
    *,
    game_id: int,
    user: AnyUser,
    after: int = 0,
    before: int | None = None,
    limit: int = EVENTS_PAGE_MAX,
) -> list[dict[str, Any]]:
    """The log entries after engine sequence number `after` (or the newest ones before
    `before`), as the user's seat may see them, oldest first.

    Entries carry the engine's `seq` (as in the view's `log`) and the `version` that produced
    them; at most `limit` entries (ask again after the last `seq`, or before the first, for
    more). Pages are found through the (game, event_seq) index, so a page costs the same at the
    start and at the end of a long log. Accepted actions are not served: what a seat may know of
    them is in the engine's events. A spectator gets the entries addressed to everyone.
    """
    game, seat = game_membership(game_id=game_id, user=user, watch=True)
    limit = max(1, min(limit, EVENTS_PAGE_MAX))
    # (A negative bound would match every row, actions included: the column is unsigned.)
    rows = GameEvent.objects.filter(game_id=game.pk, event_seq__gt=max(after, 0))
    if before is not None:
        rows = rows.filter(event_seq__lt=before)
    rows = rows.only("version", "payload", "event_seq")
    face = game_face_of(game)
    newest_first = before is not None
    entries: list[dict[str, Any]] = []
    while len(entries) < limit:
        # Keyset pages: each one continues from the last row seen, through the index.
        batch = list(rows.order_by("-event_seq" if newest_first else "event_seq")[:limit])
        for row in batch:
            entry = entry_for_seat(face, row.payload, row.version, seat)
            if entry is not None and len(entries) < limit:
                entries.append(entry)
        if len(batch) < limit:
            break
        last = batch[-1].event_seq
        rows = rows.filter(event_seq__lt=last) if newest_first else rows.filter(event_seq__gt=last)
    return entries[::-1] if newest_first else entries


# --- fair dice ---------------------------------------------------------------------------------


def game_fairness(*, game: Game) -> Fairness:
    """The seed's commitment; the seed and its salt too once the quest is over (not before:
    with the seed anyone could foresee every die and read the treasure deck)."""
    if not game.seed_commitment:  # launched before commitments: nothing to check against
        return Fairness(commitment="", revealed=False)
    if not game.outcome:
        return Fairness(commitment=game.seed_commitment, revealed=False)
    return Fairness(
        commitment=game.seed_commitment, revealed=True, seed=game.seed, salt=game.seed_salt
    )


# --- table talk --------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChatPage:
    """Messages oldest first; `more`: there are older ones (newer ones, when paging `after`)."""

    messages: list[dict[str, Any]]
    more: bool


def chat_message_json(message: ChatMessage) -> dict[str, Any]:
    """A message as the players' clients get it: its `text` is plain text, never markup."""
    if message.kind == ChatMessage.Kind.NARRATOR:
        name = "The narrator"
    elif message.kind == ChatMessage.Kind.PARCHMENT:
        name = "The parchment"
    else:
        name = str(message.author) if message.author is not None else "A former player"
    return {
        "id": message.pk,
        "kind": message.kind,
        "name": name,
        "seat": message.seat,
        "text": message.text,
        "created": message.created.isoformat(),
    }


def game_chat(
    *,
    game_id: int,
    user: AnyUser,
    before: int | None = None,
    after: int | None = None,
    limit: int = CHAT_PAGE_SIZE,
) -> ChatPage:
    """A page of the game's chat for a member (GameNotFound for anyone else), by message id.

    Without `after`: the latest `limit` messages before id `before` (or the latest of all);
    with `after`: the first `limit` messages after that id (catching up after a reconnect).
    Spectators read it too (table talk is said in front of them); they cannot post.
    """
    game, _ = game_membership(game_id=game_id, user=user, watch=True)
    limit = max(1, min(limit, CHAT_PAGE_MAX))
    rows = game.chat.select_related("author")
    if after is not None:
        page = list(rows.filter(id__gt=after).order_by("id")[: limit + 1])
        more = len(page) > limit
        page = page[:limit]
    else:
        if before is not None:
            rows = rows.filter(id__lt=before)
        page = list(rows.order_by("-id")[: limit + 1])
        more = len(page) > limit
        page = page[:limit][::-1]
    return ChatPage(messages=[chat_message_json(m) for m in page], more=more)


def game_chat_message(*, game_id: int, user: AnyUser, message_id: int) -> dict[str, Any] | None:
    """One message of the game's chat for a member or spectator (GameNotFound for others)."""
    game, _ = game_membership(game_id=game_id, user=user, watch=True)
    message = game.chat.select_related("author").filter(pk=message_id).first()
    return None if message is None else chat_message_json(message)


# --- the lobby ---------------------------------------------------------------------------------


@dataclass
class LobbyRoom:
    room: Room
    free_seats: int
    my_seat: int | None


@dataclass
class LobbyGame:
    game: Game
    my_seat: int
    game_name: str = ""  # the game played ("HeroQuest")
    seat_label: str = ""  # what my seat plays, in the game's words ("Zargon")
    outcome_text: str = ""  # once over: the outcome in the game's words
    to_move: list[str] = field(default_factory=list)  # shown names of the seats to move
    my_turn: bool = False
    clock: TurnClock | None = None  # the turn's deadline (None: over)

    @property
    def waiting_order(self) -> tuple[int, float]:
        """Who is waiting on me first (soonest deadline first), then the others, then the over."""
        if self.game.outcome:
            return (2, 0.0)
        deadline = self.clock.deadline if self.clock is not None else None
        return (0 if self.my_turn else 1, deadline.timestamp() if deadline else float("inf"))


@dataclass
class Lobby:
    open_rooms: list[LobbyRoom]
    my_games: list[LobbyGame]
    watchable: list[Game] = field(default_factory=list)  # others' quests open to spectators


def _seat_users(room: Room) -> dict[int, Seat]:
    return {s.number: s for s in room.seats.all()}


def _seat_shown_name(room: Room, seats: dict[int, Seat], number: int) -> str:
    if number == room.ai_seat_number:
        return "the AI"
    seat = seats.get(number)
    return str(seat.user) if seat is not None and seat.user else f"seat {number}"


def game_ids_in_play(*, user: User) -> list[int]:
    """The games `user` holds a seat in that are not over (the lobby follows them live)."""
    return list(
        Game.objects.filter(room__seats__user=user, outcome="").values_list("pk", flat=True)
    )


def lobby_for(*, user: User, limit: int = 50) -> Lobby:
    """Open rooms with free seats (and the user's own waiting rooms), and the user's games."""
    my_seat = Seat.objects.filter(room=OuterRef("pk"), user=user).values("number")[:1]
    open_rooms_qs = (
        Room.objects.filter(status=Room.Status.OPEN)
        .annotate(
            # In a solo room nobody takes the AI's seat (always free: not counted).
            free=Count("seats", filter=Q(seats__user__isnull=True))
            - Case(When(ai_seat=Room.AiSeat.AI, then=Value(1)), default=Value(0)),
            my_seat=Subquery(my_seat),
        )
        .filter(Q(free__gt=0, invite_only=False) | Q(my_seat__isnull=False) | Q(host=user))
        .select_related("quest", "host")
        .order_by("-created")[:limit]
    )
    open_rooms = [LobbyRoom(room=r, free_seats=r.free, my_seat=r.my_seat) for r in open_rooms_qs]
    games_qs = (
        Game.objects.filter(room__seats__user=user)
        .select_related("room", "room__quest")
        .prefetch_related("room__seats__user")
        .defer("state", "quest_source")
        .order_by("outcome", "-updated")[:limit]
    )
    my_games = []
    for game in games_qs:
        seats = _seat_users(game.room)
        mine = next(n for n, s in seats.items() if s.user_id == user.pk)
        face = game_face_of(game)
        labels = {role.number: role.label for role in face.seat_roles(game.seats)}
        item = LobbyGame(
            game=game,
            my_seat=mine,
            game_name=face.name,
            seat_label=labels.get(mine, f"Seat {mine}"),
            outcome_text=face.outcome_text(game.outcome) if game.outcome else "",
        )
        if not game.outcome:
            item.my_turn = mine in game.to_move
            item.to_move = [_seat_shown_name(game.room, seats, n) for n in game.to_move]
            users = {n: s.user for n, s in seats.items() if s.user is not None}
            item.clock = game_clock(game, users)
        my_games.append(item)
    my_games.sort(key=lambda item: item.waiting_order)
    return Lobby(open_rooms=open_rooms, my_games=my_games, watchable=watchable_games(user=user))


def watchable_games(*, user: User, limit: int = 20) -> list[Game]:
    """Quests in play whose listed rooms let spectators watch, where `user` has no seat."""
    games = (
        # An invite-only room is never listed; its host may still hand out the game's URL.
        Game.objects.filter(outcome="", room__allow_spectators=True, room__invite_only=False)
        .exclude(room__seats__user=user)
        .select_related("room", "room__quest", "room__host")
        .defer("state", "quest_source")
        .order_by("-updated")
    )
    return list(games[:limit])


def game_clock_for(*, game_id: int, user: AnyUser) -> TurnClock | None:
    """The clock of the turn in play, for a member or spectator (GameNotFound for others)."""
    game, _ = game_membership(game_id=game_id, user=user, watch=True)
    return game_clock(game, seat_users(game))


def game_seat_names(*, game: Game) -> dict[int, str]:
    """Seat number -> the shown name of the player in it (every member may see who plays)."""
    seats = Seat.objects.filter(room_id=game.room_id, user__isnull=False).select_related("user")
    return {seat.number: seat.user.shown_name for seat in seats if seat.user is not None}


def game_campaign_id(*, game: Game) -> int | None:
    """The campaign a game's room belongs to, if any."""
    link = CampaignRoom.objects.filter(room_id=game.room_id).values_list("campaign_id", flat=True)
    return link.first()
