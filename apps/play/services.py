"""A quest in play, the writes: launching it and the action service.

Every accepted action is one transaction on the `Game` row (docs/design.md, "Persistence and
concurrency"): lock the row, answer a replayed idempotency key with its stored response, refuse a
stale version, run the engine, append the log (its action row keeps the key: the receipt), save
the state, bump the version; five statements at most however long the game, a turn change's
notices included. After commit a content-free "game changed" message goes to the game's channel
group; each websocket consumer then sends its own seat's view, built once per version and seat
(`apps.play.view_cache`), except the socket of the page that played the action
(its answer carried that view already).

Services raise `errors.PlayError` subclasses; each carries the HTTP status the API answers with
and a message a player can read (and that leaks nothing hidden).
"""

from __future__ import annotations

import functools
import logging
import re
import secrets
from dataclasses import dataclass
from typing import Any

from django.db import models, transaction
from django.db.models import F, OuterRef, Subquery, Value
from django.utils import timezone

from apps.accounts.limits import rate_limit_exceeded
from apps.campaigns.errors import CampaignError
from apps.campaigns.selectors import campaign_hero_options
from apps.campaigns.services import campaign_record_outcome
from apps.core.fields import JSONText
from apps.core.jsontext import json_text
from apps.core.prepared import PreparedQuery
from apps.core.realtime import game_group, poke_on_commit, socket_id_or_none
from apps.core.rows import rows_insert_then_update
from apps.games.port import SPECTATOR_SEAT, GameFace, Refusal, RefusalKind, Setting, Step
from apps.play.clock import clock_restart
from apps.play.errors import (
    ActionRejected,
    ChatRefused,
    ChatTooFast,
    GameNotFound,
    LaunchRefused,
    MalformedAction,
    NotHost,
    NotTheNarrator,
    NotYourTurn,
    PlayError,
    SpectatorsOnlyWatch,
    StaleVersion,
)
from apps.play.fairness import new_salt, seed_commitment
from apps.play.models import (
    ActionReceipt,
    ChatMessage,
    Game,
    GameEvent,
    as_stored_json,
)
from apps.play.notices import chat_notices_send, turn_notices_send
from apps.play.selectors import (
    AnyUser,
    chat_message_json,
    entry_for_seat,
    game_face_of,
    game_membership,
    game_scenario,
    game_seat_view_cached,
    game_state,
    orders_due,
    scenario_of_source,
    seat_view_of_state,
    seat_views_for_sockets,
)
from apps.play.state_cache import state_cache
from apps.play.tasks import ai_seat_enqueue, orders_enqueue
from apps.play.view_cache import SeatView, seat_view_forget, shared_views, view_cache
from apps.rooms.models import Room, Seat
from apps.rooms.services import room_changed, room_member_seat

logger = logging.getLogger(__name__)

KEY_MAX_LENGTH = GameEvent._meta.get_field("key").max_length or 80


def system_key(*, kind: str, game_id: int, version: int) -> str:
    """The idempotency key of the system's action `kind` ("timeout", "ai") at `version`."""
    return f"{kind}-{game_id}-{version}"


# --- launching ---------------------------------------------------------------------------------


