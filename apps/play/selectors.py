"""Reading a quest in play: the engine state of a game, membership, seat views, the log, the lobby.

Nothing here writes. A seat's view and log entries are computed by the engine for that seat only
(docs/rules.md 13), so what a reader gets is what that seat may know.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db.models import Count, OuterRef, Q, Subquery

from apps import rules
from apps.accounts.models import User
from apps.play.clock import TurnClock, game_clock, seat_users
from apps.play.errors import GameNotFound
from apps.play.models import Game, GameEvent, HeroSetting
from apps.rooms.models import Room, Seat
from apps.rooms.services import room_member_seat
from apps.rules.questfile import parse_quest_text

EVENTS_PAGE_MAX = 1000

AnyUser = User | AnonymousUser


# --- quests and states -------------------------------------------------------------------------


@functools.lru_cache(maxsize=16)
def quest_of_source(*, slug: str, source: str) -> rules.Quest:
    """The engine's Quest for a quest file's text (cached: parsing YAML on every action is slow)."""
    if source:
        return parse_quest_text(source, name=f"{slug}.yaml")
    return rules.load_quest(slug)


def game_quest(*, game: Game) -> rules.Quest:
    """The quest `game` was launched with (its own copy of the quest file)."""
    return quest_of_source(slug=game.quest_slug, source=game.quest_source)


def game_state(*, game: Game) -> rules.State:
    """The engine state stored in `game`."""
    return rules.State.from_json(game.state, game_quest(game=game))


def game_hero_settings(*, game: Game) -> dict[str, bool]:
    """Each hero's auto-drink setting as its player last chose it (heroes never set: absent)."""
    return dict(HeroSetting.objects.filter(game=game).values_list("hero", "auto_drink"))


def state_with_settings(state: rules.State, settings: dict[str, bool]) -> dict[str, bool]:
    """Put the players' settings into `state`; returns those that changed it (for the log)."""
    changed = {}
    for hero, auto_drink in sorted(settings.items()):
        hero_state = state.heroes.get(hero)
        if hero_state is not None and hero_state.auto_drink != auto_drink:
            hero_state.auto_drink = auto_drink
            changed[hero] = auto_drink
    return changed


# --- membership --------------------------------------------------------------------------------


def game_seat_for_user(*, game: Game, user: AnyUser) -> int | None:
    """The seat `user` plays in `game`, or None (not a member)."""
    return room_member_seat(room=game.room, user=user)


def game_membership(*, game_id: int, user: AnyUser) -> tuple[Game, int]:
    """The game and the seat `user` plays in it (GameNotFound for non-members)."""
    game = Game.objects.select_related("room").filter(pk=game_id).first()
    seat = None if game is None else game_seat_for_user(game=game, user=user)
    if game is None or seat is None:
        raise GameNotFound("There is no such game.")
    return game, seat


def entry_for_seat(payload: dict[str, Any], version: int, seat: int) -> dict[str, Any] | None:
    """A log entry as `seat` may see it (None: nothing), with the version that produced it."""
    entry = rules.event_for_seat(payload, seat)
    if entry is None:
        return None
    entry = dict(entry)
    entry["version"] = version
    return entry


# --- what a seat sees --------------------------------------------------------------------------


def game_seat_view(*, game: Game, seat: int) -> dict[str, Any]:
    """The engine's seat view of `game`, plus `version` and `game_id`."""
    state = game_state(game=game)
    state_with_settings(state, game_hero_settings(game=game))
    view = dict(rules.seat_view(state, seat))
    view["version"] = game.version
    view["game_id"] = game.pk
    return view


def game_view(*, game_id: int, user: AnyUser) -> dict[str, Any]:
    """The view of the seat `user` plays (GameNotFound for anyone else)."""
    game, seat = game_membership(game_id=game_id, user=user)
    return game_seat_view(game=game, seat=seat)


def game_events(
    *, game_id: int, user: AnyUser, after: int = 0, limit: int = EVENTS_PAGE_MAX
) -> list[dict[str, Any]]:
    """The log entries after engine sequence number `after`, as the user's seat may see them.

    Entries carry the engine's `seq` (as in the view's `log`) and the `version` that produced
    them; at most `limit` entries, oldest first (ask again after the last `seq` for more).
    Accepted actions are not served: what a seat may know of them is in the engine's events.
    """
    game, seat = game_membership(game_id=game_id, user=user)
    limit = max(1, min(limit, EVENTS_PAGE_MAX))
    rows = game.events.filter(kind=GameEvent.Kind.EVENT, payload__seq__gt=after).order_by("seq")
    entries: list[dict[str, Any]] = []
    for row in rows.iterator(chunk_size=500):
        entry = entry_for_seat(row.payload, row.version, seat)
        if entry is not None:
            entries.append(entry)
            if len(entries) >= limit:
                break
    return entries


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


def _seat_users(room: Room) -> dict[int, Seat]:
    return {s.number: s for s in room.seats.all()}


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
            free=Count("seats", filter=Q(seats__user__isnull=True)), my_seat=Subquery(my_seat)
        )
        .filter(Q(free__gt=0) | Q(my_seat__isnull=False) | Q(host=user))
        .select_related("quest", "host")
        .order_by("-created")[:limit]
    )
    open_rooms = [LobbyRoom(room=r, free_seats=r.free, my_seat=r.my_seat) for r in open_rooms_qs]
    games_qs = (
        Game.objects.filter(room__seats__user=user)
        .select_related("room", "room__quest")
        .prefetch_related("room__seats__user")
        .order_by("outcome", "-updated")[:limit]
    )
    my_games = []
    for game in games_qs:
        seats = _seat_users(game.room)
        mine = next(n for n, s in seats.items() if s.user_id == user.pk)
        item = LobbyGame(game=game, my_seat=mine)
        if not game.outcome:
            state = game_state(game=game)
            to_move = rules.seats_to_move(state)
            item.my_turn = mine in to_move
            item.to_move = [
                str(seats[n].user) if seats.get(n) and seats[n].user else f"seat {n}"
                for n in to_move
            ]
            users = {n: s.user for n, s in seats.items() if s.user is not None}
            item.clock = game_clock(game, state, users)
        my_games.append(item)
    my_games.sort(key=lambda item: item.waiting_order)
    return Lobby(open_rooms=open_rooms, my_games=my_games)


def game_clock_for(*, game_id: int, user: AnyUser) -> TurnClock | None:
    """The clock of the turn in play, for a member (GameNotFound for anyone else)."""
    game, _ = game_membership(game_id=game_id, user=user)
    return game_clock(game, game_state(game=game), seat_users(game))
