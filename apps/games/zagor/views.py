"""What each seat sees (docs/zagor/rules.md 6.1, 9, 11, 13): the common board and sheets, and the
seat's own hero's private fields. A spectator (seat 0) sees the common part only.

Hidden, never in another seat's view: face-down tiles' faces (a face-down tile shows only that a
tile lies there), the deck's order, chest contents, which chest holds the Orb or the Spirit, spell
hands (others see a count), tiles a hero alone has peeked at, and standing settings.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from .board import board, layout
from .data import CHEST_CONTENT_TEXT, HERO_BY_ID, ITEM_TEXT, SPELLS, price
from .engine import legal_actions, store_open
from .heroes import holds_orb
from .moves import in_play
from .state import Hero, State

Json = dict[str, Any]


@cache
def _layout() -> Json:
    # One object for every view, never changed (so the face lists it in `shared_view_parts`).
    return layout()


def _space(s: State, space: str) -> Json:
    kind = board().spaces[space].kind
    out: Json = {}
    if kind == "corridor":
        tile = s.tiles.get(space)
        out["tile"] = None if tile is None else {"face": tile.face if tile.revealed else None}
    elif kind == "room":
        room = s.rooms.get(space)
        out["monster"] = None if room is None else room.monster
        out["chests"] = 0 if room is None else len(room.chests)
    return out


def _hero_public(s: State, hero: Hero) -> Json:
    out: Json = {
        "hero": hero.hero,
        "name": hero.name,
        "seat": hero.seat,
        "space": hero.space,
        "level": hero.level,
        "start": hero.start,
        "strength": hero.strength,
        "defence": hero.defence,
        "stamina": hero.stamina,
        "stamina_max": hero.stamina_max,
        "gold": hero.gold,
        "equipment": list(hero.items),
        "chests": len(hero.chests),
        "chest_limit": hero.chest_limit,
        "hireling": None
        if hero.hireling is None
        else {
            "name": hero.hireling.name,
            "strength": hero.hireling.strength,
            "stamina": hero.hireling.stamina,
        },
        "spells": len(hero.spells),
        "hand_limit": hero.hand_limit,
        "fights_won": hero.fights_won,
        "rooms_avoided": hero.rooms_avoided,
        "score": hero.score,
        "misses_turns": hero.miss_turns,
        "orders": list(hero.orders),
        "invisible": hero.invisible,
        "frozen": hero.no_move_next,
        "mind_blank": hero.no_spell_next,
        "in_crypt": hero.in_crypt,
    }
    if s.chest_mode == "orb":
        out["orb"] = holds_orb(s, hero)  # the Orb is announced when found (rules 15.1)
    return out


def _me(s: State, hero: Hero) -> Json:
    return {
        "hero": hero.hero,
        "spells": [
            {"name": sp, "text": SPELLS[sp].text, "when": sorted(SPELLS[sp].when)}
            for sp in hero.spells
        ],
        "chests": [
            {"number": c, "content": CHEST_CONTENT_TEXT[s.chest(c)]} for c in sorted(hero.chests)
        ],
        "seen_tiles": {
            sp: face
            for sp, face in sorted(hero.known.items())
            if sp in s.tiles and not s.tiles[sp].revealed
        },
        "surrender_at": hero.surrender_at,
        "store": {
            "open": s.outcome is None and s.turn.hero == hero.hero and store_open(s, hero),
            "prices": {i: price(hero.hero, i) for i in ITEM_TEXT},
        },
    }


def _fight(s: State) -> Json | None:
    if s.fight is not None:
        f = s.fight
        return {
            "kind": f.kind,
            "hero": s.turn.hero,
            "foe": f.foe,
            "strength": f.strength,
            "stamina": f.stamina,
            "space": f.space,
            "exchanges": f.exchanges,
            "bonus": f.bonus,
        }
    if s.duel is not None:
        d = s.duel
        if d.defender is None:
            return {
                "kind": "zagor",
                "hero": d.attacker,
                "foe": "Zagor",
                "strength": d.zagor_strength,
                "stamina": d.zagor_stamina,
                "space": "hall",
                "exchanges": d.exchanges,
                "bonus": d.bonus,
            }
        return {
            "kind": "duel",
            "hero": d.attacker,
            "foe": d.defender,
            "exchanges": d.exchanges,
            "bonus": d.bonus,
        }
    return None


def seat_view(s: State, seat: int) -> Json:
    mine = s.seat_hero(seat)
    active = s.active
    spaces = {sp: _space(s, sp) for sp in board().spaces if in_play(s, sp)}
    view: Json = {
        "game": "zagor",
        "tale": s.tale,
        "seat": seat,
        "levels": list(s.levels),
        "round": s.round,
        "round_limit": s.round_limit,
        "over": s.outcome is not None,
        "outcome": s.outcome,
        "turn": {
            "hero": active.hero,
            "seat": active.seat,
            "moves_left": len(s.turn.moves),
            "moved": s.turn.moved,
            "fought": s.turn.fought,
            "spells_left": s.turn.spells_left,
        },
        "layout": _layout(),
        "spaces": spaces,
        "heroes": [_hero_public(s, s.heroes[h]) for h in s.order],
        "fight": _fight(s),
        "spoils": None
        if s.spoils is None
        else {"winner": s.spoils.winner, "loser": s.spoils.loser, "kind": s.spoils.kind},
        "last_voice": s.last_voice,
        "deck": len(s.deck),
        "discards": len(s.discards),
        "chest_supply": len(s.chest_supply),
        "dragon_pile": len(s.chest_pile),
        "me": None if mine is None else _me(s, mine),
        "legal_actions": [] if mine is None else legal_actions(s, seat),
    }
    return view


def hero_sheet_names() -> dict[str, str]:
    return {h: d.name for h, d in HERO_BY_ID.items()}