def game_launch(*, room_id: int, user: AnyUser, seed: int | None = None) -> Game:
    """The host starts the room's scenario once every seat is taken; the room is then playing."""
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
        people = [n for n in range(1, room.seat_count + 1) if n != room.ai_seat_number]
        if taken != people:
            raise LaunchRefused("Every seat must be taken before the quest can start.")
        face = room.face
        definition = room.quest
        scenario = scenario_of_source(
            game=face.slug, slug=definition.slug, source=definition.source
        )
        seed = secrets.randbits(63) if seed is None else seed
        if not 0 <= seed < 2**63:  # the state column reads no integer past 64 bits (JSONTextField)
            raise ValueError(f"A game's seed has 63 bits, not {seed}.")
        salt = new_salt()
        commitment = seed_commitment(seed=seed, salt=salt)
        try:
            heroes = campaign_hero_options(room=room) or {}
        except CampaignError as exc:  # a sheet stored by hand with what the engine refuses
            raise LaunchRefused(exc.message) from None
        options: dict[str, Any] = {**room.options, **heroes}
        # The commitment is in the log before the first die: every seat can hold the site to it.
        try:
            start = face.new_game(scenario, room.seat_count, seed, options, commitment=commitment)
        except (ValueError, TypeError) as exc:  # stored data (options, sheets), not the player
            logger.warning("room %s cannot launch: %s", room.pk, exc)
            raise LaunchRefused(f"This table cannot start: {exc}.") from None
        game = Game.objects.create(
            room=room,
            kind=face.slug,
            quest_slug=definition.slug,
            quest_source=definition.source,
            seats=room.seat_count,
            seed=seed,
            seed_salt=salt,
            seed_commitment=commitment,
            options=options if start.options is None else start.options,
            state=face.state_to_json(start.state),
            version=0,
            last_seq=len(start.events),
            to_move=face.seats_to_move(start.state),
            round=face.round_of(start.state),
            turn_started=timezone.now(),
        )
        # Whatever the game logged while setting up (the parchment, say) opens the log.
        GameEvent.objects.bulk_create(
            GameEvent(
                game=game,
                seq=n,
                version=0,
                kind=GameEvent.Kind.EVENT,
                payload=as_stored_json(e),
                event_seq=e["seq"],
            )
            for n, e in enumerate(start.events, start=1)
        )
        parchment = getattr(scenario, "parchment", "").strip()
        if parchment:  # the parchment opens the table talk
            ChatMessage.objects.create(game=game, kind=ChatMessage.Kind.PARCHMENT, text=parchment)
        room.status = Room.Status.PLAYING
        room.save(update_fields=["status"])
        room_changed(room_id=room.pk)  # seated players' room pages go to the game
        turn_notices_send(game=game, state=start.state)
        if _ai_to_move(game):  # the AI's seat opens the game: it plays at once
            transaction.on_commit(functools.partial(ai_seat_enqueue, game.pk))
    return game


# --- the action service ------------------------------------------------------------------------

# A game's refusal, by kind, as the answer the API gives (the game judged; play only maps).
_REFUSALS: dict[RefusalKind, type[PlayError]] = {
    RefusalKind.MALFORMED: MalformedAction,
    RefusalKind.NOT_YOURS: NotYourTurn,
    RefusalKind.NOT_NOW: NotYourTurn,
    RefusalKind.ILLEGAL: ActionRejected,
}


def _refused(refusal: Refusal) -> PlayError:
    return _REFUSALS[refusal.kind](refusal.reason)


def _ai_to_move(game: Game) -> bool:
    """The AI's seat is to move and the AI plays it in this room (read from the row)."""
    ai_seat = game.room.ai_seat_number  # the room came with the locked row
    return not game.outcome and ai_seat is not None and game.to_move == [ai_seat]


def _keyed_action_rows(*, game: Any, seat: Any, system: bool) -> models.QuerySet[GameEvent]:
    """The log rows of the actions `seat` (or the system, for it) sent to `game`, by key."""
    actions = GameEvent.objects.filter(game=game, kind=GameEvent.Kind.ACTION).order_by()
    return actions.filter(seat__isnull=True) if system else actions.filter(seat=seat)


def _locked_rows(
    *, game_id: int, key: str, system: bool, user_id: int | None = None, seat: int | None = None
) -> models.QuerySet[Game]:
    """The game row to lock, with the acting seat (`seat`, or the one user `user_id` holds) and
    what `key` already did (the version its action produced, or a stored response), if any, in
    one statement. The players' settings are a column of the row."""
    acting_seat = (
        Value(seat)
        if user_id is None
        else Subquery(
            Seat.objects.filter(room=OuterRef("room_id"), user_id=user_id)
            .order_by()
            .values("number")[:1],
            output_field=models.IntegerField(),
        )
    )
    stored = ActionReceipt.objects.filter(
        game=OuterRef("pk"), seat=OuterRef("acting_seat"), system=system, key=key
    ).values("response")[:1]
    logged = _keyed_action_rows(game=OuterRef("pk"), seat=OuterRef("acting_seat"), system=system)
    # The room comes in the same statement (turn notices and the outcome need it), unlocked.
    return (
        Game.objects.select_for_update(of=("self",))
        .select_related("room")
        .annotate(
            acting_seat=acting_seat,
            stored_response=Subquery(stored, output_field=models.JSONField()),
            stored_version=Subquery(logged.filter(key=key).values("version")[:1]),
        )
        .filter(pk=game_id)
    )


