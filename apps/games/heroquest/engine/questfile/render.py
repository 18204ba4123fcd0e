"""An ASCII plan of a quest for authors (`... questfile --show`)."""

from __future__ import annotations

from apps.games.heroquest.engine.quest import Quest, Square

_MONSTER_MARKS = {
    "goblin": "g",
    "orc": "o",
    "abomination": "a",
    "skeleton": "s",
    "zombie": "z",
    "mummy": "m",
    "dread_warrior": "w",
    "gargoyle": "G",
    "dread_warden": "W",
}
MAP_LEGEND = (
    "| - wall   D door   S secret door   L locked door   * escape square   ^ stairway   "
    "@ hero start   = furniture   % blocked   ! trap   monsters: "
    + ", ".join(f"{m} {k}" for k, m in _MONSTER_MARKS.items())
)


def render_map(quest: Quest) -> str:
    """An ASCII plan of the quest for authors: walls, doors, furniture, traps and monsters."""
    doors = {
        frozenset((d.a, d.b)): "S" if d.secret else "L" if d.locked_by else "D" for d in quest.doors
    }
    marks: dict[Square, str] = {}
    for sq in quest.stairway:
        marks[sq] = "^"
    for sq in quest.hero_starts.values():
        marks[sq] = "@"
    for f in quest.furniture:
        for sq in f.squares:
            marks[sq] = "="
    for sq in quest.blocked:
        marks[sq] = "%"
    for t in quest.traps:
        if t.square is not None:
            marks[t.square] = "!"
    for m in quest.monsters:
        if m.escape_to is not None:
            marks[m.escape_to] = "*"
    for m in quest.monsters:
        marks[m.square] = _MONSTER_MARKS.get(m.kind, "?")

    def edge(a: Square, b: Square, wall: str) -> str:
        ca, cb = quest.square_area.get(a), quest.square_area.get(b)
        if ca is None and cb is None:
            return "#"
        if ca is None or cb is None:
            return wall
        if ca == cb or (quest.areas[ca].kind == quest.areas[cb].kind == "passage"):
            return " "
        return doors.get(frozenset((a, b)), wall)

    lines: list[str] = []
    for y in range(quest.height + 1):
        line = ""
        for x in range(quest.width + 1):
            around = [(x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)]
            line += "+" if any(s in quest.square_area for s in around) else "#"
            if x < quest.width:
                line += edge((x, y - 1), (x, y), "-")
        lines.append(line)
        if y == quest.height:
            break
        line = ""
        for x in range(quest.width + 1):
            line += edge((x - 1, y), (x, y), "|")
            if x < quest.width:
                sq = (x, y)
                line += marks.get(sq, ".") if sq in quest.square_area else "#"
        lines.append(line)
    return "\n".join(lines)
