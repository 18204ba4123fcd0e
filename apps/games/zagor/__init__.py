"""Legend of Zagor's wing: a pure rules engine (docs/zagor/rules.md) behind one face, `GAME`."""

from .face import GAME, ZagorFace

__all__ = ["GAME", "ZagorFace"]
