"""A goal-seeking hero: simple rules, always one of the legal actions (bots, tests, balance).

It shops for the basics, fights when healthy, rests when hurt, makes for the tale's goal (the
nearest guarded room, the Orb and home, Skull Hall once it carries enough chests) and duels a hero
who carries what it needs.
"""

from __future__ import annotations

from collections import deque
from functools import cache
from typing import Any

from .board import board
from .heroes import holds_orb
from .state import Hero, State

Json = dict[str, Any]

SHOPPING = ("Axe", "Helmet", "Shield", "Healing Potion", "Elven Boots", "Mule", "Magic Arrow")
FIGHT_SPELLS = ("Death", "Charm Monster", "Fireball", "Arrow", "Magic Charge", "Transformation")
SELF_SPELLS = ("Alchemy", "Evolution", "Summon Creature", "Weapons", "Merchant")
CHESTS_FOR_ZAGOR = 5


@cache
def distances_from(target: str) -> dict[str, int]:
    b = board()
    dist = {target: 0}
    queue = deque([target])
    while queue:
        here = queue.popleft()
        for n in b.links[here]:
            if n not in dist:
                dist[n] = dist[here] + 1
                queue.append(n)
    return dist


def _find(actions: list[Json], type_: str, **fields: Any) -> Json | None:
    for a in actions:
        if a["type"] == type_ and all(a.get(k) == v for k, v in fields.items()):
            return a
    return None


def _goal_spaces(s: State, hero: Hero) -> list[str]:
    """Where the hero wants to go, best first."""
    if s.chest_mode == "orb":
        if holds_orb(s, hero):
            return [hero.start]
        holder = next((h for h in s.heroes.values() if holds_orb(s, h)), None)
        if holder is not None:
            return [holder.space]
    rooms = [r for r, st in s.rooms.items() if st.monster is not None or st.chests]
    if s.chest_mode == "crypt" and (
        len(hero.chests) >= min(CHESTS_FOR_ZAGOR, hero.chest_limit)
        or not rooms
        or (len(hero.chests) >= 3 and s.round > s.round_limit // 2)
    ):
        return ["hall"]
    if not rooms:
        return [sp for sp, t in s.tiles.items() if not t.revealed] or [hero.start]
    return rooms


def _best_move(s: State, hero: Hero, moves: list[Json]) -> Json | None:
    goals = _goal_spaces(s, hero)
    best: tuple[int, int] | None = None
    choice = None
    for a in moves:
        dest = a["to"]
        d = min(distances_from(g).get(dest, 999) for g in goals)
        here = min(distances_from(g).get(hero.space, 999) for g in goals)
        key = (d, 0 if dest in s.tiles and not s.tiles[dest].revealed else 1)
        if d < here and (best is None or key < best):
            best, choice = key, a
    return choice


def _wounded(hero: Hero) -> bool:
    return hero.stamina * 2 < hero.stamina_max


def choose(s: State, actions: list[Json]) -> Json:
    hero = s.active
    if not actions:
        raise ValueError("no legal action")
    kinds = {a["type"] for a in actions}
    if "spoils" in kinds:
        for take in ("chest", "gold", "item", "stay"):
            a = _find(actions, "spoils", take=take)
            if a is not None:
                return a
    heal = next(
        (
            a
            for a in actions
            if a["type"] == "use" and a["item"] != "Torch" and a["item"] != "Magic Arrow"
        ),
        None,
    )
    if s.fight is not None or s.duel is not None:
        if heal is not None and hero.stamina <= 2:
            return heal
        for spell in FIGHT_SPELLS:
            a = _find(actions, "cast", spell=spell)
            if a is not None:
                return a
        arrow = _find(actions, "use", item="Magic Arrow")
        if arrow is not None:
            return arrow
        if s.duel is not None and s.duel.defender is not None and hero.stamina <= 2:
            return _find(actions, "surrender") or actions[0]
        if s.fight is not None:
            if hero.hireling is not None:
                return _find(actions, "strike", by="hireling") or actions[0]
            if hero.stamina <= 1 and s.fight.stamina > 1:
                escape = _find(actions, "cast", spell="Escape")
                return escape or _find(actions, "retreat") or actions[0]
        return _find(actions, "strike", by="hero") or actions[0]
    for item in SHOPPING:
        a = _find(actions, "buy", item=item)
        if a is not None:
            return a
    if heal is not None and hero.stamina_max - hero.stamina >= 4:
        return heal
    if s.chest_mode == "orb" and holds_orb(s, hero):
        wings = _find(actions, "cast", spell="Wings")
        if wings is not None:
            return wings
    for spell in SELF_SPELLS:
        a = _find(actions, "cast", spell=spell)
        if a is not None:
            return a
    for a in actions:
        if a["type"] == "attack_hero":
            target = s.heroes[a["target"]]
            wants = holds_orb(s, target) or len(target.chests) > len(hero.chests)
            if wants and hero.stamina >= target.stamina and not _wounded(hero):
                return a
    moves = [a for a in actions if a["type"] == "move"]
    if moves and not _wounded(hero):
        a = _best_move(s, hero, moves)
        if a is not None:
            return a
    if moves and s.chest_mode == "orb" and holds_orb(s, hero):
        a = _best_move(s, hero, moves)
        if a is not None:
            return a
    return _find(actions, "end_turn", swap=None) or actions[-1]
