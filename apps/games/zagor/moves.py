"""Moving (docs/zagor/rules.md section 5): paths, destinations, where a hero may go."""

from __future__ import annotations

from .board import ROOMISH, board, space_order
from .state import Hero, State

LEVEL_GATES = {"b2": 2, "rope_bridge": 3, "c1": 3}  # spaces that exist only with their level


def in_play(s: State, space: str) -> bool:
    gate = LEVEL_GATES.get(space)
    if gate is not None and gate not in s.levels:
        return False
    return board().spaces[space].level in s.levels


def passage_twin(s: State, space: str) -> str | None:
    """The other face-up Secret Passage of this level (rules 5.5)."""
    tile = s.tiles.get(space)
    if tile is None or tile.face != "Secret Passage" or not tile.revealed:
        return None
    level = board().spaces[space].level
    for other, t in s.tiles.items():
        if (
            other != space
            and t.face == "Secret Passage"
            and t.revealed
            and board().spaces[other].level == level
        ):
            return other
    return None


def neighbours(s: State, space: str) -> list[str]:
    out = [n for n in board().links[space] if in_play(s, n)]
    twin = passage_twin(s, space)
    if twin is not None:
        out.append(twin)
    return out


def free(s: State, space: str) -> bool:
    return s.hero_at(space) is None


def doors_passed(s: State, path: list[str]) -> int:
    """Rooms with a living monster whose door the path passes or ends on (rules 5.7)."""
    rooms: set[str] = set()
    entered = path[-1] if path and board().spaces[path[-1]].kind == "room" else None
    for space in path:
        for room in board().rooms_at_door(space):
            if room != entered and s.rooms[room].monster is not None:
                rooms.add(room)
    return len(rooms)


def destinations(s: State, hero: Hero, length: int) -> dict[str, list[str]]:
    """Every space `hero` may end a move of up to `length` spaces on, with the path taken: no
    space twice, over heroes but never onto one, into a room only as the last step. Of the paths
    to a space the one passing fewest doors is taken (then the shortest, then the board order)."""
    best: dict[str, tuple[int, int, list[str]]] = {}

    def walk(path: list[str]) -> None:
        here = path[-1]
        if len(path) > 1 and free(s, here):
            key = (doors_passed(s, path[1:]), len(path))
            if here not in best or key < best[here][:2]:
                best[here] = (key[0], key[1], list(path[1:]))
        if len(path) > length or (len(path) > 1 and board().spaces[here].kind in ROOMISH):
            return
        for nxt in neighbours(s, here):
            if nxt in path:
                continue
            if board().spaces[nxt].kind in ROOMISH and not free(s, nxt):
                continue
            walk([*path, nxt])

    walk([hero.space])
    return {dest: best[dest][2] for dest in space_order(list(best))}


def within(s: State, space: str, steps: int) -> list[str]:
    """Spaces at most `steps` links away (for Vision)."""
    seen = {space}
    frontier = [space]
    for _ in range(steps):
        nxt: list[str] = []
        for here in frontier:
            for n in neighbours(s, here):
                if n not in seen:
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    seen.discard(space)
    return space_order(list(seen))


def free_corridors(s: State, level: int) -> list[str]:
    return space_order(
        [
            sp.id
            for sp in board().level_spaces(level, "corridor")
            if free(s, sp.id) and in_play(s, sp.id)
        ]
    )