# Built and compiled once per database: building it took a quarter of a web process's CPU under
# load. The stand-ins are values no request can carry (negative ids, a key too long to send).
_STAND_INS: dict[str, Any] = {"game_id": -1_000_001, "key": "~" * (KEY_MAX_LENGTH + 1)}
_LOCKED_FOR_USER = PreparedQuery(
    functools.partial(_locked_rows, system=False), **_STAND_INS, user_id=-1_000_003
)
_LOCKED_FOR_SEAT = {
    system: PreparedQuery(functools.partial(_locked_rows, system=system), **_STAND_INS, seat=-7)
    for system in (False, True)
}


def _locked_game(
    *, game_id: int, key: str, seat: int | None, user: AnyUser | None, system: bool
) -> tuple[Game, int, dict[str, Any] | None]:
    """The game row, locked, in one statement, with the acting seat (the given seat, or the one
    `user` holds) and the answer already given to `key`, if any."""
    if not 0 < game_id < 2**63:  # the prepared statement skips the ORM's range check
        raise GameNotFound("There is no such game.")
    if user is None:
        game = _LOCKED_FOR_SEAT[system].first(game_id=game_id, key=key, seat=seat)
    elif user.is_authenticated:
        assert not system, "a user's action is never a system one"
        game = _LOCKED_FOR_USER.first(game_id=game_id, key=key, user_id=user.pk)
    else:
        game = None
    acting_seat = None if game is None else getattr(game, "acting_seat", None)
    if game is None or acting_seat is None:
        raise GameNotFound("There is no such game.")
    seat = int(acting_seat)
    stored: dict[str, Any] | None = getattr(game, "stored_response", None)
    version = getattr(game, "stored_version", None)
    if version is not None:
        stored = _logged_response(game=game, seat=seat, version=version)
    return game, seat, stored


def _response(
    *, face: GameFace, version: int, seat: int, events: list[dict[str, Any]]
) -> dict[str, Any]:
    """What an action answers: its version and what `seat` may see of the events it produced."""
    seen = (entry_for_seat(face, event, version, seat) for event in events)
    return {"version": version, "seat": seat, "entries": [e for e in seen if e is not None]}


def _logged_response(*, game: Game, seat: int, version: int) -> dict[str, Any]:
    """The answer the action that produced `version` gave, rebuilt from its log rows."""
    rows = game.events.filter(version=version, kind=GameEvent.Kind.EVENT).order_by("seq")
    events = [row.payload for row in rows]
    return _response(face=game_face_of(game), version=version, seat=seat, events=events)


def _stored_response(*, game: Game, seat: int, system: bool, key: str) -> dict[str, Any] | None:
    logged = _keyed_action_rows(game=game, seat=seat, system=system).filter(key=key)
    version = logged.values_list("version", flat=True).first()
    if version is not None:
        return _logged_response(game=game, seat=seat, version=version)
    receipts = ActionReceipt.objects.filter(game=game, seat=seat, system=system, key=key)
    receipt = receipts.first()
    return None if receipt is None else dict(receipt.response)


@dataclass(frozen=True)
class Applied:
    """An accepted action: its answer, the acting user's new view (None for the system and
    for a replayed key's answer to the system), and the game as it now stands."""

    response: dict[str, Any]
    view: SeatView | None
    game: Game
    state: Any  # the game's new state (None for a replayed key: nothing was played)


def _is_setting(face: GameFace, action: Any) -> bool:
    return isinstance(action, dict) and action.get("type") in face.setting_actions


def _replayed_answer(
    *,
    game: Game,
    seat: int,
    stored: dict[str, Any] | None,
    action: Any,
    system: bool,
    key: str,
    expected_version: int,
) -> dict[str, Any] | None:
    """The answer `key` already got, if it did; refuses a stale version for anything else."""
    setting = _is_setting(game_face_of(game), action)
    if stored is None and (expected_version != game.version or setting):
        # If the lock waited, its receipt subquery saw the receipts as they were before; the
        # transaction it waited for may have answered this key.
        stored = _stored_response(game=game, seat=seat, system=system, key=key)
    if stored is not None:
        return dict(stored)
    # A private setting does not depend on the game's version: a stale one is fine.
    if expected_version != game.version and not setting:
        raise StaleVersion(game.version)
    return None


