"""Running the table: the host pauses and resumes the clock; admins unstick games.

Each of these writes a table note into the game's log (`GameEvent.Kind.NOTE`): who did what,
when. Notes are outside the engine: the replay skips them and no seat's log shows them, but the
admin's log of the game reads them in order with the rest.

- `game_pause` / `game_resume` (the host, or staff): while paused there is no deadline and no
  reminder; resuming shifts `turn_started` by the pause, so the remaining time is kept.
- `game_seat_give` (staff): an absent player's seat goes to another user, who is told.
- `game_abandon` (staff): a stuck game ends with the outcome `abandoned`; everyone is told.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from apps.accounts.models import User
from apps.campaigns.services import campaign_record_outcome
from apps.notifications.services import Kind, notification_send
from apps.play.clock_live import game_clock_changed
from apps.play.errors import GameNotFound, NotHost, TableRefused
from apps.play.models import ABANDONED, Game, GameEvent
from apps.play.notices import game_topic, game_url, turn_notices_send
from apps.play.selectors import AnyUser, game_face_of, game_state
from apps.play.services import game_seats_changed
from apps.rooms.models import Room, Seat
from apps.rooms.services import RoomError, RoomNotFound, room_changed, room_spectators_set


def _locked_game(game_id: int) -> Game:
    game = Game.objects.select_for_update().select_related("room").filter(pk=game_id).first()
    if game is None:
        raise GameNotFound("There is no such game.")
    return game


def _require_host_or_staff(game: Game, user: AnyUser, *, staff: bool) -> None:
    if staff:
        if not (user.is_authenticated and user.is_staff):
            raise NotHost("Only staff can do this.")
        return
    if not user.is_authenticated or not (
        game.room.host_id == user.pk or game.room.seats.filter(user_id=user.pk).exists()
    ):
        raise GameNotFound("There is no such game.")
    if game.room.host_id != user.pk:
        raise NotHost("Only the host can pause or resume the game.")


def _require_in_play(game: Game) -> None:
    if game.outcome:
        raise TableRefused("The quest is over.")


def _by(user: AnyUser, *, staff: bool) -> dict[str, Any]:
    return {"by": user.get_username(), "staff": staff}


def game_note(*, game: Game, note: dict[str, Any]) -> GameEvent:
    """Append a table note to the game's log (in the caller's transaction, the game locked).

    It is numbered on from the row's `last_seq`, which it bumps (the action service does too).
    Every note changes what the room page and the lobby show (paused, a seat given, the end),
    so their open pages are poked after commit.
    """
    room_changed(room_id=game.room_id)
    game.last_seq += 1
    Game.objects.filter(pk=game.pk).update(last_seq=game.last_seq)
    return GameEvent.objects.create(
        game=game, seq=game.last_seq, version=game.version, kind=GameEvent.Kind.NOTE, payload=note
    )


def game_pause(*, game_id: int, user: AnyUser, staff: bool = False) -> Game:
    """Stop the game's clock (idempotent): no deadline and no reminder until it is resumed."""
    with transaction.atomic():
        game = _locked_game(game_id)
        _require_host_or_staff(game, user, staff=staff)
        _require_in_play(game)
        if game.paused_at is not None:
            return game
        game.paused_at = timezone.now()
        game.save(update_fields=["paused_at", "updated"])
        game_note(game=game, note={"type": "paused", **_by(user, staff=staff)})
        game_clock_changed(game_id=game.pk)
    return game


def game_resume(*, game_id: int, user: AnyUser, staff: bool = False) -> Game:
    """Start the clock again where it stopped: the turn keeps the time it had left."""
    with transaction.atomic():
        game = _locked_game(game_id)
        _require_host_or_staff(game, user, staff=staff)
        _require_in_play(game)
        if game.paused_at is None:
            return game
        now = timezone.now()
        if game.turn_started is not None:
            # A turn that began during the pause starts now; an older one is moved by the pause.
            game.turn_started += now - max(game.paused_at, game.turn_started)
        paused_for = now - game.paused_at
        game.paused_at = None
        game.save(update_fields=["paused_at", "turn_started", "updated"])
        game_note(
            game=game,
            note={
                "type": "resumed",
                "paused_seconds": int(paused_for.total_seconds()),
                **_by(user, staff=staff),
            },
        )
        game_clock_changed(game_id=game.pk)
    return game


