"""The play API: launch a room's quest, read a seat's view and log, post actions, table talk.

Mounted by config/api.py: `router` at `/api/games`, `launch_router` at `/api/rooms`.
Games answer 404 to non-members (their existence is not revealed).
"""

from typing import Any, Literal

from django.http import HttpRequest, HttpResponse
from ninja import Field, Router, Schema, Status
from pydantic import StrictInt

from apps.accounts.services import token_authenticate
from apps.core.jsontext import json_text
from apps.games.registry import game_faces
from apps.play.links import game_by_replay_link
from apps.play.orders import game_orders_cancel, game_orders_read, game_orders_set
from apps.play.recap import game_recap, game_seen
from apps.play.replay import REPLAY_PAGE_MAX, game_replay_page_json, replay_page_json
from apps.play.selectors import (
    CHAT_PAGE_SIZE,
    chat_message_json,
    game_chat,
    game_clock_for,
    game_events,
    game_fairness,
    game_kind_json,
    game_membership,
    game_view_encoded,
)
from apps.play.services import (
    CHAT_MAX_LENGTH,
    chat_message_post,
    game_action_submit,
    game_launch,
    game_replay_publish,
)
from apps.play.table import game_pause, game_resume

router = Router(tags=["games"])
launch_router = Router(tags=["rooms"])


class ErrorOut(Schema):
    detail: str


class StaleOut(Schema):
    detail: str
    version: int


class LaunchOut(Schema):
    game_id: int


class ActionIn(Schema):
    action: dict[str, Any] = Field(description="One element of the view's legal_actions.")
    expected_version: StrictInt = Field(
        description="The version of the view the action was chosen in."
    )
    idempotency_key: str = Field(
        min_length=1, max_length=80, description="A fresh key per action; resend it to retry."
    )


class ActionOut(Schema):
    version: int
    entries: list[dict[str, Any]]
    view: dict[str, Any] = Field(
        description="The acting seat's view after the action (as GET view answers), "
        "so the client needs no GET after a POST."
    )


def _json(text: str) -> HttpResponse:
    """An answer whose JSON was encoded once, ahead (the seat views are cached as text)."""
    return HttpResponse(text, content_type="application/json")


@launch_router.post(
    "/{room_id}/launch",
    url_name="room_launch",
    response={200: LaunchOut, 403: ErrorOut, 404: ErrorOut, 409: ErrorOut},
    summary="Launch the room's quest (host only, every seat taken)",
)
def launch(request: HttpRequest, room_id: int) -> Any:
    game = game_launch(room_id=room_id, user=request.user)
    return Status(200, {"game_id": game.pk})


class SeatRoleOut(Schema):
    number: int
    role: str
    label: str
    pieces: list[str]


class OptionOut(Schema):
    name: str
    label: str
    default: Any
    choices: list[list[str]] = Field(description="(value, label) pairs; empty: true or false.")
    help: str


class GameKindOut(Schema):
    slug: str
    name: str
    min_seats: int
    max_seats: int
    ai_seat: int | None = Field(description="The seat an AI may play (`ai_seat` of a room).")
    has_campaigns: bool
    scenarios: list[dict[str, str]] = Field(description="Each shipped scenario's slug and name.")
    options: list[OptionOut]
    seat_roles: list[SeatRoleOut] = Field(description="The roles at the largest table.")
    timeout_rule: str


@router.get(
    "/kinds",
    url_name="game_kinds",
    response={200: list[GameKindOut]},
    summary="The games the site plays: seats, scenarios, room options, the timeout rule",
)
def kinds(request: HttpRequest) -> Any:
    return [game_kind_json(face=face) for face in game_faces()]


@router.get(
    "/{game_id}/view",
    url_name="game_view",
    response={200: dict[str, Any], 404: ErrorOut},
    summary="The seat view of the caller, with version and game_id",
)
def view(request: HttpRequest, game_id: int) -> Any:
    return _json(game_view_encoded(game_id=game_id, user=request.user).json)


