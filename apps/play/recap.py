"""The recap of what a seat missed: on opening a game after being away, a short replay of only
what that seat saw since its last visit, step by step with the dice, and a few story lines.

Each frame is the seat's own view at that version, built by the same per-seat view code as the
live page (`face.seat_view` on the states the log walk rebuilds, `apps/play/walk.py`), never the
replay's full map; its entries are the seat's own view of the log (`entry_for_seat`). A step
that changed nothing the seat can see is left out. The seat's last visit is the newest version
its page said it had shown (`SeatVisit`, `game_seen`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import F
from django.db.models.functions import Greatest

from apps.games.port import Json
from apps.play.models import Game, SeatVisit
from apps.play.selectors import (
    AnyUser,
    entry_for_seat,
    game_face_of,
    game_membership,
    orders_face,
)
from apps.play.walk import game_log_walk

# A recap shows at most this many frames (the newest): longer absences read the log.
RECAP_FRAMES_MAX = 200
# Left out of a frame: what the recap does not replay (the buttons, the whole log so far).
FRAME_DROPS = ("legal_actions", "log")


@dataclass
class Recap:
    since: int  # the version the seat had seen
    version: int  # the game's version now
    frames: list[Json] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    skipped: int = 0  # frames left out at the start (more than RECAP_FRAMES_MAX)

    def as_json(self) -> dict[str, Any]:
        return {
            "since": self.since,
            "version": self.version,
            "frames": self.frames,
            "lines": self.lines,
            "skipped": self.skipped,
        }


def frame_view(view: Json) -> Json:
    """A seat view as a recap frame shows it."""
    return {k: v for k, v in view.items() if k not in FRAME_DROPS}


def seat_seen_version(*, game: Game, seat: int) -> int | None:
    """The newest version the seat's player has seen, or None (never recorded)."""
    visits = SeatVisit.objects.filter(game=game, seat=seat)
    return visits.values_list("seen_version", flat=True).first()


def game_seen(*, game_id: int, user: AnyUser, version: int) -> int:
    """The page of the seat `user` plays has shown `version`: its last visit moves on (never
    back, never past the game). The version now recorded."""
    game, seat = game_membership(game_id=game_id, user=user)
    version = max(0, min(version, game.version))
    visits = SeatVisit.objects.filter(game=game, seat=seat)
    if not visits.update(seen_version=Greatest(F("seen_version"), version)):
        visit, _ = SeatVisit.objects.get_or_create(
            game=game, seat=seat, defaults={"seen_version": version}
        )
        return max(visit.seen_version, version)
    return int(visits.values_list("seen_version", flat=True).get())


def game_recap(*, game_id: int, user: AnyUser, since: int | None = None) -> Recap:
    """What the seat `user` plays saw happen after version `since` (default: its last visit;
    no visit recorded: nothing to recap), frame by frame."""
    game, seat = game_membership(game_id=game_id, user=user)
    if since is None:
        since = seat_seen_version(game=game, seat=seat)
        if since is None:
            return Recap(since=game.version, version=game.version)
    since = max(0, min(since, game.version))
    recap = Recap(since=since, version=game.version)
    if since >= game.version:
        return recap
    face = game_face_of(game)
    previous: Json | None = None
    entries_seen: list[Json] = []
    for step in game_log_walk(game=game):
        version = 0 if step.row is None else step.row.version
        view = frame_view(face.seat_view(step.state, seat))
        if version <= since:
            previous = view
            continue
        entries = [
            entry
            for entry in (entry_for_seat(face, row.payload, version, seat) for row in step.stored)
            if entry is not None
        ]
        if view == previous and not entries:
            continue  # nothing this seat could see
        if not recap.frames and previous is not None:  # the board as the seat last saw it
            recap.frames.append({"version": since, "view": previous, "entries": []})
        recap.frames.append({"version": version, "view": view, "entries": entries})
        entries_seen += entries
        previous = view
    if len(recap.frames) > RECAP_FRAMES_MAX + 1:
        recap.skipped = len(recap.frames) - RECAP_FRAMES_MAX
        recap.frames = recap.frames[-RECAP_FRAMES_MAX:]
    story = orders_face(face)
    if story is not None:
        recap.lines = story.recap_lines(entries_seen)
    else:
        recap.lines = [str(e.get("text")) for e in entries_seen if e.get("text")][-8:]
    return recap
