"""Quest files: the shipped Ashen Vault, and one broken file per validation rule."""

from __future__ import annotations

from collections import deque
from pathlib import Path

import pytest

from apps.games.heroquest.engine.data import HERO_ORDER, MONSTERS
from apps.games.heroquest.engine.quest import Quest, Square
from apps.games.heroquest.engine.questfile import (
    MONSTER_KINDS,
    QUESTS_DIR,
    QuestFileError,
    main,
    parse_quest_file,
    parse_quest_text,
    quest_path,
    render_map,
    validate_quest_file,
    validate_quest_text,
)
from apps.games.heroquest.engine.questfile.checker import MAX_YAML_NODES, weight_problem
from apps.games.heroquest.engine.questfile.schema import HeroesSpec

ASHEN_VAULT = QUESTS_DIR / "ashen_vault.yaml"

BASE = """\
name: Test Quest
slug: test_quest
parchment: Into the dark.
notes: A small test.
wandering_monster: goblin
villain: boss
reward_gold: 10
map: |
  ##########
  #AAAbbcCC#
  #AAA#bcCC#
  #AAA#bcCC#
  ##########
areas:
  A: {kind: room, name: Hall, entrance: true}
  b: {kind: passage, name: West Passage}
  c: {kind: passage, name: East Passage}
  C: {kind: room, name: Crypt}
stairway: [[1, 1], [1, 2]]
heroes: {barbarian: [2, 1], dwarf: [3, 1], elf: [2, 2], wizard: [3, 2]}
doors:
  - {id: door_hall, between: [[3, 1], [4, 1]]}
  - {id: door_crypt, between: [[6, 2], [7, 2]]}
blocked: [[5, 3]]
furniture:
  - {id: table_1, kind: table, squares: [[1, 3], [2, 3]]}
  - {id: chest_1, kind: chest, squares: [[8, 1]]}
traps:
  - {id: pit_1, kind: pit, at: [6, 1]}
  - {id: chest_trap, kind: chest, furniture: chest_1, damage: 2}
monsters:
  - {id: gob, kind: goblin, at: [7, 1]}
  - {id: boss, kind: dread_warden, at: [8, 3]}
special_treasures:
  - {area: C, name: Gold, text: Some gold., gold: 50}
"""


MAP = "  ##########\n  #AAAbbcCC#\n  #AAA#bcCC#\n  #AAA#bcCC#\n  ##########\n"
assert MAP in BASE

# --------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------


