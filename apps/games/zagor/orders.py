"""Legend of Zagor's standing orders: a hero plays his next turn ahead of time
(apps/games/port.py, `StandingOrders`). Pure, and decided from the seat's own view only.

A seat (one hero) queues one plan for the hero's next turn:

    {"to": "a12" | null, "from": "s1" | null}

walk toward a space (each move the hero has this turn goes as far along the way as the move
reaches, never into a room, the Dragon's Cave or Skull Hall unless that is where he is going),
then end the turn; `to: null` is "end the turn where I stand". A walk that has no move left, or
no way that brings the hero nearer, ends the turn where he stands (the plan is for this turn; the
player queues again). `from` (optional; the page always sends it) is the space the hero stood on
when the orders were queued: if something has carried him off before his turn comes, the orders
stop before the first step and the turn is the player's.

The orders never start in a fight or with spoils to choose, and they stop (the rest of the turn
is the player's, told why) when a step turns a tile up, starts a fight or a duel, leaves spoils to
choose, costs a hero Stamina, carries the hero somewhere his move did not take him, or takes
something from him (gold, equipment, his hireling, a spell card, a turn). Gains do not stop them:
a Scout's extra move is walked on toward the space.

Every decision reads `seat_view(state, seat)` and nothing else of the state: the board's links,
the spaces in play, the tiles as they lie (face down or up), the rooms' monsters, where the heroes
stand and the seat's legal actions. So two games that differ only in what the seat cannot see
(the faces of face-down tiles, the chests, the spell deck, the others' hands) play the same steps
until the seat's view differs (tests/games/zagor/test_orders.py).
"""

from __future__ import annotations

import heapq
from typing import Any

from apps.games.port import Json, OrderStep

from .board import ROOMISH
from .data import HERO_BY_ID
from .views import seat_view

FIELDS = ("to", "from")
THROUGH_ROOM = 100  # what passing through a room adds to a way's length (`ViewBoard.distances`)
# Story lines of a recap: what changed the game, not every step.
STORY_TYPES = frozenset(
    {
        "tile",
        "item",
        "hireling",
        "chest",
        "buy",
        "cast",
        "use",
        "duel",
        "duel_won",
        "fight_won",
        "fight_lost",
        "retreat",
        "surrender",
        "spoils",
        "fall",
        "loss",
        "moved",
        "voice",
        "over",
    }
)
STORY_LINES = 8
# Face-up tiles that stay and would hurt or hinder a hero who ends a move on them again (rules 6):
# the rules are public, so avoiding them reads nothing hidden.
HARMFUL = frozenset(
    {
        "Giant Rats",
        "Guard",
        "Random",
        "Teleport",
        "Trap",
        "Witch",
        "Dark Elf",
        "Evil Wizard",
        "Ghost",
        "Hag",
        "Pit",
        "Flame Jet",
        "Chasm",
        "Giant Spider",
        "Bone Guardian",
    }
)


# --- what a view shows ---------------------------------------------------------------------------


class ViewBoard:
    """The board of a seat view: the spaces in play, their links (a face-up Secret Passage's to
    its twin included), their kinds and names, and who stands where."""

    def __init__(self, view: Json) -> None:
        self.spaces: Json = view["spaces"]
        self.kind: dict[str, str] = {}
        self.name: dict[str, str] = {}
        self.level: dict[str, int] = {}
        self.grid: dict[str, str] = {}  # "c1": the square's column letter and row, as the page
        for level in view["layout"]["levels"]:
            for sp in level["spaces"]:
                if sp["id"] in self.spaces:
                    self.kind[sp["id"]] = sp["kind"]
                    self.name[sp["id"]] = sp["name"]
                    self.level[sp["id"]] = level["level"]
                    self.grid[sp["id"]] = f"{chr(97 + sp['x'])}{sp['y'] + 1}"
        self.links: dict[str, set[str]] = {sp: set() for sp in self.spaces}
        for a, b in view["layout"]["links"]:
            if a in self.spaces and b in self.spaces:
                self.links[a].add(b)
                self.links[b].add(a)
        passages: dict[int, list[str]] = {}
        for sp in self.spaces:
            if self.face(sp) == "Secret Passage":
                passages.setdefault(self.level[sp], []).append(sp)
        for pair in passages.values():
            if len(pair) == 2:
                self.links[pair[0]].add(pair[1])
                self.links[pair[1]].add(pair[0])
        self.heroes: dict[str, Json] = {h["hero"]: h for h in view["heroes"]}

    def face(self, space: str) -> str | None:
        tile = (self.spaces.get(space) or {}).get("tile")
        return None if tile is None else tile.get("face")

    def tile_lies(self, space: str) -> bool:
        return (self.spaces.get(space) or {}).get("tile") is not None

    def distances(self, goal: str, *, mover: str) -> dict[str, int]:
        """How far each space in play is from `goal`, in links: a room (the Cave, Skull Hall)
        another hero stands in is never entered, and passing through one (a room ends a move:
        a walk through it takes a turn of its own there, a fight where a monster waits) costs
        `THROUGH_ROOM` more than a link, so that a way round is always taken first."""
        if goal not in self.spaces:
            return {}
        taken = {h["space"] for name, h in self.heroes.items() if name != mover}
        if self.kind[goal] in ROOMISH and goal in taken:
            return {}
        dist = {goal: 0}
        queue = [(0, goal)]
        while queue:
            d, here = heapq.heappop(queue)
            if d > dist[here]:
                continue
            cost = THROUGH_ROOM if here != goal and self.kind[here] in ROOMISH else 1
            for there in sorted(self.links[here]):
                if self.kind[there] in ROOMISH and there in taken:
                    continue
                if d + cost < dist.get(there, 1 << 30):
                    dist[there] = d + cost
                    heapq.heappush(queue, (d + cost, there))
        return dist