@router.post(
    "/{game_id}/actions",
    url_name="game_actions",
    response={
        200: ActionOut,
        400: ErrorOut,
        403: ErrorOut,
        404: ErrorOut,
        409: StaleOut,
        422: ErrorOut,
    },
    summary="Play one action (applied once per idempotency key)",
    description="The answer carries the seat's new view. A page with a game socket sends its "
    "socket's id (the `socket` query parameter it opened `/ws/games/<id>/` with) as the "
    "`X-Socket-Id` header: that socket then does not send this version's view again.",
)
def actions(request: HttpRequest, game_id: int, payload: ActionIn) -> Any:
    answer = game_action_submit(
        game_id=game_id,
        user=request.user,
        action=payload.action,
        expected_version=payload.expected_version,
        key=payload.idempotency_key,
        # The page's game socket, which then does not send it this version's view again.
        socket=request.headers.get("X-Socket-Id"),
    )
    version, entries = answer.response["version"], json_text(answer.response["entries"])
    return _json(f'{{"version":{version},"entries":{entries},"view":{answer.view.json}}}')


@router.get(
    "/{game_id}/events",
    url_name="game_events",
    response={200: list[dict[str, Any]], 404: ErrorOut},
    summary="The caller's log entries after engine sequence number `after` (or before `before`)",
    description="Keyset pages, oldest first: ask again with `after` = the last entry's `seq` for "
    "the next page, or with `before` = the first entry's `seq` for the previous one; "
    "`before` alone gives the newest entries.",
)
def events(
    request: HttpRequest,
    game_id: int,
    after: int = 0,
    before: int | None = None,
    limit: int = 1000,
) -> Any:
    entries = game_events(
        game_id=game_id, user=request.user, after=after, before=before, limit=limit
    )
    return Status(200, entries)


class ClockOut(Schema):
    paused: bool
    deadline: str | None = Field(description="When the turn ends by itself (ISO 8601), if ever.")
    away_until: str | None = Field(description="An away player to move is back then (ISO 8601).")


def _clock_out(game_id: int, request: HttpRequest) -> Any:
    clock = game_clock_for(game_id=game_id, user=request.user)
    return Status(
        200,
        {
            "paused": bool(clock and clock.paused),
            "deadline": clock.deadline.isoformat() if clock and clock.deadline else None,
            "away_until": clock.away_until.isoformat() if clock and clock.away_until else None,
        },
    )


@router.post(
    "/{game_id}/pause",
    url_name="game_pause",
    response={200: ClockOut, 403: ErrorOut, 404: ErrorOut, 409: ErrorOut},
    summary="Stop the turn clock: no deadline, no reminder (host only)",
)
def pause(request: HttpRequest, game_id: int) -> Any:
    game_pause(game_id=game_id, user=request.user)
    return _clock_out(game_id, request)


@router.post(
    "/{game_id}/resume",
    url_name="game_resume",
    response={200: ClockOut, 403: ErrorOut, 404: ErrorOut, 409: ErrorOut},
    summary="Start the turn clock again; the turn keeps the time it had left (host only)",
)
def resume(request: HttpRequest, game_id: int) -> Any:
    game_resume(game_id=game_id, user=request.user)
    return _clock_out(game_id, request)


class ChatMessageOut(Schema):
    id: int
    kind: Literal["player", "narrator", "parchment"] = Field(
        description="A player's message, the game master's seat speaking as the narrator, or "
        "the scenario's parchment (the first message of a game that has one)."
    )
    name: str = Field(description="Who speaks: the player, “The narrator” or “The parchment”.")
    seat: int | None
    text: str = Field(description="Plain text: show it as text, never as HTML.")
    created: str = Field(description="When it was said (ISO 8601, UTC).")


class ChatPageOut(Schema):
    messages: list[ChatMessageOut] = Field(description="Oldest first.")
    more: bool = Field(
        description="There are older messages (ask with before=<first id>), or, when paging "
        "with after, newer ones (ask with after=<last id>)."
    )


