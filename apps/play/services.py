"""A quest in play, the writes: launching it and the action service.

Every accepted action is one transaction on the `Game` row (docs/design.md, "Persistence and
concurrency"): lock the row, answer a replayed idempotency key with its stored response, refuse a
stale version, run the engine, append the log (its action row keeps the key: the receipt), save
the state, bump the version; five statements at most however long the game, a turn change's
notices included. After commit a content-free "game changed" message goes to the game's channel
group; each websocket consumer then sends its own seat's view, built once per version and seat
in each process (`apps.play.view_cache`).

Services raise `errors.PlayError` subclasses; each carries the HTTP status the API answers with
and a message a player can read (and that leaks nothing hidden).
"""

from __future__ import annotations

import dataclasses
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
from apps.core.prepared import PreparedQuery
from apps.games.heroquest import engine as rules
from apps.games.heroquest.engine.data import ZARGON_SEAT, heroes_of_seat
from apps.notifications.services import group_poke
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
    SpectatorsOnlyWatch,
    StaleVersion,
)
from apps.play.fairness import new_salt, seed_commitment
from apps.play.models import (
    ActionReceipt,
    ChatMessage,
    Game,
    GameEvent,
    HeroSetting,
    as_stored_json,
)
from apps.play.notices import chat_notices_send, turn_notices_send
from apps.play.selectors import (
    AnyUser,
    chat_message_json,
    entry_for_seat,
    game_hero_settings,
    game_membership,
    game_seat_view_cached,
    game_state,
    quest_of_source,
    seat_view_of_state,
    state_with_settings,
    with_hero_settings,
)
from apps.play.tasks import zargon_ai_enqueue
from apps.play.view_cache import SeatView, view_cache
from apps.rooms.models import Room, Seat
from apps.rooms.services import room_changed, room_member_seat

logger = logging.getLogger(__name__)

KEY_MAX_LENGTH = GameEvent._meta.get_field("key").max_length or 80
# Actions a seat may send whoever's turn it is (engine-api.md: not listed in legal_actions).
# They change a private per-hero setting (`HeroSetting`), never the shared game or its log.
ANY_TIME_ACTIONS = frozenset({"set_auto_drink"})


def system_key(*, kind: str, game_id: int, version: int) -> str:
    """The idempotency key of the system's action `kind` ("timeout", "ai") at `version`."""
    return f"{kind}-{game_id}-{version}"


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
        quest = quest_of_source(slug=definition.slug, source=definition.source)
        seed = secrets.randbits(63) if seed is None else seed
        salt = new_salt()
        commitment = seed_commitment(seed=seed, salt=salt)
        try:
            heroes = campaign_hero_options(room=room) or {}
        except CampaignError as exc:  # a sheet stored by hand with what the engine refuses
            raise LaunchRefused(exc.message) from None
        options: dict[str, Any] = {**room.options, **heroes}
        # The commitment is in the log before the first die: every seat can hold the site to it.
        try:
            state = rules.new_game(quest, room.seat_count, seed, options, commitment=commitment)
        except (ValueError, TypeError) as exc:  # stored data (OptionsError too), not the player
            logger.warning("room %s cannot launch: %s", room.pk, exc)
            raise LaunchRefused(f"This quest cannot start: {exc}.") from None
        game = Game.objects.create(
            room=room,
            quest_slug=definition.slug,
            quest_source=definition.source,
            seats=room.seat_count,
            seed=seed,
            seed_salt=salt,
            seed_commitment=commitment,
            options=options,
            state=state.to_json(),
            version=0,
            last_seq=len(state.log),
            turn_started=timezone.now(),
        )
        # Whatever the engine logged while setting up (the parchment, say) opens the log.
        GameEvent.objects.bulk_create(
            GameEvent(
                game=game,
                seq=n,
                version=0,
                kind=GameEvent.Kind.EVENT,
                payload=as_stored_json(e),
                event_seq=e["seq"],
            )
            for n, e in enumerate(state.log, start=1)
        )
        if quest.parchment.strip():  # the parchment opens the table talk
            ChatMessage.objects.create(
                game=game, kind=ChatMessage.Kind.PARCHMENT, text=quest.parchment.strip()
            )
        room.status = Room.Status.PLAYING
        room.save(update_fields=["status"])
        room_changed(room_id=room.pk)  # seated players' room pages go to the game
        turn_notices_send(game=game, state=state)
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
    if action_json in as_stored_json(rules.legal_actions(state, seat)):
        return  # something the engine lets this seat do out of turn
    raise NotYourTurn("It is not your turn.")


