"""Twin games: the same position with every hidden thing a seat may not know changed."""

from __future__ import annotations

from apps.games.dicestream import below, seed_rng
from apps.games.zagor.data import SPELLS
from apps.games.zagor.state import State

SWAP = {"talisman": "dagger", "dagger": "talisman"}


def twin(s: State, seat: int, salt: int = 1) -> State:
    """`s` with the hidden things `seat` may not see changed: face-down tiles (not peeked by the
    seat's hero), the deck's order, other heroes' spell names and chest contents, and which
    unwon chest holds the Orb or the Spirit."""
    t = s.copy()
    rng = seed_rng(salt)
    mine = t.seat_hero(seat)
    known = set(mine.known) if mine else set()
    hidden = sorted(sp for sp, tile in t.tiles.items() if not tile.revealed and sp not in known)
    faces = [t.tiles[sp].face for sp in hidden]
    faces = faces[1:] + faces[:1]  # rotate: same multiset, different places
    for sp, face in zip(hidden, faces, strict=True):
        t.tiles[sp].face = face
    t.deck = list(reversed(t.deck))
    names = sorted(SPELLS)
    for hero in t.heroes.values():
        if hero.seat == seat:
            continue
        fresh = []
        for _ in hero.spells:
            rng, i = below(rng, len(names))
            fresh.append(names[i] if names[i] != "Magic Screen" else "Life")
        hero.spells = [
            sp if sp == "Magic Screen" else f for sp, f in zip(hero.spells, fresh, strict=True)
        ]
        hero.known = {}
        hero.surrender_at = 5 - hero.surrender_at if hero.surrender_at <= 5 else 0
        for c in hero.chests:
            key = str(c)
            t.chest_contents[key] = SWAP.get(t.chest_contents[key], t.chest_contents[key])
    if mine is not None:
        for c in mine.chests:
            t.chest_contents[str(c)] = s.chest_contents[str(c)]
    held = {c for h in t.heroes.values() for c in h.chests}
    special = [k for k, v in t.chest_contents.items() if v in ("orb", "spirit")]
    unwon = sorted(
        k for k in t.chest_contents if int(k) not in held and t.chest_contents[k] == "gold"
    )
    if special and int(special[0]) not in held and unwon:
        kind = t.chest_contents[special[0]]
        t.chest_contents[special[0]], t.chest_contents[unwon[0]] = "gold", kind
    return t