def _name(hero: str) -> str:
    return HERO_BY_ID[hero].short


def _where(board: ViewBoard, space: str) -> str:
    """A space in a player's words, as the page names it (static/js/games/zagor/model.js,
    `spaceLabel`): a room's or a place's name, "corridor c1 (level 2)", "start space a1"."""
    kind = board.kind.get(space)
    if kind == "corridor":
        level = board.level[space]
        return f"corridor {board.grid[space]}{f' (level {level})' if level > 1 else ''}"
    if kind == "start":
        return f"start space {board.grid[space]}"
    return board.name.get(space, space)


def _mine(view: Json) -> str | None:
    me = view.get("me")
    return None if me is None else str(me["hero"])


# --- checking a queue ----------------------------------------------------------------------------


def order_problems(state: Any, seat: int, orders: Json) -> list[str]:
    if not isinstance(orders, dict):
        return ["Orders must be a JSON object."]
    view = seat_view(state, seat)
    hero = _mine(view)
    if hero is None:
        return ["Only a player's seat gives orders."]
    extra = set(orders) - set(FIELDS)
    if extra:
        return [f"Unknown order field(s): {', '.join(sorted(extra))}."]
    if view["over"]:
        return ["The game is over."]
    board = ViewBoard(view)
    here = board.heroes[hero]["space"]
    problems = []
    start = orders.get("from")
    if start is not None and start != here:
        problems.append(
            f"{_name(hero)} no longer stands where you queued these orders: look at the board "
            "again."
        )
    to = orders.get("to")
    if to is not None:
        if not isinstance(to, str) or to not in board.spaces:
            problems.append(f"{to!r} is not a space of this tale's board.")
        elif to != here and here not in board.distances(to, mover=hero):
            problems.append(f"No way leads {_name(hero)} to {_where(board, to)} now.")
    return problems


# --- playing a queue -----------------------------------------------------------------------------


def _wait(orders: Json) -> OrderStep:
    return OrderStep(action=None, stop_reason=None, remaining=orders)


def _stop(reason: str) -> OrderStep:
    # The rest of the seat's turn is the player's: the whole queue goes (docs/design.md).
    return OrderStep(action=None, stop_reason=reason, remaining={})


def next_order_step(state: Any, seat: int, orders: Json) -> OrderStep:
    view = seat_view(state, seat)
    hero = _mine(view)
    if hero is None or view["over"] or view["turn"]["seat"] != seat or not orders:
        return _wait(orders)
    board = ViewBoard(view)
    me = board.heroes[hero]
    who = _name(hero)
    legal = view["legal_actions"]
    if view["fight"] is not None:
        foe = view["fight"]["foe"]
        foe = _name(foe) if foe in HERO_BY_ID else foe
        return _stop(f"{who} is fighting {foe}: the rest of the turn is yours.")
    if view["spoils"] is not None:
        return _stop(f"{who} has spoils to choose: the rest of the turn is yours.")
    end_turn = next((a for a in legal if a["type"] == "end_turn" and a.get("swap") is None), None)
    if end_turn is None:
        return _stop(f"{who} cannot end the turn now: the rest of it is yours.")
    start = orders.get("from")
    if start is not None and start != me["space"]:
        where = _where(board, me["space"])
        return _stop(f"{who} is no longer where you queued the orders (now: {where}).")
    to = orders.get("to")
    if to is not None and to != me["space"]:
        move = _best_move(view, board, hero, to)
        if move is not None:  # from here on only the turn's own moves count: no `from`
            return OrderStep(action=move, stop_reason=None, remaining={"to": to})
    return OrderStep(action=end_turn, stop_reason=None, remaining={})