def _setting_change(
    game: Game, seat: int, action: rules.SetAutoDrink, *, system: bool, key: str
) -> dict[str, Any]:
    """Store a private setting: no version, no log entry, nothing sent to the other seats."""
    HeroSetting.objects.update_or_create(
        game=game, hero=action.hero, defaults={"auto_drink": action.on}
    )
    response = {"version": game.version, "seat": seat, "entries": []}
    ActionReceipt.objects.create(game=game, seat=seat, system=system, key=key, response=response)
    # The version stays, so this seat's cached view would hide the change here (dropping it is
    # harmless if this rolls back); other processes show it from the next version on.
    view_cache.forget(game.pk, seat)
    return response


def _send_to_sockets(game_id: int, message: dict[str, Any]) -> None:
    """Send a content-free message to the game's websocket consumers (after commit).

    The change is committed; if the poke fails clients catch up on their next fetch.
    """
    group_poke(group=game_group(game_id=game_id), message=message)


def _announce(game_id: int, version: int) -> None:
    """Tell the game's websocket consumers there is a new version (no game content)."""
    _send_to_sockets(game_id, {"type": "game.changed", "version": version})


def game_group(*, game_id: int) -> str:
    """The channel group of a game's websocket consumers."""
    return f"game-{game_id}"


def _ai_to_move(game: Game, state: rules.State) -> bool:
    """Zargon is to move and the monster AI plays him in this room."""
    return (
        state.outcome is None
        and not game.outcome
        and rules.seats_to_move(state) == [ZARGON_SEAT]
        and game.room.zargon == Room.Zargon.AI  # the room came with the locked row
    )


def _keyed_action_rows(*, game: Any, seat: Any, system: bool) -> models.QuerySet[GameEvent]:
    """The log rows of the actions `seat` (or the system, for it) sent to `game`, by key."""
    actions = GameEvent.objects.filter(game=game, kind=GameEvent.Kind.ACTION).order_by()
    return actions.filter(seat__isnull=True) if system else actions.filter(seat=seat)


def _locked_rows(
    *, game_id: int, key: str, system: bool, user_id: int | None = None, seat: int | None = None
) -> models.QuerySet[Game]:
    """The game row to lock, with the acting seat (`seat`, or the one user `user_id` holds), the
    heroes' settings and what `key` already did (the version its action produced, or a stored
    response), if any, in one statement."""
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
    games = (
        Game.objects.select_for_update(of=("self",))
        .select_related("room")
        .annotate(
            acting_seat=acting_seat,
            stored_response=Subquery(stored, output_field=models.JSONField()),
            stored_version=Subquery(logged.filter(key=key).values("version")[:1]),
        )
    )
    return with_hero_settings(games).filter(pk=game_id)


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
    `user` holds), the heroes' settings and the answer already given to `key`, if any."""
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


def _response(*, version: int, seat: int, events: list[dict[str, Any]]) -> dict[str, Any]:
    """What an action answers: its version and what `seat` may see of the events it produced."""
    seen = (entry_for_seat(event, version, seat) for event in events)
    return {"version": version, "seat": seat, "entries": [e for e in seen if e is not None]}


def _logged_response(*, game: Game, seat: int, version: int) -> dict[str, Any]:
    """The answer the action that produced `version` gave, rebuilt from its log rows."""
    rows = game.events.filter(version=version, kind=GameEvent.Kind.EVENT).order_by("seq")
    return _response(version=version, seat=seat, events=[row.payload for row in rows])


def _stored_response(*, game: Game, seat: int, system: bool, key: str) -> dict[str, Any] | None:
    logged = _keyed_action_rows(game=game, seat=seat, system=system).filter(key=key)
    version = logged.values_list("version", flat=True).first()
    if version is not None:
        return _logged_response(game=game, seat=seat, version=version)
    receipts = ActionReceipt.objects.filter(game=game, seat=seat, system=system, key=key)
    receipt = receipts.first()
    return None if receipt is None else dict(receipt.response)