def game_seat_give(*, game_id: int, number: int, to_user: User, by: AnyUser) -> Game:
    """Give seat `number` (an absent player's) to `to_user`, who is told (staff only)."""
    with transaction.atomic():
        game = _locked_game(game_id)
        _require_host_or_staff(game, by, staff=True)
        _require_in_play(game)
        seat = Seat.objects.select_for_update().filter(room=game.room, number=number).first()
        if seat is None:
            raise TableRefused(f"This game has no seat {number}.")
        if seat.user_id == to_user.pk:
            return game
        if Seat.objects.filter(room=game.room, user=to_user).exists():
            raise TableRefused(f"{to_user} already plays another seat in this game.")
        previous_user = seat.user
        previous = previous_user.get_username() if previous_user else None
        seat.user = to_user
        seat.save(update_fields=["user"])
        game_seats_changed(game_id=game.pk)  # the previous player's sockets close
        game_note(
            game=game,
            note={
                "type": "seat_given",
                "seat": number,
                "from": previous,
                "to": to_user.get_username(),
                **_by(by, staff=True),
            },
        )
        to_move = number in game.to_move
        roles = game_face_of(game).seat_roles(game.seats)
        role = next((r.label for r in roles if r.number == number), f"seat {number}")
        notification_send(
            user=to_user,
            kind=Kind.SEAT,
            title=f"You now play {role} in {game.room.name}",
            body="An administrator gave you this seat." + (" It is your turn." if to_move else ""),
            url=game_url(game),
            topic=game_topic(game_id=game.pk),
        )
        if previous_user is not None:  # the player who lost the seat is told too
            notification_send(
                user=previous_user,
                kind=Kind.SEAT,
                title=f"Your seat in {game.room.name} was given to {to_user}",
                body=f"An administrator gave {role} to another player; the game goes on "
                "without you.",
                url="/",
            )
    return game


def game_abandon(*, game_id: int, by: AnyUser) -> Game:
    """End a stuck game: outcome `abandoned`, the room finished, every player told (staff)."""
    with transaction.atomic():
        game = _locked_game(game_id)
        _require_host_or_staff(game, by, staff=True)
        _require_in_play(game)
        game.outcome, game.to_move, game.paused_at = ABANDONED, [], None
        game.save(update_fields=["outcome", "to_move", "paused_at", "updated"])
        Room.objects.filter(pk=game.room_id).update(status=Room.Status.FINISHED)
        game_note(game=game, note={"type": "abandoned", **_by(by, staff=True)})
        # The version stays (the log replays to it): every socket checks again and is sent the
        # ended view, which its cache tells from the running one by the outcome.
        game_seats_changed(game_id=game.pk)
        face = game_face_of(game)
        state = game_state(game=game)
        if face.has_campaigns:
            finals, reward = face.campaign_results(state)
            campaign_record_outcome(
                room=game.room, outcome=ABANDONED, heroes=finals, reward_gold=reward
            )
        turn_notices_send(game=game, state=state)
    return game


def game_spectators_set(*, game_id: int, user: AnyUser, allow: bool) -> Game:
    """The host lets spectators watch the game, or stops them: a spectator's next request is
    refused and its open sockets close (every socket checks its seat again)."""
    game = Game.objects.filter(pk=game_id).only("pk", "room_id").first()
    if game is None:
        raise GameNotFound("There is no such game.")
    try:
        with transaction.atomic():
            room_spectators_set(room_id=game.room_id, user=user, allow=allow)
            game_seats_changed(game_id=game.pk)
    except RoomNotFound:
        raise GameNotFound("There is no such game.") from None
    except RoomError as exc:
        raise NotHost(exc.message) from None
    return game