def _setting_change(
    *, game: Game, seat: int, setting: Setting, system: bool, key: str
) -> dict[str, Any]:
    """Store a private setting: no version, no log entry, nothing sent to the other seats."""
    owned = dict(game.settings.get(setting.owner, {}))
    owned[setting.name] = setting.value
    game.settings = {**game.settings, setting.owner: owned}
    Game.objects.filter(pk=game.pk).update(settings=game.settings)
    response = {"version": game.version, "seat": seat, "entries": []}
    ActionReceipt.objects.create(game=game, seat=seat, system=system, key=key, response=response)
    # The version stays, so this seat's cached views (this process's, the shared one) would
    # hide the change (dropping them is harmless if this rolls back); another process's own
    # cache shows it from the next version on.
    seat_view_forget(game.pk, seat, game.version)
    return response


@dataclass(frozen=True)
class _Judgement:
    """The game's verdict on an action: the step it plays, and the settings it played under
    (logged with the action when they changed the state, so a replay reproduces it)."""

    step: Step
    logged_settings: dict[str, Any]


def _judge(*, face: GameFace, game: Game, state: Any, seat: int, action: Any) -> _Judgement:
    """Put the players' settings in force and let the game judge and play the action."""
    in_play = face.with_settings(state, game.settings) if game.settings else state
    try:
        step = face.apply(in_play, seat, action)
    except Refusal as refusal:
        raise _refused(refusal) from None
    logged = dict(game.settings) if in_play is not state else {}
    return _Judgement(step=step, logged_settings=logged)


def _log_rows(
    *, game: Game, seat: int, system: bool, key: str, action: Any, judgement: _Judgement
) -> tuple[list[dict[str, Any]], list[GameEvent]]:
    """The action's log rows (its row keeps `key`: the receipt; `_store` appends them) and its
    events."""
    version = game.version + 1
    events = [as_stored_json(event) for event in judgement.step.events]
    payload = {"seat": seat, "action": as_stored_json(action), "system": system}
    if judgement.logged_settings:
        payload["settings"] = judgement.logged_settings
    action_row = GameEvent(
        game=game,
        seq=game.last_seq + 1,
        version=version,
        kind=GameEvent.Kind.ACTION,
        seat=None if system else seat,
        payload=payload,
        key=key,
    )
    event_rows = [
        GameEvent(
            game=game,
            seq=game.last_seq + 2 + n,
            version=version,
            kind=GameEvent.Kind.EVENT,
            payload=event,
            event_seq=event["seq"],
        )
        for n, event in enumerate(events)
    ]
    game.last_seq += 1 + len(event_rows)
    return events, [action_row, *event_rows]


def _store(
    *,
    face: GameFace,
    game: Game,
    new_state: Any,
    log_rows: list[GameEvent],
    actor: AnyUser | None = None,
) -> bool:
    """Append `log_rows` and save the new state, version, seats to move and round, in one
    statement where the database allows; whether the seats to move changed (a turn change: the
    clock starts again)."""
    to_move = face.seats_to_move(new_state)
    round_ = face.round_of(new_state)
    turn_changed = to_move != game.to_move
    fields = ["state", "version", "last_seq", "outcome", "to_move", "round", "updated"]
    if turn_changed or round_ != game.round:  # the clock of turns.py
        now = timezone.now()
        fields += clock_restart(game=game, now=now, actor=actor)  # banks charged, in this UPDATE
        game.turn_started, game.reminded_at = now, None
        fields += ["turn_started", "reminded_at"]
    # As text: the row's UPDATE writes it as it is, and the state kept below is matched by it.
    text = JSONText(json_text(face.state_for_text(new_state)))
    game.state = text
    game.version += 1
    game.outcome = face.outcome_of(new_state) or ""
    game.to_move, game.round = to_move, round_
    rows_insert_then_update(log_rows, game, fields)
    # The game's next action in this process plays on from here instead of decoding the row.
    state_cache.put(
        game_id=game.pk,
        version=game.version,
        scenario=game_scenario(game=game),
        text=text,
        state=new_state,
    )
    return turn_changed


