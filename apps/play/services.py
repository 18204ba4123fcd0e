"""A quest in play: launching it, the action service, seat views, the log and its verification.

Every accepted action is one transaction on the `Game` row (design.md, "Persistence and
concurrency"): lock the row, answer a replayed idempotency key with its stored response, refuse a
stale version, run the engine, append the log, save the state, bump the version, store the
receipt. After commit a content-free "game changed" message goes to the game's channel group;
each websocket consumer then computes its own seat's view with `game_view`.

Services raise `PlayError` subclasses; each carries the HTTP status the API answers with and a
message a player can read (and that leaks nothing hidden).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
import secrets
from dataclasses import dataclass, field
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.db.models import Count, Max, OuterRef, Q, Subquery
from django.utils import timezone

from apps import rules
from apps.accounts.models import User
from apps.campaigns.services import campaign_hero_options, campaign_record_outcome
from apps.play.models import ActionReceipt, Game, GameEvent
from apps.play.tasks import turn_passed_enqueue, zargon_ai_enqueue
from apps.rooms.models import Room, Seat
from apps.rooms.services import room_member_seat
from apps.rules.data import heroes_of_seat
from apps.rules.questfile import parse_quest_text

logger = logging.getLogger(__name__)

ZARGON_SEAT = 1
KEY_MAX_LENGTH = ActionReceipt._meta.get_field("key").max_length or 80
# Actions a seat may send whoever's turn it is (engine-api.md: not listed in legal_actions).
ANY_TIME_ACTIONS = frozenset({"set_auto_drink"})
EVENTS_PAGE_MAX = 1000

AnyUser = User | AnonymousUser


# --- errors ------------------------------------------------------------------------------------


class PlayError(Exception):
    """A refused request; `status` is the HTTP status the API answers with."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class GameNotFound(PlayError):
    """No such game or room, or the user is not a member (existence is not revealed)."""

    status = 404


class LaunchRefused(PlayError):
    """The room cannot be launched now (not full, already launched)."""

    status = 409


class NotHost(PlayError):
    status = 403


class MalformedAction(PlayError):
    """The action JSON or the idempotency key is malformed."""

    status = 400


class NotYourTurn(PlayError):
    """The seat may not send this action: not its turn, not its hero, or Zargon's only."""

    status = 403


class ActionRejected(PlayError):
    """The engine refused the action; `message` is the engine's reason."""

    status = 422


class StaleVersion(PlayError):
    """The client's expected version is not the game's; it should fetch the view again."""

    status = 409

    def __init__(self, current_version: int) -> None:
        super().__init__(
            f"The game has moved on to version {current_version}: fetch the view and try again."
        )
        self.current_version = current_version


# --- quests and states -------------------------------------------------------------------------


@functools.lru_cache(maxsize=16)
def _parse_quest(slug: str, source: str) -> rules.Quest:
    """The engine's Quest for a quest file's text (cached: parsing YAML on every action is slow)."""
    if source:
        return parse_quest_text(source, name=f"{slug}.yaml")
    return rules.load_quest(slug)


def _game_quest(game: Game) -> rules.Quest:
    return _parse_quest(game.quest_slug, game.quest_source)


def _game_state(game: Game) -> rules.State:
    return rules.State.from_json(game.state, _game_quest(game))


def _plain(value: Any) -> Any:
    """The value as it comes back from a JSON column (tuples become lists, and so on)."""
    return json.loads(json.dumps(value))


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


# --- launching ---------------------------------------------------------------------------------