def _write(tmp_path: Path, text: str, name: str = "test.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _mutate(*replacements: tuple[str, str]) -> str:
    text = BASE
    for old, new in replacements:
        assert text.count(old) == 1, f"{old!r} must occur exactly once in the test quest"
        text = text.replace(old, new)
    return text


def _line_of(text: str, marker: str) -> int:
    lines = [i for i, line in enumerate(text.splitlines(), start=1) if marker in line]
    assert len(lines) == 1, f"{marker!r} must occur on exactly one line"
    return lines[0]


def _assert_problem(problems: list[str], line: int, field: str, fragment: str) -> None:
    prefix = f"test.yaml line {line}, {field}: " if field else f"test.yaml line {line}: "
    matching = [p for p in problems if p.startswith(prefix) and fragment in p]
    assert matching, f"no problem starting {prefix!r} containing {fragment!r} in {problems}"


def _reachable(quest: Quest, *, secret_doors: bool) -> set[Square]:
    doors = {frozenset((d.a, d.b)) for d in quest.doors if secret_doors or not d.secret}
    furniture = {s for f in quest.furniture for s in f.squares}

    def passable(s: Square) -> bool:
        return s in quest.square_area and s not in quest.blocked and s not in furniture

    def open_between(a: Square, b: Square) -> bool:
        ca, cb = quest.square_area[a], quest.square_area[b]
        both_passages = quest.areas[ca].kind == quest.areas[cb].kind == "passage"
        return ca == cb or both_passages or frozenset((a, b)) in doors

    seen = set(quest.stairway)
    queue = deque(seen)
    while queue:
        x, y = queue.popleft()
        for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if nxt not in seen and passable(nxt) and open_between((x, y), nxt):
                seen.add(nxt)
                queue.append(nxt)
    return seen


# --------------------------------------------------------------------------------------------
# the shipped quest
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def vault() -> Quest:
    return parse_quest_file(ASHEN_VAULT)


def test_ashen_vault_validates_with_no_problems() -> None:
    assert validate_quest_file(ASHEN_VAULT) == []


def test_ashen_vault_is_found_by_slug() -> None:
    assert quest_path("ashen_vault") == ASHEN_VAULT
    assert ASHEN_VAULT.is_file()


def test_ashen_vault_basics(vault: Quest) -> None:
    assert vault.slug == "ashen_vault"
    assert vault.name == "The Ashen Vault"
    assert (vault.width, vault.height) == (26, 19)
    assert vault.wandering_monster == "goblin"
    assert vault.reward_gold > 0
    assert len(vault.parchment) > 200 and "Warden" in vault.parchment
    assert len(vault.notes) > 100
    assert not vault.parchment.endswith("\n")


def test_ashen_vault_areas(vault: Quest) -> None:
    rooms = [a for a in vault.areas.values() if a.kind == "room"]
    passages = [a for a in vault.areas.values() if a.kind == "passage"]
    assert len(rooms) >= 8
    assert len(passages) >= 3
    assert vault.areas[vault.entrance].kind == "room"
    assert vault.stairway <= vault.areas[vault.entrance].squares
    # a modest entrance room
    assert len(vault.areas[vault.entrance].squares) <= 20
    # every square belongs to the area that lists it
    for area in vault.areas.values():
        assert all(vault.square_area[s] == area.id for s in area.squares)


def test_ashen_vault_passages_are_one_or_two_squares_wide(vault: Quest) -> None:
    for area in vault.areas.values():
        if area.kind != "passage":
            continue
        for x, y in area.squares:
            block = {(x + dx, y + dy) for dx in range(3) for dy in range(3)}
            assert not block <= area.squares, f"passage {area.name} is 3 wide at {(x, y)}"


def test_ashen_vault_doors(vault: Quest) -> None:
    entrance_doors = [
        d for d in vault.doors if vault.entrance in {vault.square_area[d.a], vault.square_area[d.b]}
    ]
    assert entrance_doors, "the entrance needs a door"
    for door in entrance_doors:
        other = {vault.square_area[door.a], vault.square_area[door.b]} - {vault.entrance}
        assert vault.areas[other.pop()].kind == "passage", "the first door opens onto a passage"
        assert not door.secret
    for area in vault.areas.values():
        if area.kind == "room":
            assert any(
                area.id in {vault.square_area[d.a], vault.square_area[d.b]} for d in vault.doors
            ), f"room {area.name} has no door"
    assert any(d.secret for d in vault.doors)
    assert sum(not d.secret for d in vault.doors) >= 10


def test_ashen_vault_secret_doors_lead_somewhere_worth_going(vault: Quest) -> None:
    open_only = _reachable(vault, secret_doors=False)
    everything = _reachable(vault, secret_doors=True)
    hidden_rooms = {vault.square_area[s] for s in everything - open_only}
    assert hidden_rooms, "some room is reached only through a secret door"
    assert hidden_rooms & set(vault.special_treasures), "and it holds a special treasure"
    villain = next(m for m in vault.monsters if m.id == vault.villain)
    assert villain.square in open_only, "the villain can also be reached without secret doors"
    for area in vault.areas.values():
        assert area.squares & everything, f"{area.name} is unreachable"
    for monster in vault.monsters:
        assert monster.square in everything, f"{monster.id} is walled in"


def test_ashen_vault_traps(vault: Quest) -> None:
    kinds = {t.kind for t in vault.traps}
    assert kinds == {"pit", "falling_block", "spear", "chest"}
    furniture = {f.id: f for f in vault.furniture}
    for trap in vault.traps:
        if trap.kind == "chest":
            assert trap.square is None and trap.furniture in furniture
            assert furniture[trap.furniture].kind == "chest"
        else:
            assert trap.square is not None and trap.furniture is None
            assert trap.square in vault.square_area


def test_ashen_vault_furniture(vault: Quest) -> None:
    kinds = {f.kind for f in vault.furniture}
    assert {"table", "chest", "throne", "bookcase", "tomb", "fireplace"} <= kinds
    rooms_with_furniture = {vault.square_area[f.squares[0]] for f in vault.furniture}
    assert len(rooms_with_furniture) >= 6


def test_ashen_vault_monsters(vault: Quest) -> None:
    kinds = [m.kind for m in vault.monsters]
    assert 12 <= len(kinds) <= 18
    for kind in (
        "goblin",
        "orc",
        "skeleton",
        "zombie",
        "mummy",
        "abomination",
        "dread_warrior",
        "dread_warden",
    ):
        assert kind in kinds, kind
    assert set(kinds) <= set(MONSTER_KINDS)
    assert kinds.count("dread_warden") == 1
    villain = next(m for m in vault.monsters if m.id == vault.villain)
    assert villain.kind == "dread_warden"
    final_room = vault.square_area[villain.square]
    assert vault.areas[final_room].kind == "room"
    assert vault.areas[final_room].name == "The Ashen Vault"
    assert not any(vault.square_area[m.square] == vault.entrance for m in vault.monsters)


def test_ashen_vault_heroes_start_near_the_stairway(vault: Quest) -> None:
    assert set(vault.hero_starts) == {"barbarian", "dwarf", "elf", "wizard"}
    starts = list(vault.hero_starts.values())
    assert len(set(starts)) == 4
    for x, y in starts:
        assert vault.square_area[(x, y)] == vault.entrance
        assert min(abs(x - sx) + abs(y - sy) for sx, sy in vault.stairway) <= 2


def test_ashen_vault_special_treasure(vault: Quest) -> None:
    assert vault.special_treasures
    for area_id, treasure in vault.special_treasures.items():
        assert vault.areas[area_id].kind == "room"
        assert treasure.area == area_id and treasure.text and treasure.name
        assert treasure.gold > 0 or treasure.potions > 0


def test_ashen_vault_text_and_file_give_the_same_quest(vault: Quest) -> None:
    text = ASHEN_VAULT.read_text(encoding="utf-8")
    assert parse_quest_text(text, name="ashen_vault.yaml") == vault
    assert validate_quest_text(text) == []


def test_render_map_shows_walls_doors_and_pieces(vault: Quest) -> None:
    plan = render_map(vault).splitlines()
    assert len(plan) == 2 * vault.height + 1
    assert all(len(line) == 2 * vault.width + 1 for line in plan)
    text = "\n".join(plan)
    assert text.count("S") == sum(d.secret for d in vault.doors)
    assert text.count("D") == sum(not d.secret for d in vault.doors)
    assert "W" in text and "^" in text


# --------------------------------------------------------------------------------------------
# the small test quest
# --------------------------------------------------------------------------------------------


def test_base_test_quest_is_valid(tmp_path: Path) -> None:
    path = _write(tmp_path, BASE)
    assert validate_quest_file(path) == []
    quest = parse_quest_file(path)
    assert (quest.width, quest.height) == (10, 5)
    assert quest.entrance == "A"
    assert quest.areas["b"].squares == frozenset({(4, 1), (5, 1), (5, 2), (5, 3)})
    assert quest.square_area[(7, 2)] == "C"
    assert (0, 0) not in quest.square_area
    assert quest.doors[1].a == (6, 2) and quest.doors[1].b == (7, 2)
    assert not quest.doors[1].secret
    trap = {t.id: t for t in quest.traps}
    assert trap["pit_1"].square == (6, 1) and trap["pit_1"].damage == 1
    assert trap["chest_trap"].furniture == "chest_1" and trap["chest_trap"].damage == 2
    assert quest.furniture[0].squares == ((1, 3), (2, 3))
    assert quest.hero_starts["elf"] == (2, 2)
    assert quest.blocked == frozenset({(5, 3)})
    assert quest.special_treasures["C"].gold == 50
    assert quest.special_treasures["C"].potions == 0
    assert quest.reward_gold == 10


def test_optional_sections_may_be_left_out(tmp_path: Path) -> None:
    text = _mutate(
        ("reward_gold: 10\n", ""),
        ("blocked: [[5, 3]]\n", ""),
        (
            "special_treasures:\n  - {area: C, name: Gold, text: Some gold., gold: 50}\n",
            "special_treasures:\n",
        ),
    )
    quest = parse_quest_file(_write(tmp_path, text))
    assert quest.reward_gold == 0 and quest.blocked == frozenset()
    assert quest.special_treasures == {}


def test_digit_area_keys_and_comments_after_map_rows(tmp_path: Path) -> None:
    text = _mutate(
        (
            "  #AAAbbcCC#\n  #AAA#bcCC#\n  #AAA#bcCC#\n",
            "  #111bbcCC#  row 1\n  #111#bcCC#  row 2\n  #111#bcCC#  row 3\n",
        ),
        ("  A: {kind: room", "  1: {kind: room"),
    )
    quest = parse_quest_file(_write(tmp_path, text))
    assert quest.entrance == "1"
    assert quest.width == 10


def test_all_problems_are_reported_at_once(tmp_path: Path) -> None:
    text = _mutate(
        ("reward_gold: 10", "reward_gold: -5"),
        ("{id: gob, kind: goblin, at: [7, 1]}", "{id: gob, kind: troll, at: [7, 1]}"),
        ("{id: pit_1, kind: pit, at: [6, 1]}", "{id: pit_1, kind: pit, at: [0, 0]}"),
    )
    path = _write(tmp_path, text)
    with pytest.raises(QuestFileError) as info:
        parse_quest_file(path)
    problems = info.value.problems
    assert len(problems) == 3, problems
    assert str(info.value) == "\n".join(problems)
    assert problems == validate_quest_file(path)
    lines = [int(p.split(" line ")[1].split(",")[0]) for p in problems]
    assert lines == sorted(lines), "problems are listed in file order"


def test_syntax_error_gives_a_line_number(tmp_path: Path) -> None:
    text = _mutate(("  c: {kind: passage, name: East Passage}", "  c: {kind: passage, name: East"))
    problems = validate_quest_file(_write(tmp_path, text))
    assert len(problems) == 1
    assert problems[0].startswith("test.yaml line ")
    assert "YAML syntax error" in problems[0]
    line = int(problems[0].split(" line ")[1].split(",")[0])
    assert abs(line - _line_of(text, "East")) <= 1
    with pytest.raises(QuestFileError):
        parse_quest_file(_write(tmp_path, text))


def test_bad_indentation_gives_a_line_number(tmp_path: Path) -> None:
    text = _mutate(("heroes: {barbarian", "  heroes: {barbarian"))
    problems = validate_quest_file(_write(tmp_path, text))
    assert len(problems) == 1 and "YAML syntax error" in problems[0]
    assert problems[0].startswith(f"test.yaml line {_line_of(text, 'heroes:')}")


def test_empty_and_missing_files(tmp_path: Path) -> None:
    assert validate_quest_file(_write(tmp_path, "# nothing\n")) == ["test.yaml: the file is empty"]
    missing = validate_quest_file(tmp_path / "nope.yaml")
    assert len(missing) == 1 and missing[0].startswith("nope.yaml: cannot read the file")
    problems = validate_quest_file(_write(tmp_path, "- just\n- a list\n"))
    assert problems and "must be a mapping" in problems[0]


def test_missing_required_key(tmp_path: Path) -> None:
    problems = validate_quest_file(_write(tmp_path, _mutate(("villain: boss\n", ""))))
    _assert_problem(problems, 1, "", "required key 'villain' is missing")


# One broken file per rule: (replacements, line marker, field, message fragment).
# The expected line is the line of the mutated text that contains the marker.
BROKEN: dict[str, tuple[list[tuple[str, str]], str, str, str]] = {
    "unknown top-level key": (
        [("reward_gold: 10", "reward_gold: 10\ncolour: red")],
        "colour",
        "colour",
        "unknown key 'colour'",
    ),
    "unknown key in an entry": (
        [("[[3, 1], [4, 1]]}", "[[3, 1], [4, 1]], locked: true}")],
        "locked: true",
        "doors[0].locked",
        "unknown key 'locked' (allowed: id, between, secret, locked_by)",
    ),
    "missing field in an entry": (
        [("{id: gob, kind: goblin, at: [7, 1]}", "{id: gob, kind: goblin}")],
        "id: gob",
        "monsters[0].at",
        "is required but missing",
    ),
    "wrong type": (
        [("reward_gold: 10", "reward_gold: lots")],
        "reward_gold",
        "reward_gold",
        "should be a valid integer, got 'lots'",
    ),
    "negative gold": (
        [("gold: 50}", "gold: -50}")],
        "gold: -50",
        "special_treasures[0].gold",
        "greater than or equal to 0",
    ),
    "bad square": (
        [("{id: gob, kind: goblin, at: [7, 1]}", "{id: gob, kind: goblin, at: [7]}")],
        "id: gob",
        "monsters[0].at",
        "a square is written [x, y]",
    ),
    "bad area kind": (
        [("C: {kind: room, name: Crypt}", "C: {kind: cave, name: Crypt}")],
        "cave",
        "areas.C.kind",
        "should be 'room' or 'passage'",
    ),
    "list expected": (
        [("blocked: [[5, 3]]", "blocked: 5")],
        "blocked",
        "blocked",
        "should be a list",
    ),
    "entry is not a mapping": (
        [("  - {id: door_crypt, between: [[6, 2], [7, 2]]}", "  - door_crypt")],
        "- door_crypt",
        "doors[1]",
        "should be a mapping like {id: door_1",
    ),
    "duplicate key": (
        [("notes: A small test.", "notes: A small test.\nnotes: Again.")],
        "Again",
        "notes",
        "appears more than once",
    ),
    "map not a literal block": (
        [("map: |\n  ##########\n  #AAAbbcCC#", "map: >\n  ##########\n  #AAAbbcCC#")],
        "map: >",
        "map",
        "literal block",
    ),
    "map not rectangular": (
        [("  #AAA#bcCC#\n  #AAA#bcCC#\n", "  #AAA#bcCC#\n  #AAA#bcCC##\n")],
        "#AAA#bcCC##",
        "map",
        "map row y=3 is 11 squares wide but the other rows are 10",
    ),
    "map too wide": (
        [(MAP, "".join(row + "#" * 17 + "\n" for row in MAP.splitlines()))],
        "map: |",
        "map",
        "at most 26 x 19",
    ),
    "map too tall": (
        [("  #AAA#bcCC#\n  ##########\n", "  #AAA#bcCC#\n" + "  ##########\n" * 16)],
        "map: |",
        "map",
        "the map is 10 x 20 squares; at most 26 x 19",
    ),
    "bad map character": (
        [("  #AAA#bcCC#\n  ##########", "  #AAA#bcCC#\n  #*########")],
        "#*###",
        "map",
        "square (1, 4) is '*'",
    ),
    "undeclared map character": (
        [("  ##########\n  #AAAbbcCC#", "  #Z########\n  #AAAbbcCC#")],
        "#Z##",
        "map",
        "square (1, 0) uses 'Z', which is not declared under areas",
    ),
    "declared area unused": (
        [
            (
                "  C: {kind: room, name: Crypt}",
                "  C: {kind: room, name: Crypt}\n  Q: {kind: room, name: Nowhere}",
            )
        ],
        "Nowhere",
        "areas.Q",
        "declared but not used",
    ),
    "bad area key": (
        [
            (
                "  C: {kind: room, name: Crypt}",
                "  C: {kind: room, name: Crypt}\n  QQ: {kind: room, name: Nowhere}",
            )
        ],
        "Nowhere",
        "areas.QQ",
        "single letter or digit",
    ),
    "area not contiguous": (
        [("  #AAA#bcCC#\n  ##########", "  #AAA#bcCC#\n  ####C#####")],
        "C: {kind",
        "areas.C",
        "split into 2 separate parts",
    ),
    "no entrance": (
        [(", entrance: true}", "}")],
        "areas:",
        "areas",
        "no area is marked 'entrance: true'",
    ),
    "two entrances": (
        [("name: Crypt}", "name: Crypt, entrance: true}")],
        "Crypt",
        "areas.C.entrance",
        "only one area may be the entrance",
    ),
    "entrance is a passage": (
        [
            (", entrance: true}", "}"),
            ("name: West Passage}", "name: West Passage, entrance: true}"),
        ],
        "West Passage",
        "areas.b.entrance",
        "the entrance must be a room",
    ),
    "stairway outside the entrance": (
        [("stairway: [[1, 1], [1, 2]]", "stairway: [[1, 1], [4, 1]]")],
        "stairway",
        "stairway[1]",
        "not in the entrance room 'A'",
    ),
    "stairway on rock": (
        [("stairway: [[1, 1], [1, 2]]", "stairway: [[1, 1], [0, 2]]")],
        "stairway",
        "stairway[1]",
        "square (0, 2) is solid rock",
    ),
    "no stairway": (
        [("stairway: [[1, 1], [1, 2]]", "stairway: []")],
        "stairway",
        "stairway",
        "at least one stairway square",
    ),
    "door squares not adjacent": (
        [("[[3, 1], [4, 1]]", "[[3, 1], [5, 1]]")],
        "door_hall",
        "doors[0].between",
        "squares (3, 1) and (5, 1) are not adjacent",
    ),
    "door inside one area": (
        [("[[3, 1], [4, 1]]", "[[2, 1], [3, 1]]")],
        "door_hall",
        "doors[0].between",
        "both in area 'A'",
    ),
    "door between passages": (
        [("[[6, 2], [7, 2]]", "[[5, 2], [6, 2]]")],
        "door_crypt",
        "doors[1].between",
        "both passage squares",
    ),
    "door outside the map": (
        [("[[6, 2], [7, 2]]", "[[8, 2], [10, 2]]")],
        "door_crypt",
        "doors[1].between[1]",
        "square (10, 2) is outside the map (x 0-9, y 0-4)",
    ),
    "door on rock": (
        [("[[6, 2], [7, 2]]", "[[4, 2], [5, 2]]")],
        "door_crypt",
        "doors[1].between[0]",
        "square (4, 2) is solid rock",
    ),
    "door blocked by furniture": (
        [
            ("[[6, 2], [7, 2]]", "[[6, 1], [7, 1]]"),
            ("at: [7, 1]}", "at: [7, 2]}"),
            ("squares: [[8, 1]]", "squares: [[7, 1]]"),
        ],
        "door_crypt",
        "doors[1].between[1]",
        "holds 'chest_1'",
    ),
    "two doors on one edge": (
        [
            (
                "  - {id: door_crypt, between: [[6, 2], [7, 2]]}",
                "  - {id: door_crypt, between: [[6, 2], [7, 2]]}\n"
                "  - {id: door_again, between: [[7, 2], [6, 2]]}",
            )
        ],
        "door_again",
        "doors[2].between",
        "already a door between",
    ),
    "duplicate id": (
        [("{id: gob, kind", "{id: pit_1, kind")],
        "kind: goblin",
        "monsters[0].id",
        "id 'pit_1' is already used by traps[0]",
    ),
    "bad id": (
        [("{id: gob, kind", "{id: 'my gob', kind")],
        "kind: goblin",
        "monsters[0].id",
        "should be letters, digits and _",
    ),
    "bad slug": (
        [("slug: test_quest", "slug: Test Quest")],
        "slug",
        "slug",
        "lower-case letters",
    ),
    "two monsters on one square": (
        [("at: [7, 1]}", "at: [8, 3]}")],
        "id: boss",
        "monsters[1].at",
        "already holds monster 'gob'",
    ),
    "monster on furniture": (
        [("at: [7, 1]}", "at: [8, 1]}")],
        "id: gob",
        "monsters[0].at",
        "holds furniture 'chest_1'",
    ),
    "monster on a blocked square": (
        [("at: [7, 1]}", "at: [5, 3]}")],
        "id: gob",
        "monsters[0].at",
        "is a blocked square",
    ),
    "monster on a trap": (
        [("at: [7, 1]}", "at: [6, 1]}")],
        "id: gob",
        "monsters[0].at",
        "already holds trap 'pit_1'",
    ),
    "unknown monster kind": (
        [("kind: goblin", "kind: troll")],
        "troll",
        "monsters[0].kind",
        "unknown monster kind 'troll' (known: goblin",
    ),
    "unknown wandering monster": (
        [("wandering_monster: goblin", "wandering_monster: dragon")],
        "wandering_monster",
        "wandering_monster",
        "unknown monster kind 'dragon'",
    ),
    "villain is not a monster": (
        [("villain: boss", "villain: bigboss")],
        "villain",
        "villain",
        "there is no monster with id 'bigboss'",
    ),
    "trap on furniture square": (
        [("{id: pit_1, kind: pit, at: [6, 1]}", "{id: pit_1, kind: pit, at: [8, 1]}")],
        "pit_1",
        "traps[0].at",
        "holds furniture 'chest_1'",
    ),
    "trap on a blocked square": (
        [("{id: pit_1, kind: pit, at: [6, 1]}", "{id: pit_1, kind: pit, at: [5, 3]}")],
        "pit_1",
        "traps[0].at",
        "is a blocked square",
    ),
    "trap outside the map": (
        [("{id: pit_1, kind: pit, at: [6, 1]}", "{id: pit_1, kind: pit, at: [6, 9]}")],
        "pit_1",
        "traps[0].at",
        "outside the map",
    ),
    "square trap without a square": (
        [("{id: pit_1, kind: pit, at: [6, 1]}", "{id: pit_1, kind: spear}")],
        "pit_1",
        "traps[0]",
        "a spear trap needs 'at: [x, y]'",
    ),
    "square trap on furniture": (
        [("{id: pit_1, kind: pit, at: [6, 1]}", "{id: pit_1, kind: pit, furniture: chest_1}")],
        "pit_1",
        "traps[0].furniture",
        "only chest traps sit on furniture",
    ),
    "chest trap on missing furniture": (
        [("furniture: chest_1, damage", "furniture: chest_9, damage")],
        "chest_trap",
        "traps[1].furniture",
        "there is no furniture with id 'chest_9'",
    ),
    "chest trap with a square": (
        [("furniture: chest_1, damage: 2}", "at: [7, 2]}")],
        "chest_trap",
        "traps[1].at",
        "give 'furniture:' instead of 'at:'",
    ),
    "unknown trap kind": (
        [("kind: pit,", "kind: snake,")],
        "pit_1",
        "traps[0].kind",
        "unknown trap kind 'snake'",
    ),
    "unknown furniture kind": (
        [("kind: table", "kind: sofa")],
        "table_1",
        "furniture[0].kind",
        "unknown furniture kind 'sofa'",
    ),
    "furniture in a passage": (
        [("squares: [[8, 1]]", "squares: [[4, 1]]")],
        "id: chest_1",
        "furniture[1].squares",
        "must stand in a room",
    ),
    "furniture across two areas": (
        [("squares: [[8, 1]]", "squares: [[6, 3], [7, 3]]")],
        "id: chest_1",
        "furniture[1].squares",
        "single room",
    ),
    "furniture squares apart": (
        [("squares: [[1, 3], [2, 3]]", "squares: [[1, 3], [3, 3]]")],
        "table_1",
        "furniture[0].squares",
        "must touch each other",
    ),
    "furniture on the stairway": (
        [("squares: [[1, 3], [2, 3]]", "squares: [[1, 2], [1, 3]]")],
        "table_1",
        "furniture[0].squares[0]",
        "is a stairway square",
    ),
    "blocked square on rock": (
        [("blocked: [[5, 3]]", "blocked: [[4, 3]]")],
        "blocked",
        "blocked[0]",
        "solid rock",
    ),
    "hero start outside the entrance": (
        [("wizard: [3, 2]", "wizard: [4, 1]")],
        "heroes",
        "heroes.wizard",
        "start square (4, 1) is not in the entrance room 'A'",
    ),
    "two heroes on one square": (
        [("wizard: [3, 2]", "wizard: [2, 2]")],
        "heroes",
        "heroes.wizard",
        "is already elf's start square",
    ),
    "hero start on furniture": (
        [("wizard: [3, 2]", "wizard: [2, 3]")],
        "heroes",
        "heroes.wizard",
        "holds furniture 'table_1'",
    ),
    "missing hero": (
        [(", wizard: [3, 2]}", "}")],
        "heroes",
        "heroes.wizard",
        "is required but missing",
    ),
    "unknown hero": (
        [("wizard: [3, 2]}", "wizard: [3, 2], bard: [1, 3]}")],
        "heroes",
        "heroes.bard",
        "unknown key 'bard'",
    ),
    "special treasure in a passage": (
        [("{area: C, name: Gold", "{area: b, name: Gold")],
        "Some gold",
        "special_treasures[0].area",
        "is a passage",
    ),
    "special treasure in an unknown area": (
        [("{area: C, name: Gold", "{area: Z, name: Gold")],
        "Some gold",
        "special_treasures[0].area",
        "there is no area 'Z'",
    ),
    "two special treasures in one room": (
        [
            (
                "  - {area: C, name: Gold, text: Some gold., gold: 50}",
                "  - {area: C, name: Gold, text: Some gold., gold: 50}\n"
                "  - {area: C, name: More, text: More gold., gold: 5}",
            )
        ],
        "More gold",
        "special_treasures[1].area",
        "already has a special treasure",
    ),
    "unreachable villain": (
        [("  - {id: door_crypt, between: [[6, 2], [7, 2]]}\n", "")],
        "villain",
        "villain",
        "the villain 'boss' at (8, 3) cannot be reached from the stairway",
    ),
    "unreachable room": (
        [("  - {id: door_crypt, between: [[6, 2], [7, 2]]}\n", "")],
        "C: {kind",
        "areas.C",
        "room 'C' (Crypt) cannot be reached from the stairway",
    ),
    "villain walled in by furniture": (
        [
            (
                "squares: [[8, 1]]}",
                "squares: [[8, 2]]}\n  - {id: tomb_1, kind: tomb, squares: [[7, 3]]}",
            )
        ],
        "villain",
        "villain",
        "cannot be reached",
    ),
    "unreachable passage": (
        [
            ("  #AAA#bcCC#\n  ##########", "  #AAA#bcCC#\n  #d########"),
            (
                "  C: {kind: room, name: Crypt}",
                "  C: {kind: room, name: Crypt}\n  d: {kind: passage, name: Dead End}",
            ),
        ],
        "Dead End",
        "areas.d",
        "passage 'd' (Dead End) cannot be reached",
    ),
    "unknown Dread spell": (
        [
            (
                "{id: boss, kind: dread_warden, at: [8, 3]}",
                "{id: boss, kind: dread_warden, at: [8, 3], dread_spells: [fireball]}",
            )
        ],
        "dread_spells",
        "monsters[1].dread_spells[0]",
        "unknown Dread spell 'fireball'",
    ),
    "Dread spell twice": (
        [
            (
                "{id: boss, kind: dread_warden, at: [8, 3]}",
                "{id: boss, kind: dread_warden, at: [8, 3], dread_spells: [fear, fear]}",
            )
        ],
        "dread_spells",
        "monsters[1].dread_spells[1]",
        "listed twice",
    ),
    "escape without a square": (
        [
            (
                "{id: boss, kind: dread_warden, at: [8, 3]}",
                "{id: boss, kind: dread_warden, at: [8, 3], dread_spells: [escape]}",
            )
        ],
        "dread_spells",
        "monsters[1].escape_to",
        "needs an escape_to square",
    ),
    "escape square on furniture": (
        [
            (
                "{id: boss, kind: dread_warden, at: [8, 3]}",
                "{id: boss, kind: dread_warden, at: [8, 3], dread_spells: [escape], "
                "escape_to: [8, 1]}",
            )
        ],
        "dread_spells",
        "monsters[1].escape_to",
        "holds furniture 'chest_1'",
    ),
    "unknown artifact": (
        [("gold: 50}", "gold: 50, artifact: Ember Crown}")],
        "Ember Crown",
        "special_treasures[0].artifact",
        "unknown artifact 'Ember Crown'",
    ),
    "lock that is no key": (
        [("between: [[6, 2], [7, 2]]}", "between: [[6, 2], [7, 2]], locked_by: Emberbrand}")],
        "locked_by",
        "doors[1].locked_by",
        "'Emberbrand' is no key",
    ),
    "key behind its own lock": (
        [
            ("between: [[6, 2], [7, 2]]}", "between: [[6, 2], [7, 2]], locked_by: Ember Key}"),
            ("gold: 50}", "gold: 50, artifact: Ember Key}"),
        ],
        "locked_by",
        "doors[1].locked_by",
        "the door could never be opened",
    ),
}

# Cases whose one mistake rightly causes more than one problem (e.g. an unreachable room as well).
CONSEQUENCES = {
    "door blocked by furniture",
    "furniture in a passage",
    "unreachable villain",
    "unreachable room",
}


@pytest.mark.parametrize("case", list(BROKEN), ids=list(BROKEN))
def test_broken_quest_file_names_line_and_field(tmp_path: Path, case: str) -> None:
    replacements, marker, field, fragment = BROKEN[case]
    text = _mutate(*replacements)
    problems = validate_quest_file(_write(tmp_path, text))
    _assert_problem(problems, _line_of(text, marker), field, fragment)
    if case not in CONSEQUENCES:
        assert len(problems) == 1, problems
    with pytest.raises(QuestFileError):
        parse_quest_text(text, name="test.yaml")


def test_secret_doors_count_for_reachability(tmp_path: Path) -> None:
    text = _mutate(("between: [[6, 2], [7, 2]]}", "between: [[6, 2], [7, 2]], secret: true}"))
    quest = parse_quest_file(_write(tmp_path, text))
    assert quest.doors[1].secret


def test_reachability_is_skipped_when_the_doors_are_broken(tmp_path: Path) -> None:
    # a broken door must not also produce "cannot be reached" noise
    text = _mutate(("[[6, 2], [7, 2]]", "[[6, 2], [7, 2], [8, 2]]"))
    problems = validate_quest_file(_write(tmp_path, text))
    assert len(problems) == 1, problems
    assert "doors[1].between" in problems[0]


# --------------------------------------------------------------------------------------------
# the command line
# --------------------------------------------------------------------------------------------


def test_cli_ok(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(ASHEN_VAULT), "ashen_vault"]) == 0
    out = capsys.readouterr().out
    assert out.count(": OK") == 2