def _best_move(view: Json, board: ViewBoard, hero: str, to: str) -> Json | None:
    """Of the legal moves that bring `hero` nearer `to`, the one a player picks: never onto a
    face-up tile that would hurt or hinder him again while another move brings him nearer,
    then the nearest, then a plain corridor before a face-down tile, then the board's order.
    None when no move brings him nearer."""
    dist = board.distances(to, mover=hero)
    now = dist.get(board.heroes[hero]["space"], 1 << 30)
    best: tuple[tuple[int, int, int], Json] | None = None
    for a in view["legal_actions"]:
        if a["type"] != "move" or a.get("hero") != hero:
            continue
        dest = a["to"]
        if dest not in dist or dist[dest] >= now:
            continue
        if board.kind.get(dest) in ROOMISH and dest != to:
            continue  # a room, the Cave, Skull Hall: only where he was sent
        face = board.face(dest)
        harmful = int(face in HARMFUL and dest != to)
        face_down = int(board.tile_lies(dest) and face is None)
        key = (harmful, dist[dest], face_down)
        if best is None or key < best[0]:
            best = (key, a)
    return None if best is None else best[1]


def order_interruption(before: Json, after: Json) -> str | None:
    """What changed in a hero seat's view that the orders must not play through. A step that
    ended the seat's turn stops nothing: the orders are done."""
    hero = _mine(after)
    if hero is None or after["over"]:
        return None
    if after["turn"]["seat"] != after["seat"] or after["round"] != before["round"]:
        return None  # the turn is over (alone at the table, his next one is a new round)
    who = _name(hero)
    if after["fight"] is not None and before["fight"] is None:
        foe = after["fight"]["foe"]
        return f"{who} meets {_name(foe) if foe in HERO_BY_ID else foe}."
    if after["spoils"] is not None and before["spoils"] is None:
        return f"{who} has spoils to choose."
    board_before, board_after = ViewBoard(before), ViewBoard(after)
    for space in after["spaces"]:
        if not board_before.tile_lies(space) or board_before.face(space) is not None:
            continue
        face = board_after.face(space)
        if face is not None:
            return f"A tile was turned up: {face}."
        if not board_after.tile_lies(space):  # turned up and used up at once (gold, an item)
            return f"A tile was turned up on {_where(board_after, space)} and used up."
    for name, h in board_after.heroes.items():
        if h["stamina"] < board_before.heroes[name]["stamina"]:
            return f"{_name(name)} lost Stamina."
    mine_before, mine_after = board_before.heroes[hero], board_after.heroes[hero]
    if mine_after["space"] != mine_before["space"]:
        reached = {a["to"] for a in before["legal_actions"] if a["type"] == "move"}
        if mine_after["space"] not in reached:
            return f"{who} was carried off to {_where(board_after, mine_after['space'])}."
    return _loss(who, mine_before, mine_after)


def _loss(who: str, before: Json, after: Json) -> str | None:
    if after["gold"] < before["gold"]:
        return f"{who} lost gold."
    if set(before["equipment"]) - set(after["equipment"]):
        return f"{who} lost equipment."
    if before["hireling"] is not None and after["hireling"] is None:
        return f"{who} lost his hireling."
    if after["spells"] < before["spells"]:
        return f"{who} lost a spell card."
    if after["misses_turns"] > before["misses_turns"] or (after["frozen"] and not before["frozen"]):
        return f"{who} will lose his next turn or move."
    return None


# --- words ---------------------------------------------------------------------------------------


def order_lines(state: Any, seat: int, orders: Json) -> list[str]:
    view = seat_view(state, seat)
    hero = _mine(view)
    if hero is None or not orders:
        return []
    to = orders.get("to")
    if to is None:
        return [f"{_name(hero)}: end the turn where he stands."]
    return [f"{_name(hero)}: walk toward {_where(ViewBoard(view), to)}, then end the turn."]


def recap_lines(entries: list[Json]) -> list[str]:
    """What mattered (tiles, fights begun and ended, finds, the voice's commands and events) in
    the log's own words, and each hero's walk in one line ("Anvar moved 4 spaces."); the last
    few."""
    lines: list[str] = []
    walked: dict[str, int] = {}

    def walks_done() -> None:
        for hero, spaces in walked.items():
            plural = "s" if spaces != 1 else ""
            lines.append(f"{_name(hero)} moved {spaces} space{plural}.")
        walked.clear()

    for e in entries:
        kind = e.get("type")
        hero = e.get("hero")
        if kind == "move" and isinstance(hero, str) and hero in HERO_BY_ID:
            path = e.get("path")
            walked[hero] = walked.get(hero, 0) + (len(path) if isinstance(path, list) else 1)
            continue
        if kind == "turn":
            walks_done()
        elif kind == "voice" and e.get("dice"):
            continue  # a blow of a fight, the voice's roll: the fight's end tells
        elif kind in STORY_TYPES and e.get("text"):
            walks_done()
            lines.append(str(e["text"]))
    walks_done()
    return lines[-STORY_LINES:]