def game_launch(*, room_id: int, user: AnyUser, seed: int | None = None) -> Game:
    """The host starts the room's quest once every seat is taken; the room is then playing."""
    with transaction.atomic():
        # The room lock queues the launch behind any seat change (rooms lock the same row).
        room = Room.objects.select_for_update().filter(pk=room_id).first()
        if room is None or not user.is_authenticated:
            raise GameNotFound("There is no such room.")
        if room.host_id != user.pk:
            if room.status != Room.Status.OPEN and room_member_seat(room=room, user=user) is None:
                raise GameNotFound("There is no such room.")
            raise NotHost("Only the host can launch the quest.")
        if room.status != Room.Status.OPEN:
            raise LaunchRefused("This quest has already been launched.")
        seats = list(room.seats.order_by("number"))
        taken = [s.number for s in seats if s.user_id is not None]
        if taken != list(range(room.first_player_seat, room.seat_count + 1)):
            raise LaunchRefused("Every seat must be taken before the quest can start.")
        definition = room.quest
        quest = _parse_quest(definition.slug, definition.source)
        seed = secrets.randbits(63) if seed is None else seed
        options: dict[str, Any] = campaign_hero_options(room=room) or {}
        state = rules.new_game(quest, room.seat_count, seed, options)
        game = Game.objects.create(
            room=room,
            quest_slug=definition.slug,
            quest_source=definition.source,
            seats=room.seat_count,
            seed=seed,
            options=options,
            state=state.to_json(),
            version=0,
            turn_started=timezone.now(),
        )
        # Whatever the engine logged while setting up (the parchment, say) opens the log.
        GameEvent.objects.bulk_create(
            GameEvent(game=game, seq=n, version=0, kind=GameEvent.Kind.EVENT, payload=_plain(e))
            for n, e in enumerate(state.log, start=1)
        )
        room.status = Room.Status.PLAYING
        room.save(update_fields=["status"])
        transaction.on_commit(
            functools.partial(turn_passed_enqueue, game.pk, game.version, game.turn_started)
        )
    return game


# --- the action service ------------------------------------------------------------------------


def _parsed_action(action: Any) -> rules.Action:
    try:
        return rules.action_from_json(action)
    except rules.BadActionJSON as exc:
        raise MalformedAction(f"Malformed action: {exc.reason}") from None


def _check_seat_may_act(
    state: rules.State, seat: int, action: rules.Action, action_json: dict[str, Any]
) -> None:
    """Refuse (403) what this seat may never send now; the engine judges everything else (422)."""
    hero = getattr(action, "hero", None)
    if seat == ZARGON_SEAT and hero is not None:
        raise NotYourTurn("Zargon does not play the heroes.")
    if seat != ZARGON_SEAT:
        if hero is None:
            raise NotYourTurn("Only Zargon plays the monsters.")
        if hero not in heroes_of_seat(state.seats, seat):
            raise NotYourTurn("That hero is not yours to play.")
    if action.type in ANY_TIME_ACTIONS or seat in rules.seats_to_move(state):
        return
    if action_json in _plain(rules.legal_actions(state, seat)):
        return  # something the engine lets this seat do out of turn
    raise NotYourTurn("It is not your turn.")


def _entry(payload: dict[str, Any], version: int, seat: int) -> dict[str, Any] | None:
    """A log entry as `seat` may see it (None: nothing), with the version that produced it."""
    entry = rules.event_for_seat(payload, seat)
    if entry is None:
        return None
    entry = dict(entry)
    entry["version"] = version
    return entry


def _announce(game_id: int, version: int) -> None:
    """Tell the game's websocket consumers there is a new version (no game content)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(
            game_group(game_id=game_id), {"type": "game.changed", "version": version}
        )
    except Exception:  # the action is committed; clients catch up on their next fetch
        logger.exception("could not announce version %s of game %s", version, game_id)


def game_group(*, game_id: int) -> str:
    """The channel group of a game's websocket consumers."""
    return f"game-{game_id}"


def _ai_to_move(game: Game, state: rules.State) -> bool:
    """Zargon is to move and the monster AI plays him in this room."""
    return (
        state.outcome is None
        and rules.seats_to_move(state) == [ZARGON_SEAT]
        and Room.objects.filter(pk=game.room_id, zargon=Room.Zargon.AI).exists()
    )