class ChatIn(Schema):
    text: str = Field(description=f"Plain text, 1 to {CHAT_MAX_LENGTH} characters.")
    as_narrator: bool = Field(
        False, description="The narrator's seat only (a game master's): speak as the narrator."
    )


@router.get(
    "/{game_id}/chat",
    url_name="game_chat",
    response={200: ChatPageOut, 404: ErrorOut},
    summary="The game's table talk, a page at a time (members only)",
)
def chat(
    request: HttpRequest,
    game_id: int,
    before: int | None = None,
    after: int | None = None,
    limit: int = CHAT_PAGE_SIZE,
) -> Any:
    """Without `before` or `after`: the latest messages. `before=<id>`: the page older than that
    message; `after=<id>`: the messages newer than it (to catch up after a reconnect)."""
    page = game_chat(game_id=game_id, user=request.user, before=before, after=after, limit=limit)
    return Status(200, {"messages": page.messages, "more": page.more})


@router.post(
    "/{game_id}/chat",
    url_name="game_chat_post",
    response={201: ChatMessageOut, 403: ErrorOut, 404: ErrorOut, 422: ErrorOut, 429: ErrorOut},
    summary="Say something at the table (members only; rate-limited; no email)",
)
def chat_post(request: HttpRequest, game_id: int, payload: ChatIn) -> Any:
    message = chat_message_post(
        game_id=game_id, user=request.user, text=payload.text, as_narrator=payload.as_narrator
    )
    return Status(201, chat_message_json(message))


class FairnessOut(Schema):
    commitment: str = Field(
        description='SHA-256 (hex) of "<salt>:<seed>", published at launch; "" for games '
        "launched before commitments."
    )
    revealed: bool = Field(description="The quest is over: the seed and the salt are given.")
    seed: str | None = Field(None, description="The game's seed (decimal), once revealed.")
    salt: str | None = Field(None, description="The 256-bit salt (hex), once revealed.")


@router.get(
    "/{game_id}/fairness",
    url_name="game_fairness",
    response={200: FairnessOut, 404: ErrorOut},
    summary="The seed's commitment; the seed and its salt once the quest is over (members and "
    "spectators)",
)
def fairness(request: HttpRequest, game_id: int) -> Any:
    game, _ = game_membership(game_id=game_id, user=request.user, watch=True)  # spectators too
    return Status(200, game_fairness(game=game).as_json())


def _anyone(request: HttpRequest) -> bool:
    """Public replays are open to visitors: a bearer token or a session is used when given."""
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer "):
        user = token_authenticate(raw=header.removeprefix("Bearer ").strip())
        if user is None:
            return False
        request.user = user
    return True


@router.get(
    "/{game_id}/replay",
    url_name="game_replay",
    auth=_anyone,
    response={200: dict[str, Any], 404: ErrorOut, 409: ErrorOut},
    summary="A finished game's replay, a page of steps at a time (its players)",
    description="Step 0 is the launch, step n the n-th accepted action: the board after it with "
    "everything revealed (the game's replay view), its log entries in full and its RNG draws "
    "`[purpose, n, result]` (each game documents its purposes: a die shows result + 1). "
    "`fairness` gives the seed and salt. Only once the game is over; 404 for non-players (a "
    "public replay is read by its link: `/replays/{token}`).",
)
def replay(request: HttpRequest, game_id: int, start: int = 0, count: int = 50) -> Any:
    count = min(count, REPLAY_PAGE_MAX)
    return _json(
        game_replay_page_json(game_id=game_id, user=request.user, start=start, count=count)
    )


@router.get(
    "/replays/{token}",
    url_name="replay_link",
    auth=_anyone,
    response={200: dict[str, Any], 404: ErrorOut, 409: ErrorOut},
    summary="A public replay by the link the host shares, a page of steps at a time (anyone)",
    description="As `/{game_id}/replay`, for the token of the host's public link "
    "(`/replays/<token>/`): 404 alike for a wrong token, a private replay and a running game.",
)
def replay_link(request: HttpRequest, token: str, start: int = 0, count: int = 50) -> Any:
    return _json(
        replay_page_json(game_by_replay_link(token=token), start, min(count, REPLAY_PAGE_MAX))
    )


