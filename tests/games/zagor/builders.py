"""Small helpers to set up a position and play one action in it (docs/zagor/rules.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from apps.games.zagor.actions import Action
from apps.games.zagor.engine import Result, apply, legal_actions, new_game
from apps.games.zagor.scenarios import shipped
from apps.games.zagor.state import Fight, State, Tile, Turn

Json = dict[str, Any]
NO_COMMAND = {"voice": [1]}  # the voice's one-in-eight chance misses (rules 13.4)


def game(tale: str = "crypt_of_zagor", heroes: int = 1, seed: int = 1) -> State:
    return new_game(shipped(tale), heroes, seed, {}, commitment=None).state


def a(type_: str, hero: str = "barbarian", **fields: Any) -> Json:
    """An action's JSON in the exact form the engine lists it."""
    if type_ == "strike":
        fields.setdefault("by", "hero")
    return Action(type_, hero, **fields).to_json()


def turn_to(s: State, hero: str, *, first: bool = False) -> State:
    s.turn = Turn(hero, first=first)
    return s


def put(s: State, hero: str, space: str) -> State:
    s.heroes[hero].space = space
    return s


def lay(s: State, space: str, face: str, *, revealed: bool = False) -> State:
    s.tiles[space] = Tile(face, revealed)
    return s


def clear_tiles(s: State) -> State:
    s.tiles = {}
    return s


def fight(s: State, foe: str = "Orc", strength: int = 5, stamina: int = 3, **kw: Any) -> State:
    """The active hero in a fight in his room (or a corridor)."""
    hero = s.active
    kind = kw.pop("kind", "room")
    s.fight = Fight(kind, foe, strength, stamina, hero.space, kw.pop("retreat_to", "a1"), **kw)
    return s


def act(s: State, action: Json, forced: Mapping[str, Sequence[int]] | None = None) -> Result:
    return apply(s, s.heroes[action["hero"]].seat, action, forced=forced)


def legal(s: State, hero: str = "barbarian") -> list[Json]:
    return legal_actions(s, s.heroes[hero].seat)


def legal_types(s: State, hero: str = "barbarian") -> set[str]:
    return {x["type"] for x in legal(s, hero)}


def texts(result: Result) -> str:
    return "\n".join(e["text"] for e in result.events)