def quest_apply_action(
    *,
    game_id: int,
    seat: int,
    action: Any,
    expected_version: int,
    key: str,
    system: bool = False,
) -> dict[str, Any]:
    """Apply one action of `seat`, once per idempotency `key`, and return the response.

    The response is `{"version", "seat", "entries"}`: the new version and this seat's view of the
    log entries the action produced. A replayed key returns the stored response unchanged.
    `system=True` (timeouts, the AI) skips the seat checks; the engine still validates.
    """
    if not isinstance(key, str) or not key or len(key) > KEY_MAX_LENGTH:
        raise MalformedAction(f"The idempotency key must be 1 to {KEY_MAX_LENGTH} characters.")
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            raise GameNotFound("There is no such game.")
        receipt = ActionReceipt.objects.filter(game=game, seat=seat, key=key).first()
        if receipt is not None:
            return dict(receipt.response)
        if expected_version != game.version:
            raise StaleVersion(game.version)
        parsed = _parsed_action(action)
        action_json = _plain(rules.action_to_json(parsed))
        state = _game_state(game)
        if state.outcome is not None:
            raise ActionRejected("The quest is over.")
        if not system:
            _check_seat_may_act(state, seat, parsed, action_json)
        try:
            transition = rules.apply(state, seat, parsed)
        except rules.IllegalAction as exc:
            raise ActionRejected(exc.reason) from None
        new_state = transition.state
        version = game.version + 1

        last_seq = game.events.aggregate(last=Max("seq"))["last"] or 0
        rows = [
            GameEvent(
                game=game,
                seq=last_seq + 1,
                version=version,
                kind=GameEvent.Kind.ACTION,
                seat=None if system else seat,
                payload={"seat": seat, "action": action_json, "system": system},
            )
        ]
        rows += [
            GameEvent(
                game=game,
                seq=last_seq + 2 + n,
                version=version,
                kind=GameEvent.Kind.EVENT,
                payload=_plain(event),
            )
            for n, event in enumerate(transition.events)
        ]
        GameEvent.objects.bulk_create(rows)

        fields = ["state", "version", "outcome", "updated"]
        seats_changed = rules.seats_to_move(new_state) != rules.seats_to_move(state)
        if seats_changed or new_state.round != state.round:  # the clock of turns.py
            game.turn_started, game.reminded_at = timezone.now(), None
            fields += ["turn_started", "reminded_at"]
        if seats_changed:  # tell the players now to move (or everyone the outcome)
            transaction.on_commit(
                functools.partial(turn_passed_enqueue, game.pk, version, game.turn_started)
            )
            if _ai_to_move(game, new_state):  # solo play: the AI takes Zargon's phase at once
                transaction.on_commit(functools.partial(zargon_ai_enqueue, game.pk))
        game.state = new_state.to_json()
        game.version = version
        game.outcome = new_state.outcome or ""
        game.save(update_fields=fields)
        if game.outcome:
            Room.objects.filter(pk=game.room_id).update(status=Room.Status.FINISHED)
            finals = {h: dataclasses.asdict(hs) for h, hs in new_state.heroes.items()}
            campaign_record_outcome(room=game.room, outcome=game.outcome, heroes=finals)

        entries = [
            entry for row in rows[1:] if (entry := _entry(row.payload, version, seat)) is not None
        ]
        response = {"version": version, "seat": seat, "entries": entries}
        ActionReceipt.objects.create(game=game, seat=seat, key=key, response=response)
        transaction.on_commit(functools.partial(_announce, game.pk, version))
    return response


def game_action_submit(
    *, game_id: int, user: AnyUser, action: Any, expected_version: int, key: str
) -> dict[str, Any]:
    """`quest_apply_action` for the seat `user` plays (GameNotFound for non-members)."""
    _, seat = game_membership(game_id=game_id, user=user)
    return quest_apply_action(
        game_id=game_id, seat=seat, action=action, expected_version=expected_version, key=key
    )


# --- what a seat sees --------------------------------------------------------------------------


def game_seat_view(*, game: Game, seat: int) -> dict[str, Any]:
    """The engine's seat view of `game`, plus `version` and `game_id`."""
    view = dict(rules.seat_view(_game_state(game), seat))
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
        entry = _entry(row.payload, row.version, seat)
        if entry is not None:
            entries.append(entry)
            if len(entries) >= limit:
                break
    return entries


# --- verification ------------------------------------------------------------------------------


@dataclass
class VerifyReport:
    ok: bool
    actions: int = 0
    events: int = 0
    problem: str | None = None

    def __str__(self) -> str:
        if self.ok:
            return f"OK: {self.actions} actions, {self.events} events replayed"
        return f"MISMATCH: {self.problem}"