def _orders_taken_over(*, game: Game, seat: int) -> None:
    """The player acts in the turn their standing orders were playing: they stand down (one
    statement, only then)."""
    game.orders = {**game.orders, str(seat): {"orders": {}, "note": "", "version": None}}
    Game.objects.filter(pk=game.pk).update(orders=game.orders)


def _after_the_end(*, face: GameFace, game: Game, new_state: Any) -> None:
    """The room is finished; a campaign's sheets get the outcome written back."""
    Room.objects.filter(pk=game.room_id).update(status=Room.Status.FINISHED)
    room_changed(room_id=game.room_id)
    if face.has_campaigns:
        finals, reward = face.campaign_results(new_state)
        campaign_record_outcome(
            room=game.room, outcome=game.outcome, heroes=finals, reward_gold=reward
        )


def _after_turn_change(*, game: Game, new_state: Any) -> None:
    """Tell the seats now to move (or everyone the outcome); the AI plays its seat at once, and
    so do a seat's standing orders (apps/play/orders.py), whose player is told only if they
    stop."""
    due = orders_due(game=game, state=new_state)
    turn_notices_send(game=game, state=new_state, skip=due)
    if _ai_to_move(game):
        transaction.on_commit(functools.partial(ai_seat_enqueue, game.pk))
    if due:
        transaction.on_commit(functools.partial(orders_enqueue, game.pk))


def _views_then_poke(
    *, game: Game, state: Any, built: SeatView | None, message: dict[str, Any]
) -> None:
    """Once committed: the views of the seats with a socket open (in any process, this seat's
    other pages among them) built and sent to the shared cache with the game's poke, in one
    round trip. A build that fails costs only that (logged): the poke goes, and each socket
    builds its view itself."""
    try:
        views = seat_views_for_sockets(game=game, state=state, built=built)
    except Exception:
        logger.exception("the views for the sockets of game %s", game.pk)
        views = []
    shared_views.put_many_then_poke(
        views, game_id=game.pk, seats=range(SPECTATOR_SEAT, game.seats + 1), message=message
    )