def test_cli_show_prints_the_plan(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--show", "ashen_vault"]) == 0
    out = capsys.readouterr().out
    assert "+-+" in out and "secret door" in out


def test_cli_problems(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = _write(tmp_path, _mutate(("kind: goblin", "kind: troll")))
    good = _write(tmp_path, BASE, name="good.yaml")
    assert main([str(good), str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"{good}: OK" in out
    assert f"{bad}: 1 problem" in out
    assert "monsters[0].kind: unknown monster kind 'troll'" in out


def test_cli_without_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "usage" in capsys.readouterr().err


def test_the_example_in_the_quest_format_doc_is_valid() -> None:
    doc = (Path(__file__).resolve().parents[4] / "docs" / "quest-format.md").read_text("utf-8")
    example = doc.split("## A complete small quest", 1)[1].split("```yaml\n", 1)[1]
    example = example.split("```", 1)[0]
    assert validate_quest_text(example, "example.yaml") == []
    quest = parse_quest_text(example, "example.yaml")
    assert quest.slug == "mouldy_cellar" and any(d.secret for d in quest.doors)


def test_a_villain_with_dread_spells_stats_and_a_name(tmp_path: Path) -> None:
    villain = (
        "{id: boss, kind: dread_warden, at: [8, 3], name: Grisk, dread_spells: [fear, escape], "
        "escape_to: [7, 3], stats: {move: 5, attack: 4, defend: 3, body: 6, mind: 4}}"
    )
    text = _mutate(("{id: boss, kind: dread_warden, at: [8, 3]}", villain))
    boss = parse_quest_file(_write(tmp_path, text)).monster_defs["boss"]
    assert (boss.name, boss.dread_spells, boss.escape_to) == ("Grisk", ("fear", "escape"), (7, 3))
    assert boss.stats is not None and (boss.stats.body, boss.stats.attack) == (6, 4)


def test_a_locked_door_with_its_key_in_reach_and_a_saga(tmp_path: Path) -> None:
    text = _mutate(
        (
            "between: [[3, 1], [4, 1]]}",
            "between: [[3, 1], [4, 1]]}\n"
            "  - {id: spare, between: [[3, 3], [4, 3]], locked_by: Ember Key}",
        ),
        (
            "reward_gold: 10",
            "reward_gold: 10\nsaga: {id: test_saga, name: The Test Saga, chapter: 2}",
        ),
    )
    text = text.replace("  #AAA#bcCC#\n  ##########", "  #AAAbbcCC#\n  ##########")
    text = text.replace("gold: 50}", "gold: 50, artifact: Ember Key}")
    problems = validate_quest_file(_write(tmp_path, text))
    assert problems == []
    quest = parse_quest_file(_write(tmp_path, text))
    assert [d.locked_by for d in quest.doors] == [None, "Ember Key", None]
    assert (quest.saga, quest.saga_name, quest.chapter) == ("test_saga", "The Test Saga", 2)
    assert quest.special_treasures["C"].artifact == "Ember Key"


def test_a_quest_names_heroes_and_monsters_from_the_engines_tables() -> None:
    assert tuple(HeroesSpec.model_fields) == HERO_ORDER
    assert set(MONSTER_KINDS) == set(MONSTERS)


def test_a_quest_file_may_not_weigh_more_than_a_quest() -> None:
    """Aliases, depth and node counts are bounded on the parser's events, before any walk
    (issue 22); the shipped quests are far inside the bounds."""
    assert weight_problem("a: &x 1\nb: *x\n", "q.yaml") == (
        "q.yaml line 1: YAML anchors and aliases (&name, *name) are not allowed in a quest "
        "file; write the value out"
    )
    flat = "".join(f"k{i}: {i}\n" for i in range(MAX_YAML_NODES))
    assert "more than 10,000 YAML values" in str(weight_problem(flat, "q.yaml"))
    assert "nested more than 20" in str(weight_problem("- " * 21 + "x\n", "q.yaml"))
    assert weight_problem("- " * 19 + "x\n", "q.yaml") is None
    for path in sorted(QUESTS_DIR.glob("*.yaml")):
        assert weight_problem(path.read_text(encoding="utf-8"), path.name) is None
        assert validate_quest_file(path) == []