class PublicIn(Schema):
    public: bool


class PublicOut(Schema):
    public: bool


@router.post(
    "/{game_id}/replay/public",
    url_name="game_replay_public",
    response={200: PublicOut, 403: ErrorOut, 404: ErrorOut},
    summary="Let anyone with the link watch the replay once the quest is over (host only)",
)
def replay_public(request: HttpRequest, game_id: int, payload: PublicIn) -> Any:
    game = game_replay_publish(game_id=game_id, user=request.user, public=payload.public)
    return Status(200, {"public": game.replay_public})


# --- standing orders and the recap (apps/play/orders.py, apps/play/recap.py) --------------------


class OrdersIn(Schema):
    orders: dict[str, Any] = Field(
        description="The game's standing orders for your seat (docs/web-contract.md); {} none."
    )


class OrdersOut(Schema):
    orders: dict[str, Any] = Field(description="Your seat's queued orders ({}: none).")
    lines: list[str] = Field(description="The orders in words, one line each.")
    note: str = Field(description="Why your last orders stopped (empty: they did not).")
    note_version: int | None = Field(description="The version at which they stopped.")


@router.get(
    "/{game_id}/orders",
    url_name="game_orders",
    response={200: OrdersOut, 404: ErrorOut},
    summary="Your seat's standing orders (yours only: no other seat ever sees them)",
)
def orders_get(request: HttpRequest, game_id: int) -> Any:
    return Status(200, game_orders_read(game_id=game_id, user=request.user).as_json())


@router.put(
    "/{game_id}/orders",
    url_name="game_orders_set",
    response={200: OrdersOut, 404: ErrorOut, 422: ErrorOut},
    summary="Queue standing orders for your seat's next turn (they replace the earlier ones)",
    description="The game judges them on what your seat sees now (422 lists every problem). "
    "When your turn comes the site plays them step by step and stops at the first change that "
    "matters, telling you why; if it is your turn already they start at once.",
)
def orders_put(request: HttpRequest, game_id: int, payload: OrdersIn) -> Any:
    out = game_orders_set(game_id=game_id, user=request.user, orders=payload.orders)
    return Status(200, out.as_json())


@router.delete(
    "/{game_id}/orders",
    url_name="game_orders_cancel",
    response={200: OrdersOut, 404: ErrorOut},
    summary="Cancel your seat's standing orders",
)
def orders_delete(request: HttpRequest, game_id: int) -> Any:
    return Status(200, game_orders_cancel(game_id=game_id, user=request.user).as_json())


class RecapOut(Schema):
    since: int = Field(description="The version your seat had seen.")
    version: int = Field(description="The game's version now.")
    frames: list[dict[str, Any]] = Field(
        description="Oldest first: {version, view (your seat view then, without legal_actions "
        "and log), entries (your log entries of that step, dice included)}; the first frame is "
        "the board as you last saw it."
    )
    lines: list[str] = Field(description="The few story lines that sum it up.")
    skipped: int = Field(description="Older frames left out (a long absence).")


@router.get(
    "/{game_id}/recap",
    url_name="game_recap",
    response={200: RecapOut, 404: ErrorOut},
    summary="What your seat saw happen since your last visit (or since version `since`)",
)
def recap(request: HttpRequest, game_id: int, since: int | None = None) -> Any:
    return Status(200, game_recap(game_id=game_id, user=request.user, since=since).as_json())


class SeenIn(Schema):
    version: StrictInt = Field(description="The newest version your page has shown.")


class SeenOut(Schema):
    seen_version: int


@router.post(
    "/{game_id}/seen",
    url_name="game_seen",
    response={200: SeenOut, 404: ErrorOut},
    summary="Your page has shown this version: the next recap starts after it",
)
def seen(request: HttpRequest, game_id: int, payload: SeenIn) -> Any:
    version = game_seen(game_id=game_id, user=request.user, version=payload.version)
    return Status(200, {"seen_version": version})