def _apply_action(
    *,
    game_id: int,
    action: Any,
    expected_version: int,
    key: str,
    seat: int | None = None,
    user: AnyUser | None = None,
    system: bool = False,
    socket: str | None = None,
) -> Applied:
    """Apply one action of `seat` (or of the seat `user` plays), once per key.

    `socket`: the id of the acting page's game socket, which then skips this version (the
    answer carries the view); only a socket of this user and seat with that id does.

    At most five statements however long the game, a turn change included: lock the row (it
    carries the acting seat, the players' settings, what `key` already did and the newest log
    number), append the log (its action row keeps `key`: the receipt) and save the game (one
    statement on PostgreSQL), and on a turn change read who holds the seats and write their
    notices.
    """
    if not isinstance(key, str) or not key or len(key) > KEY_MAX_LENGTH:
        raise MalformedAction(f"The idempotency key must be 1 to {KEY_MAX_LENGTH} characters.")
    with transaction.atomic():
        game, seat, stored = _locked_game(
            game_id=game_id, key=key, seat=seat, user=user, system=system
        )
        answer = _replayed_answer(
            game=game,
            seat=seat,
            stored=stored,
            action=action,
            system=system,
            key=key,
            expected_version=expected_version,
        )
        if answer is not None:
            view = None if user is None else game_seat_view_cached(game=game, seat=seat)
            return Applied(response=answer, view=view, game=game, state=None)
        if game.outcome:  # over, by the rules or by an admin: nothing is played any more
            raise ActionRejected("The quest is over.")
        face = game_face_of(game)
        state = game_state(game=game)
        try:
            setting = face.setting_of(state, seat, action)
        except Refusal as refusal:
            raise _refused(refusal) from None
        if setting is not None:
            response = _setting_change(
                game=game, seat=seat, setting=setting, system=system, key=key
            )
            in_play = face.with_settings(state, game.settings)
            view = None if user is None else seat_view_of_state(game=game, seat=seat, state=in_play)
            return Applied(response=response, view=view, game=game, state=in_play)

        judgement = _judge(face=face, game=game, state=state, seat=seat, action=action)
        if not system and seat in orders_due(game=game, state=state):
            _orders_taken_over(game=game, seat=seat)  # the player plays this turn themself
        events, log_rows = _log_rows(
            game=game, seat=seat, system=system, key=key, action=action, judgement=judgement
        )
        new_state = judgement.step.state
        turn_changed = _store(
            face=face, game=game, new_state=new_state, log_rows=log_rows, actor=user
        )
        if game.outcome:
            _after_the_end(face=face, game=game, new_state=new_state)
        if turn_changed:
            _after_turn_change(game=game, new_state=new_state)
        elif not system and game.orders and orders_due(game=game, state=new_state):
            # The seat keeps the turn and its orders begin (its next piece's): play them.
            transaction.on_commit(functools.partial(orders_enqueue, game.pk))

        response = _response(face=face, version=game.version, seat=seat, events=events)
        view = None
        if user is not None:  # kept for this process's sockets once it is committed
            view = seat_view_of_state(game=game, seat=seat, state=new_state)
            transaction.on_commit(functools.partial(view_cache.put, view))
        built = view
        # Lobbies following the game hear of it only when the turn changed (or it ended).
        message: dict[str, Any] = {"type": "game.changed", "version": game.version}
        if turn_changed or game.outcome:
            message["turn"] = True
        if user is not None and (socket := socket_id_or_none(socket)) is not None:
            message["answered"] = {"socket": socket, "user": user.pk, "seat": seat}

        def views_then_poke() -> None:  # robust on_commit logs its __qualname__
            _views_then_poke(game=game, state=new_state, built=built, message=message)

        transaction.on_commit(views_then_poke, robust=True)
    return Applied(response=response, view=view, game=game, state=new_state)


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
    `system=True` (timeouts, the AI) marks it as the site's; the game judges it like any other.
    System keys live in a namespace of their own: no key a client sends can answer for them.
    """
    return game_system_act(
        game_id=game_id,
        seat=seat,
        action=action,
        expected_version=expected_version,
        key=key,
        system=system,
    ).response


def game_system_act(
    *,
    game_id: int,
    seat: int,
    action: Any,
    expected_version: int,
    key: str,
    system: bool = True,
) -> Applied:
    """`quest_apply_action`, answering with the game as it now stands and its new state, so a
    timeout or the AI plays on without reading the row again."""
    return _apply_action(
        game_id=game_id,
        seat=seat,
        action=action,
        expected_version=expected_version,
        key=key,
        system=system,
    )


@dataclass(frozen=True)
class ActionAnswer:
    """What a player's action returns: the stored response and their seat's view after it."""

    response: dict[str, Any]
    view: SeatView


def game_action_submit(
    *,
    game_id: int,
    user: AnyUser,
    action: Any,
    expected_version: int,
    key: str,
    socket: str | None = None,
) -> ActionAnswer:
    """`quest_apply_action` for the seat `user` plays (GameNotFound for non-members), with the
    seat's new view (for a replayed key: its current view), so a client needs no GET after.
    `socket` is the id of the acting page's game socket (`X-Socket-Id`): that socket is not
    sent the new version's view again; the user's other sockets and every other seat's are."""
    try:
        applied = _apply_action(
            game_id=game_id,
            user=user,
            action=action,
            expected_version=expected_version,
            key=key,
            socket=socket,
        )
    except GameNotFound:
        _refuse_spectator(game_id=game_id, user=user, doing="play")
        raise
    assert applied.view is not None  # a user acted
    return ActionAnswer(response=applied.response, view=applied.view)


def _refuse_spectator(*, game_id: int, user: AnyUser, doing: str) -> None:
    """Say so clearly when a spectator (not a seat) tries to `doing`; otherwise return."""
    try:
        _, seat = game_membership(game_id=game_id, user=user, watch=True)
    except GameNotFound:
        return
    if seat == SPECTATOR_SEAT:
        raise SpectatorsOnlyWatch(f"Spectators watch the quest; they do not {doing}.")