def _first_difference(a: Any, b: Any, path: str = "") -> str | None:
    """Where two JSON values first differ, e.g. `heroes.elf.body: 3 != 4`; None if equal."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            where = f"{path}.{k}" if path else str(k)
            if k not in a or k not in b:
                mine, theirs = (repr(x[k]) if k in x else "missing" for x in (a, b))
                return f"{where}: {mine} != {theirs}"
            if (found := _first_difference(a[k], b[k], where)) is not None:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            if (found := _first_difference(x, y, f"{path}[{i}]")) is not None:
                return found
        if len(a) != len(b):
            return f"{path}: {len(a)} items != {len(b)} items"
        return None
    if a != b or type(a) is not type(b):
        return f"{path or 'value'}: {a!r} != {b!r}"
    return None


def game_verify(*, game_id: int) -> VerifyReport:
    """Replay the accepted actions from the seed and compare with the stored log and state."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise GameNotFound("There is no such game.")
    rows = list(game.events.order_by("seq"))
    for expected, row in enumerate(rows, start=1):
        if row.seq != expected:
            return VerifyReport(False, problem=f"the log has no entry {expected} (next: {row.seq})")

    quest = _game_quest(game)
    state = rules.new_game(quest, game.seats, game.seed, game.options)
    produced: list[dict[str, Any]] = _plain(state.log)
    version = 0
    actions = events = 0

    def check_events(upto: int) -> str | None:
        """The event rows after the previous action must be exactly what the engine produced."""
        nonlocal events
        logged = [r for r in batch if r.kind == GameEvent.Kind.EVENT]
        if len(logged) != len(produced):
            return (
                f"version {upto}: {len(logged)} events logged, the replay produced {len(produced)}"
            )
        for row, event in zip(logged, produced, strict=True):
            if (diff := _first_difference(row.payload, event)) is not None:
                return f"log entry {row.seq} (version {upto}): {diff}"
            events += 1
        return None

    batch: list[GameEvent] = []
    for row in rows:
        if row.kind != GameEvent.Kind.ACTION:
            batch.append(row)
            continue
        if (problem := check_events(version)) is not None:
            return VerifyReport(False, actions, events, problem)
        version += 1
        if row.version != version:
            return VerifyReport(
                False, actions, events, f"log entry {row.seq}: version {row.version} != {version}"
            )
        seat = row.payload["seat"]
        try:
            transition = rules.apply(state, seat, rules.action_from_json(row.payload["action"]))
        except rules.IllegalAction as exc:
            problem = f"log entry {row.seq} (version {version}): the replay refused it: {exc}"
            return VerifyReport(False, actions, events, problem)
        state, produced, batch = transition.state, _plain(transition.events), []
        actions += 1
    if (problem := check_events(version)) is not None:
        return VerifyReport(False, actions, events, problem)
    if version != game.version:
        problem = f"the log replays to version {version}, the game is at {game.version}"
        return VerifyReport(False, actions, events, problem)
    if (diff := _first_difference(_plain(state.to_json()), game.state)) is not None:
        return VerifyReport(False, actions, events, f"state: {diff} (replayed != stored)")
    if (state.outcome or "") != game.outcome:
        problem = f"outcome: {state.outcome!r} (replayed) != {game.outcome!r} (stored)"
        return VerifyReport(False, actions, events, problem)
    return VerifyReport(True, actions, events)


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


@dataclass
class Lobby:
    open_rooms: list[LobbyRoom]
    my_games: list[LobbyGame]


def _seat_users(room: Room) -> dict[int, Seat]:
    return {s.number: s for s in room.seats.all()}


def _seat_shown_name(room: Room, seats: dict[int, Seat], number: int) -> str:
    if number == ZARGON_SEAT and room.zargon_is_ai:
        return "the monster AI"
    seat = seats.get(number)
    return str(seat.user) if seat is not None and seat.user else f"seat {number}"


def lobby_for(*, user: User, limit: int = 50) -> Lobby:
    """Open rooms with free seats (and the user's own waiting rooms), and the user's games."""
    my_seat = Seat.objects.filter(room=OuterRef("pk"), user=user).values("number")[:1]
    open_rooms_qs = (
        Room.objects.filter(status=Room.Status.OPEN)
        .annotate(
            free=Count(
                "seats",
                # In a solo room nobody takes seat 1: the monster AI plays Zargon.
                filter=Q(seats__user__isnull=True)
                & ~Q(seats__number=ZARGON_SEAT, zargon=Room.Zargon.AI),
            ),
            my_seat=Subquery(my_seat),
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
            to_move = rules.seats_to_move(_game_state(game))
            item.my_turn = mine in to_move
            item.to_move = [_seat_shown_name(game.room, seats, n) for n in to_move]
        my_games.append(item)
    return Lobby(open_rooms=open_rooms, my_games=my_games)