def _apply_action(
    *,
    game_id: int,
    action: Any,
    expected_version: int,
    key: str,
    seat: int | None = None,
    user: AnyUser | None = None,
    system: bool = False,
) -> tuple[dict[str, Any], SeatView | None]:
    """Apply one action of `seat` (or of the seat `user` plays) and return the response, with
    the acting seat's new view when a user acted.

    At most five statements however long the game, a turn change included: lock the row (it
    carries the acting seat, the heroes' settings, what `key` already did and the newest log
    number), append the log (its action row keeps `key`: the receipt), save the game, and on a
    turn change read who holds the seats and write their notices.
    """
    if not isinstance(key, str) or not key or len(key) > KEY_MAX_LENGTH:
        raise MalformedAction(f"The idempotency key must be 1 to {KEY_MAX_LENGTH} characters.")
    with transaction.atomic():
        game, seat, stored = _locked_game(
            game_id=game_id, key=key, seat=seat, user=user, system=system
        )
        if stored is None:
            parsed = _parsed_action(action)
            if expected_version != game.version or parsed.type in ANY_TIME_ACTIONS:
                # If this statement waited for the lock, its receipt subquery saw the receipts
                # as they were before; the transaction it waited for may have answered this key.
                stored = _stored_response(game=game, seat=seat, system=system, key=key)
        if stored is not None:
            view = None if user is None else game_seat_view_cached(game=game, seat=seat)
            return dict(stored), view
        # A private setting does not depend on the game's version: a stale one is fine.
        if expected_version != game.version and parsed.type not in ANY_TIME_ACTIONS:
            raise StaleVersion(game.version)
        action_json = as_stored_json(rules.action_to_json(parsed))
        state = game_state(game=game)
        # The row's outcome, not only the engine's: an admin's "abandoned" is in the row alone.
        if game.outcome or state.outcome is not None:
            raise ActionRejected("The quest is over.")
        if not system:
            _check_seat_may_act(state, seat, parsed, action_json)
        if isinstance(parsed, rules.SetAutoDrink):
            response = _setting_change(game, seat, parsed, system=system, key=key)
            if user is None:
                return response, None
            state_with_settings(state, game_hero_settings(game=game) | {parsed.hero: parsed.on})
            return response, seat_view_of_state(game=game, seat=seat, state=state)
        settings = state_with_settings(state, game_hero_settings(game=game))
        try:
            transition = rules.apply(state, seat, parsed)
        except rules.IllegalAction as exc:
            raise ActionRejected(exc.reason) from None
        new_state = transition.state
        version = game.version + 1

        events = [as_stored_json(event) for event in transition.events]
        rows = [
            GameEvent(
                game=game,
                seq=game.last_seq + 1,
                version=version,
                kind=GameEvent.Kind.ACTION,
                seat=None if system else seat,
                payload={"seat": seat, "action": action_json, "system": system}
                | ({"settings": settings} if settings else {}),
                key=key,
            )
        ]
        rows += [
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
        GameEvent.objects.bulk_create(rows)

        fields = ["state", "version", "last_seq", "outcome", "updated"]
        seats_changed = rules.seats_to_move(new_state) != rules.seats_to_move(state)
        if seats_changed or new_state.round != state.round:  # the clock of turns.py
            game.turn_started, game.reminded_at = timezone.now(), None
            fields += ["turn_started", "reminded_at"]
        game.state = new_state.to_json()
        game.version = version
        game.last_seq += len(rows)
        game.outcome = new_state.outcome or ""  # (never an ended game's: refused above)
        game.save(update_fields=fields)
        if game.outcome:
            Room.objects.filter(pk=game.room_id).update(status=Room.Status.FINISHED)
            room_changed(room_id=game.room_id)
            finals = {h: dataclasses.asdict(hs) for h, hs in new_state.heroes.items()}
            campaign_record_outcome(
                room=game.room,
                outcome=game.outcome,
                heroes=finals,
                reward_gold=new_state.quest.reward_gold,  # as launched (Game.quest_source)
            )
        if seats_changed:  # tell the players now to move (or everyone the outcome)
            turn_notices_send(game=game, state=new_state)
            if _ai_to_move(game, new_state):  # solo play: the AI takes Zargon's phase at once
                transaction.on_commit(functools.partial(zargon_ai_enqueue, game.pk))

        response = _response(version=version, seat=seat, events=events)
        view = None
        if user is not None:  # kept for this process's sockets once it is committed
            view = seat_view_of_state(game=game, seat=seat, state=new_state)
            transaction.on_commit(functools.partial(view_cache.put, view))
        transaction.on_commit(functools.partial(_announce, game.pk, version))
    return response, view


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
    `system=True` (timeouts, the AI) skips the seat checks; the engine still validates. System
    keys live in a namespace of their own: no key a client sends can answer for them.
    """
    response, _ = _apply_action(
        game_id=game_id,
        seat=seat,
        action=action,
        expected_version=expected_version,
        key=key,
        system=system,
    )
    return response


@dataclass(frozen=True)
class ActionAnswer:
    """What a player's action returns: the stored response and their seat's view after it."""

    response: dict[str, Any]
    view: SeatView


def game_action_submit(
    *, game_id: int, user: AnyUser, action: Any, expected_version: int, key: str
) -> ActionAnswer:
    """`quest_apply_action` for the seat `user` plays (GameNotFound for non-members), with the
    seat's new view (for a replayed key: its current view), so a client needs no GET after."""
    try:
        response, view = _apply_action(
            game_id=game_id, user=user, action=action, expected_version=expected_version, key=key
        )
    except GameNotFound:
        _refuse_spectator(game_id=game_id, user=user, doing="play")
        raise
    assert view is not None  # a user acted
    return ActionAnswer(response=response, view=view)


def _refuse_spectator(*, game_id: int, user: AnyUser, doing: str) -> None:
    """Say so clearly when a spectator (not a seat) tries to `doing`; otherwise return."""
    try:
        _, seat = game_membership(game_id=game_id, user=user, watch=True)
    except GameNotFound:
        return
    if seat == rules.SPECTATOR_SEAT:
        raise SpectatorsOnlyWatch(f"Spectators watch the quest; they do not {doing}.")


def game_seats_changed(*, game_id: int) -> None:
    """Call, in its transaction, when a seat of a launched game changes hands or spectators are
    switched off: every socket of the game checks again whose seat it holds (sockets check
    membership when they connect, not on every change). The game's access generation is bumped
    in the same transaction, so a socket whose poke is lost still checks again before its next
    frame (every view carries the generation it was built at)."""
    Game.objects.filter(pk=game_id).update(access_generation=F("access_generation") + 1)
    transaction.on_commit(functools.partial(_send_to_sockets, game_id, {"type": "game.seats"}))


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


def _announce_chat(game_id: int, message_id: int) -> None:
    """Tell the game's websocket consumers a message was posted (its id only: each consumer
    reads it back through the membership check). The message is stored; if the poke fails,
    clients catch up when they reconnect."""
    group_poke(group=game_group(game_id=game_id), message={"type": "chat.posted", "id": message_id})


def chat_message_post(
    *, game_id: int, user: AnyUser, text: str, as_narrator: bool = False
) -> ChatMessage:
    """A member's message in the game's chat (GameNotFound for anyone else).

    Plain text, 1 to CHAT_MAX_LENGTH characters; Zargon's player may speak `as_narrator`.
    Rate-limited per user (settings.RATE_LIMITS["chat"]). Only the players who asked for table
    talk by email (`email_chat`, off by default) are notified; nobody else is.
    """
    game, seat = game_membership(game_id=game_id, user=user, watch=True)
    if seat == rules.SPECTATOR_SEAT:
        raise SpectatorsOnlyWatch("Spectators read the table talk; only the players speak.")
    text = _chat_text(text)
    if as_narrator and seat != ZARGON_SEAT:
        raise NotTheNarrator("Only Zargon speaks as the narrator.")
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
        transaction.on_commit(functools.partial(_announce_chat, game.pk, message.pk))
    return message