def game_seats_changed(*, game_id: int) -> None:
    """Call, in its transaction, when a seat of a launched game changes hands or spectators are
    switched off: every socket of the game checks again whose seat it holds (sockets check
    membership when they connect, not on every change). The game's access generation is bumped
    in the same transaction, so a socket whose poke is lost still checks again before its next
    frame (every view carries the generation it was built at)."""
    Game.objects.filter(pk=game_id).update(access_generation=F("access_generation") + 1)
    poke_on_commit(group=game_group(game_id=game_id), message={"type": "game.seats"})


# --- replays ----------------------------------------------------------------------------------


def game_replay_publish(*, game_id: int, user: AnyUser, public: bool) -> Game:
    """The host lets anyone with the link watch the replay once the quest is over (or stops)."""
    game = Game.objects.select_related("room").filter(pk=game_id).first()
    if game is None or not user.is_authenticated:
        raise GameNotFound("There is no such game.")
    if game.room.host_id != user.pk:
        if not game.room.seats.filter(user_id=user.pk).exists():
            raise GameNotFound("There is no such game.")
        raise NotHost("Only the host can make the replay public.")
    # Only this flag: the seed's commitment, salt and seed are never written after the launch.
    Game.objects.filter(pk=game.pk).update(replay_public=public)
    game.replay_public = public
    return game


# --- table talk --------------------------------------------------------------------------------

CHAT_MAX_LENGTH = 1000
# Control characters other than tab and newline: invisible, and PostgreSQL refuses NUL.
_CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def _chat_text(text: str) -> str:
    """The message as stored: newlines normalised, control characters dropped, trimmed."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _CONTROL_CHARACTERS.sub("", text).strip()
    if not text:
        raise ChatRefused("Write something before sending.")
    if len(text) > CHAT_MAX_LENGTH:
        raise ChatRefused(
            f"A message can be at most {CHAT_MAX_LENGTH:,} characters; this one has {len(text):,}."
        )
    return text


def _chat_too_fast(user_id: int) -> bool:
    """Count this message against the user's chat rate (settings.RATE_LIMITS["chat"]).

    If the cache cannot be reached (Redis down), the message goes through: a chat line is worth
    more than the limit, and nothing user-facing may wait on Redis.
    """
    return rate_limit_exceeded(group="chat", key=f"user:{user_id}")


def chat_message_post(
    *, game_id: int, user: AnyUser, text: str, as_narrator: bool = False
) -> ChatMessage:
    """A member's message in the game's chat (GameNotFound for anyone else).

    Plain text, 1 to CHAT_MAX_LENGTH characters; Zargon's player may speak `as_narrator`.
    Rate-limited per user (settings.RATE_LIMITS["chat"]). Only the players who asked for table
    talk by email (`email_chat`, off by default) are notified; nobody else is.
    """
    game, seat = game_membership(game_id=game_id, user=user, watch=True)
    if seat == SPECTATOR_SEAT:
        raise SpectatorsOnlyWatch("Spectators read the table talk; only the players speak.")
    text = _chat_text(text)
    face = game_face_of(game)
    if as_narrator and seat != face.narrator_seat:
        narrator = next(
            (r.label for r in face.seat_roles(game.seats) if r.number == face.narrator_seat),
            "",
        )
        raise NotTheNarrator(
            f"Only {narrator} speaks as the narrator." if narrator else "Nobody narrates here."
        )
    assert user.pk is not None
    if _chat_too_fast(user.pk):
        raise ChatTooFast("You are sending messages too fast: wait a moment and try again.")
    with transaction.atomic():
        message = ChatMessage.objects.create(
            game=game,
            kind=ChatMessage.Kind.NARRATOR if as_narrator else ChatMessage.Kind.PLAYER,
            author=user,
            seat=seat,
            text=text,
        )
        chat_notices_send(
            game=game, speaker=user, name=chat_message_json(message)["name"], text=text
        )
        # Only its id: each consumer reads it back through the membership check.
        poke_on_commit(
            group=game_group(game_id=game.pk), message={"type": "chat.posted", "id": message.pk}
        )
    return message
