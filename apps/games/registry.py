"""Which games the site plays: slug -> face (pure; the platform's one way to a game).

The shipped games are imported by name the first time one is asked for, so no platform module
imports a game's package; tests may `register` a game of their own and `unregister` it after.
"""

from __future__ import annotations

import importlib

from apps.games.port import GameFace

SHIPPED = ("apps.games.heroquest", "apps.games.zagor")
DEFAULT_GAME = "heroquest"

_games: dict[str, GameFace] = {}
_loaded = False


class UnknownGame(LookupError):
    """No game of that slug is played here."""


def _load_shipped() -> None:
    global _loaded
    if not _loaded:
        for module in SHIPPED:
            face: GameFace = importlib.import_module(module).GAME
            _games.setdefault(face.slug, face)
        _loaded = True


def game_face(slug: str) -> GameFace:
    """The face of the game `slug` (UnknownGame if the site plays no such game)."""
    _load_shipped()
    try:
        return _games[slug]
    except KeyError:
        raise UnknownGame(f"There is no game {slug!r} here.") from None


def game_faces() -> list[GameFace]:
    """Every game the site plays, shipped ones first."""
    _load_shipped()
    return list(_games.values())


def register(face: GameFace) -> None:
    """Play `face` too (tests register games of their own)."""
    _load_shipped()
    _games[face.slug] = face


def unregister(slug: str) -> None:
    _games.pop(slug, None)
