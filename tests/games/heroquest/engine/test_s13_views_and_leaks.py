"""docs/rules.md section 13: what each seat may see. Also random-playout leak checks."""

import json
import operator
import random
from typing import Any

import pytest

from apps.games.heroquest.engine import (
    SPECTATOR_SEAT,
    Action,
    Attack,
    CastSpell,
    Disarm,
    EndTurn,
    Give,
    IllegalAction,
    Jump,
    Move,
    OpenDoor,
    RollMovement,
    SearchSecretDoors,
    SearchTraps,
    SearchTreasure,
    SetAutoDrink,
    Throw,
    ViewParts,
    apply,
    event_for_seat,
    legal_actions,
    load_quest,
    seat_view,
    seat_views,
    seats_to_move,
)
from apps.games.heroquest.engine import hero_turn as H
from apps.games.heroquest.engine.board import Board
from apps.games.heroquest.engine.playout import random_playout
from apps.games.heroquest.engine.quest import SpecialTreasure

from .builders import act, build_quest, place, set_turn, start, texts, zargon_turn
from .leakcheck import (
    assert_event_clean,
    assert_event_within_view,
    assert_hero_view_clean,
    assert_spectator_view_clean,
)

QUEST = build_quest(
    """
aaaaPPPPbbbb
aaaa....bbbb
aaaaQQQQbbbb
""",
    doors=[((3, 0), (4, 0)), ((7, 0), (8, 0))],
    secret_doors=[((3, 2), (4, 2))],
    monsters=[("orc", (10, 1)), ("goblin", (9, 2))],
    traps=[("pit", (6, 0))],
    villain=0,
    special={"b": SpecialTreasure("b", "Crown", "Shiny.")},
)


def test_hero_seats_see_only_the_revealed_map_and_monsters():
    s = start(QUEST, seats=3)
    view = seat_view(s, 2)
    assert view["role"] == "hero" and view["heroes_owned"] == ["barbarian", "dwarf"]
    assert view["monsters"] == [] and view["map"]["traps"] == []
    assert [d["id"] for d in view["map"]["doors"]] == ["d1"]
    assert "notes" not in view["quest"]
    assert_hero_view_clean(s, 2, view)


def test_zargon_sees_everything_with_flags_but_no_hero_inventories():
    s = start(QUEST, seats=3)
    view = seat_view(s, 1)
    assert view["role"] == "zargon" and view["quest"]["notes"] == "Secret notes."
    assert {m["revealed"] for m in view["monsters"]} == {False}
    assert all(m["id"].startswith("z-") for m in view["monsters"])
    assert [(t["kind"], t["detected"]) for t in view["map"]["traps"]] == [("pit", False)]
    assert any(d["secret"] and not d["found"] for d in view["map"]["doors"])
    assert view["quest"]["special_treasures"][0]["name"] == "Crown"
    assert all("spells" not in h for h in view["heroes"])


def test_only_the_owner_sees_a_heros_spells_and_inventory():
    s = start(QUEST, seats=3)
    mine = {h["hero"]: h for h in seat_view(s, 3)["heroes"]}
    assert "spells" in mine["wizard"] and "spells" not in mine["barbarian"]


def test_the_view_lists_legal_actions_as_json_for_the_seat_to_move():
    s = start(QUEST, seats=3)
    assert {"type": "roll_movement", "hero": "barbarian"} in seat_view(s, 2)["legal_actions"]
    assert seat_view(s, 3)["legal_actions"] == []


def test_view_log_resolves_events_for_the_seat():
    s = start(QUEST, seats=3)
    assert [e["type"] for e in seat_view(s, 2)["log"]][:1] == ["quest_start"]
    assert all("audience" not in e for e in seat_view(s, 2)["log"])


def test_spell_effects_are_public_but_spell_lists_private():
    s = start(QUEST, seats=3)
    s.turn.hero = "wizard"

    s = apply(s, 3, CastSpell("wizard", "courage", "wizard")).state
    wizard = next(h for h in seat_view(s, 1)["heroes"] if h["hero"] == "wizard")
    assert wizard["effects"] == ["courage"] and "spells" not in wizard


def test_a_spectator_sees_the_heroes_common_board_and_nothing_private():
    s = set_turn(start(QUEST, seats=3), "barbarian")
    s.heroes["barbarian"].gold = 40
    s = act(s, 2, Give("barbarian", "elf", "gold", 15)).state  # seats 2 and 3 only
    s = act(s, 3, SetAutoDrink("wizard", False)).state  # seat 3 only, nothing for the others
    view = seat_view(s, SPECTATOR_SEAT)
    assert view["seat"] == SPECTATOR_SEAT and view["role"] == "spectator"
    assert view["heroes_owned"] == [] and view["legal_actions"] == []
    assert all("spells" not in h and "gold" not in h for h in view["heroes"])
    texts_seen = [e["text"] for e in view["log"]]
    assert "The Barbarian gives something to the Elf." in texts_seen
    assert not [t for t in texts_seen if "15 gold" in t or "Auto-drink" in t]
    assert "notes" not in view["quest"] and view["monsters"] == []
    assert_spectator_view_clean(s, view)


def test_a_spectator_cannot_act():
    s = start(QUEST, seats=3)
    with pytest.raises(IllegalAction, match="Spectators watch"):
        apply(s, SPECTATOR_SEAT, EndTurn("barbarian"))
    with pytest.raises(IllegalAction, match="Spectators watch"):
        apply(zargon_turn(s.clone()), SPECTATOR_SEAT, {"type": "end_phase"})


def check_playout_for_leaks(quest, seats, seed, max_actions):
    def on_step(before, seat, action, transition):
        after = transition.state
        views = {}
        for hero_seat in range(2, after.seats + 1):
            views[hero_seat] = seat_view(after, hero_seat)
            assert_hero_view_clean(after, hero_seat, views[hero_seat])
            for event in transition.events:
                seen = event_for_seat(event, hero_seat)
                assert_event_clean(after, hero_seat, seen)
                assert_event_within_view(after, hero_seat, seen, views[hero_seat])
        spectator = seat_view(after, SPECTATOR_SEAT)
        assert_spectator_view_clean(after, spectator, views)
        for event in transition.events:
            seen = event_for_seat(event, SPECTATOR_SEAT)
            assert_event_clean(after, SPECTATOR_SEAT, seen)
            assert_event_within_view(after, SPECTATOR_SEAT, seen, spectator)

    random_playout(
        quest, seats, seed, max_actions=max_actions, on_step=on_step, chooser=random.Random(seed)
    )


@pytest.mark.parametrize("seed", range(8))
def test_no_hero_seat_ever_sees_hidden_things_in_random_playouts(seed):
    check_playout_for_leaks(QUEST, 2 + seed % 4, seed, 300)


@pytest.mark.parametrize("seed", range(3))
def test_no_leaks_in_random_ashen_vault_playouts(seed):
    check_playout_for_leaks(load_quest("ashen_vault"), 2 + seed % 4, seed, 400)


@pytest.mark.parametrize(("quest", "seed"), [("sealed_forge", 0), ("cinder_throne", 1)])
def test_no_leaks_in_random_playouts_of_the_dread_villains_quests(quest, seed):
    check_playout_for_leaks(load_quest(quest), 2 + seed % 4, seed, 400)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(30))
def test_no_leaks_in_long_ashen_vault_playouts(seed):
    check_playout_for_leaks(load_quest("ashen_vault"), 2 + seed % 4, 100 + seed, 3000)


# --- hidden stays hidden: legal actions and refusals depend only on what the seat may see -------
def probe_actions(s, hero):
    """A battery of actions for `hero`: moves all around, attacks, throws, doors, traps, spells."""
    pos = s.heroes[hero].position
    out: list[Action] = [
        Move(hero, (pos[0] + dx, pos[1] + dy))
        for dx in range(-3, 4)
        for dy in range(-3, 4)
        if (dx, dy) != (0, 0)
    ]
    for n in range(1, 4):
        out += [Attack(hero, f"m{n}"), Throw(hero, "dagger", f"m{n}"), OpenDoor(hero, f"d{n}")]
        out += [Disarm(hero, f"t{n}"), CastSpell(hero, "genie", f"d{n}")]
        out += [CastSpell(hero, "genie", f"m{n}")]
        out += [Jump(hero, f"t{n}", (pos[0] + dx, pos[1])) for dx in (-2, 2)]
    out += [SearchTreasure(hero), SearchTraps(hero), SearchSecretDoors(hero), EndTurn(hero)]
    return out


def observation(s, seat=2):
    """Everything a hero seat can learn without changing the state: its view (legal actions
    included) and the answer to every probe action."""
    hero = s.turn.hero
    answers = {}
    for action in probe_actions(s, hero):
        try:
            apply(s, seat, action, dice=["white_shield"] * 20)
            answers[repr(action)] = "accepted"
        except IllegalAction as e:
            answers[repr(action)] = e.reason
    return seat_view(s, seat), answers


# The revealed room a is the same in every twin; what lies east of its wall differs.
TWINS: dict[str, dict[str, Any]] = {
    "rock": dict(ascii_map="aaa..\naaa..\naaa.."),
    "room": dict(ascii_map="aaabb\naaabb\naaabb"),
    "monster": dict(ascii_map="aaabb\naaabb\naaabb", monsters=[("orc", (3, 1))]),
    "blocked": dict(ascii_map="aaabb\naaabb\naaabb", blocked=[(3, 1)]),
    "furniture": dict(ascii_map="aaabb\naaabb\naaabb", furniture=[("table", [(3, 1)])]),
    "trap": dict(ascii_map="aaabb\naaabb\naaabb", traps=[("pit", (3, 1))]),
    "secret door": dict(ascii_map="aaabb\naaabb\naaabb", secret_doors=[((2, 1), (3, 1))]),
    "passage": dict(ascii_map="aaaPP\naaaPP\naaaPP", monsters=[("goblin", (4, 1))]),
    "special": dict(
        ascii_map="aaabb\naaabb\naaabb", special={"b": SpecialTreasure("b", "Crown", "Shiny.")}
    ),
}


def twin(name, effect):
    kw = dict(TWINS[name])
    q = build_quest(kw.pop("ascii_map"), **kw)
    s = start(q)
    place(s, elf=(2, 1), barbarian=(0, 0), dwarf=(0, 2), wizard=(1, 1))
    s.heroes["elf"].effects.append(effect)
    return set_turn(s, "elf", movement=6)


@pytest.mark.parametrize("effect", ["pass_through_rock", "veil_of_mist", "none"])
def test_what_lies_behind_a_wall_never_changes_a_hero_seats_actions_or_refusals(effect):
    baseline = observation(twin("rock", effect))
    for name in TWINS:
        assert observation(twin(name, effect)) == baseline, name


def spectator_bytes(s):
    return json.dumps(seat_view(s, SPECTATOR_SEAT), sort_keys=True)


def test_what_lies_behind_a_wall_never_changes_a_spectators_view():
    baseline = spectator_bytes(twin("rock", "none"))
    for name in TWINS:
        assert spectator_bytes(twin(name, "none")) == baseline, name


def differing_paths(a, b, path=""):
    """Where two JSON values differ, as paths ("map.squares.3.x")."""
    if isinstance(a, dict) and isinstance(b, dict):
        return {
            p
            for k in a.keys() | b.keys()
            for p in differing_paths(a.get(k), b.get(k), f"{path}.{k}")
        }
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        pairs = enumerate(zip(a, b, strict=True))
        return {p for i, (x, y) in pairs for p in differing_paths(x, y, f"{path}.{i}")}
    return set() if a == b else {path}


def test_twins_differ_for_a_spectator_only_where_the_heroes_discover_something():
    """The Elf passes through the wall into what differs between the twins: the spectator's
    bytes differ between two twins only where a hero seat's view differs too (what the heroes
    found out), and an undiscovered difference (a special treasure) changes nothing."""
    spectator, hero = {}, {}
    for name in TWINS:
        s = act(twin(name, "pass_through_rock"), 2, Move("elf", (3, 1))).state
        spectator[name] = seat_view(s, SPECTATOR_SEAT)
        assert_spectator_view_clean(s, spectator[name])
        hero[name] = seat_view(s, 2)  # the only hero seat of a two-seat game
    for a in TWINS:
        for b in TWINS:
            assert differing_paths(spectator[a], spectator[b]) <= differing_paths(
                hero[a], hero[b]
            ), (a, b)
    assert spectator_bytes_of(spectator["special"]) == spectator_bytes_of(spectator["room"])
    assert spectator["monster"]["monsters"] and not spectator["room"]["monsters"]
    assert spectator_bytes_of(spectator["rock"]) != spectator_bytes_of(spectator["room"])


def spectator_bytes_of(view):
    return json.dumps(view, sort_keys=True)


def test_pass_through_rock_lists_the_move_east_whatever_lies_there():
    for name in TWINS:
        assert Move("elf", (3, 1)) in legal_actions(twin(name, "pass_through_rock"), 2), name


def test_pass_through_rock_finds_out_what_lies_there_on_arrival():
    def arrive(name):
        return act(twin(name, "pass_through_rock"), 2, Move("elf", (3, 1))).state

    assert arrive("rock").heroes["elf"].position == (2, 1)
    assert arrive("room").heroes["elf"].position == (3, 1)
    s = arrive("monster")
    assert s.heroes["elf"].position == (2, 1) and s.monsters["mon1"].pub == "m1"
    assert "b" in s.areas and s.turn.movement_left == 5
    for name in ("blocked", "furniture"):
        s = arrive(name)
        assert s.heroes["elf"].position == (2, 1) and "b" in s.areas
    s = arrive("trap")  # an undetected trap springs on whoever steps on it: unavoidable
    assert s.traps["trap1"].state == "sprung" and s.heroes["elf"].position == (3, 1)


def test_veil_of_mist_past_a_monster_into_the_unknown_is_found_out_on_arrival():
    # passage P (0-1) holds the orc m1, which hides passage Q (2-3) beyond it
    def veiled(monsters):
        starts = {h: (0, 0) for h in ("barbarian", "dwarf", "elf", "wizard")}
        s = start(build_quest("PPQQ", entrance="P", monsters=monsters, hero_starts=starts))
        place(s, elf=(0, 0), barbarian=None, dwarf=None, wizard=None)
        s.heroes["elf"].effects.append("veil_of_mist")
        return set_turn(s, "elf", movement=4)

    empty = veiled([("orc", (1, 0))])
    goblin = veiled([("orc", (1, 0)), ("goblin", (2, 0))])
    assert "Q" not in empty.areas and "Q" not in goblin.areas
    assert observation(empty) == observation(goblin)
    assert Move("elf", (2, 0)) in legal_actions(goblin, 2)
    assert act(empty, 2, Move("elf", (2, 0))).state.heroes["elf"].position == (2, 0)
    t = act(goblin, 2, Move("elf", (2, 0)))
    assert t.state.heroes["elf"].position == (0, 0) and t.state.turn.movement_left == 2
    assert t.state.monsters["mon2"].pub == "m2"
    assert "stays where they are" in texts(t)


def scrubbed(s):
    """The same position with everything hidden changed: hidden monsters gone, undetected
    traps disarmed, the deck reordered."""
    c = s.clone()
    for m in c.monsters.values():
        if m.pub is None:
            m.alive, m.position = False, None
    for ts in c.traps.values():
        if not ts.detected and ts.state == "armed":
            ts.state = "disarmed"
    c.deck = sorted(c.deck, reverse=True)
    return c


def move_answers(s, hero):
    """The answer to a move into each neighbour (and past lines of monsters), from every square
    of the revealed map the hero could stand on."""
    out = {}
    board = Board(s)
    h = s.heroes[hero]
    for sq in board.geo.playable:
        if board.revealed_square(sq) and board.free(sq):
            h.position = sq
            b = Board(s)
            for to in H.move_candidates(b, h):
                out[sq, to] = H.check_move(b, Move(hero, to))
    return out


def check_hidden_changes_nothing(quest, seats, seed, max_actions, every=8):
    steps = [0]

    def on_step(before, seat, action, transition):
        s = transition.state
        if s.phase != "heroes" or s.outcome is not None:
            return
        hero_seat = seats_to_move(s)[0]
        assert seat_view(s, hero_seat) == seat_view(scrubbed(s), hero_seat)
        assert seat_view(s, SPECTATOR_SEAT) == seat_view(scrubbed(s), SPECTATOR_SEAT)
        steps[0] += 1
        if steps[0] % every:
            return
        # moves from anywhere, with Pass Through Rock and Veil of Mist
        e = s.clone()
        e.heroes[e.turn.hero].effects += ["pass_through_rock", "veil_of_mist"]
        e.turn.movement_rolled, e.turn.movement_left = True, 6
        assert legal_actions(e, hero_seat) == legal_actions(scrubbed(e), hero_seat)
        hero = e.turn.hero
        assert move_answers(e.clone(), hero) == move_answers(scrubbed(e), hero)

    random_playout(
        quest, seats, seed, max_actions=max_actions, on_step=on_step, chooser=random.Random(seed)
    )


# hidden monsters right behind the walls of the room the heroes start in
BEHIND = build_quest(
    "aaaabbbbb\naaaabbbbb\naaaabbbbb\n....PPPPP",
    secret_doors=[((3, 1), (4, 1))],
    doors=[((8, 2), (8, 3))],
    monsters=[("orc", (4, 0)), ("goblin", (4, 2)), ("mummy", (5, 1)), ("orc", (8, 3))],
    traps=[("pit", (5, 3))],
    villain=2,
)


@pytest.mark.parametrize("seed", range(4))
def test_hidden_things_never_change_a_hero_seats_view_or_legal_actions(seed):
    check_hidden_changes_nothing(BEHIND, 2 + seed % 4, seed, 120, every=2)
    check_hidden_changes_nothing(QUEST, 2 + seed % 4, seed, 150)
    check_hidden_changes_nothing(load_quest("ashen_vault"), 2 + seed % 4, seed, 150)


def room_b_opened():
    """The Barbarian opens the door to passage P, searches it for traps, and opens room b."""
    s = set_turn(start(QUEST, seats=3), "barbarian")
    place(s, barbarian=(3, 0))
    s = act(s, 2, OpenDoor("barbarian", "d1")).state
    place(s, barbarian=(7, 0))
    s = act(s, 2, SearchTraps("barbarian")).state  # in passage P, before the monsters show
    return act(s, 2, OpenDoor("barbarian", "d2")).state


def test_zargons_flags_follow_what_the_heroes_find():
    s = room_b_opened()
    view = seat_view(s, 1)
    assert {(m["id"], m["revealed"]) for m in view["monsters"]} == {("m1", True), ("m2", True)}
    areas = {a["name"]: a["revealed"] for a in view["map"]["areas"]}
    assert areas == {"Area a": True, "Area P": True, "Area b": True, "Area Q": False}
    assert [(t["id"], t["detected"]) for t in view["map"]["traps"]] == [("t1", True)]
    assert [d["found"] for d in view["map"]["doors"] if d["secret"]] == [False]


# --- a map view kept between actions is the map built afresh -----------------------------------


def after_every_action(quest, seats, seed, max_actions, check):
    """Play a random game of `quest`, calling `check` with the state after every action."""

    def on_step(before, seat, action, transition):
        check(transition.state)

    random_playout(
        quest, seats, seed, max_actions=max_actions, on_step=on_step, chooser=random.Random(seed)
    )


def check_kept_maps_are_fresh(quest, seats, seed, max_actions):
    """After every action, every seat's map (kept from an earlier view when nothing it shows
    changed) is the one built from the state now."""

    def check(after):
        for viewer in range(SPECTATOR_SEAT, after.seats + 1):
            zargon = viewer == 1
            kept = seat_views.map_view(after, Board(after), zargon)
            assert kept == seat_views.build_map_view(after, Board(after), zargon), viewer

    after_every_action(quest, seats, seed, max_actions, check)


def check_shared_parts_change_no_view(quest, seats, seed, max_actions):
    """After every action, each seat's view built with the parts every view of the state shares
    is the view built alone."""

    def check(after):
        parts = ViewParts(after)
        for viewer in range(SPECTATOR_SEAT, after.seats + 1):
            assert seat_view(after, viewer, parts) == seat_view(after, viewer), viewer

    after_every_action(quest, seats, seed, max_actions, check)


def check_log_forms_kept_from_the_state_before_change_no_view(quest, seats, seed, max_actions):
    """After every action, each seat's view built with parts that keep the log forms of the state
    before (viewed by every seat, or by none) is the view built alone."""
    kept: dict[int, ViewParts] = {}

    def on_step(before, seat, action, transition):
        after = transition.state
        parts_before = kept.pop(id(before), None) if seed % 2 == 0 or after.seq % 3 else None
        parts = ViewParts(after, parts_before)
        for viewer in range(SPECTATOR_SEAT, after.seats + 1):
            assert seat_view(after, viewer, parts) == seat_view(after, viewer), viewer
        kept.clear()
        kept[id(after)] = parts

    random_playout(
        quest, seats, seed, max_actions=max_actions, on_step=on_step, chooser=random.Random(seed)
    )


@pytest.mark.parametrize(
    "check",
    [
        check_kept_maps_are_fresh,
        check_shared_parts_change_no_view,
        check_log_forms_kept_from_the_state_before_change_no_view,
    ],
)
@pytest.mark.parametrize("seed", range(4))
def test_a_kept_map_and_shared_view_parts_are_what_a_view_built_afresh_shows(check, seed):
    check(QUEST, 2 + seed % 4, seed, 300)
    check(load_quest("ashen_vault"), 2 + seed % 4, seed, 300)


def test_two_games_of_one_seed_never_see_each_others_map():
    """Games of the same quest and seed share where their maps are kept, not what is shown."""
    s = set_turn(start(QUEST, seats=3), "barbarian")
    twin = s.clone()
    place(s, barbarian=(3, 0))
    s = act(s, 2, OpenDoor("barbarian", "d1")).state
    opened = seat_view(s, 2)["map"]
    closed = seat_view(twin, 2)["map"]
    assert [d["open"] for d in opened["doors"]] == [True, False]
    assert [d["open"] for d in closed["doors"]] == [False]  # the twin's heroes see one door
    assert closed == seat_views.build_map_view(twin, Board(twin), False)
    assert len(closed["squares"]) < len(opened["squares"])  # passage P is not shown to the twin


def test_a_map_changed_in_place_is_built_again():
    s = set_turn(start(QUEST, seats=3), "barbarian")
    assert [d["open"] for d in seat_view(s, 1)["map"]["doors"]] == [False, False, False]
    s.doors["door1"].open = True
    assert [d["open"] for d in seat_view(s, 1)["map"]["doors"]] == [True, False, False]


def test_the_maps_kept_are_bounded(monkeypatch):
    monkeypatch.setattr(seat_views, "MAPS_KEPT", 3)
    for seed in range(10):
        seat_view(start(QUEST, seats=3, seed=seed), 1)
        assert len(seat_views._MAPS) <= 3


# --- what the views of one state share ----------------------------------------------------------


def test_a_log_keeps_the_forms_of_the_events_it_shares_with_the_state_before():
    s = set_turn(start(QUEST, seats=3), "barbarian")
    parts = ViewParts(s)
    hero_log = seat_view(s, 2, parts)["log"]
    after = act(s, 2, RollMovement("barbarian")).state
    parts_after = ViewParts(after, parts)
    shown = seat_view(after, 2, parts_after)["log"]
    assert shown == seat_view(after, 2)["log"]
    assert len(shown) > len(hero_log) and all(map(operator.is_, shown, hero_log))
    # Zargon's log was never worked out for the state before: worked out afresh, and right.
    assert seat_view(after, 1, parts_after)["log"] == seat_view(after, 1)["log"]


def test_a_log_shares_no_forms_with_a_state_it_did_not_come_from():
    s = set_turn(start(QUEST, seats=3), "barbarian")
    parts = ViewParts(s)
    seat_view(s, 2, parts)
    other = act(start(QUEST, seats=3, seed=9), 2, EndTurn("barbarian")).state
    shown = seat_view(other, 2, ViewParts(other, parts))["log"]
    assert shown == seat_view(other, 2)["log"]
    assert not any(a is b for a in shown for b in seat_view(s, 2, parts)["log"])


def test_zargon_and_the_heroes_each_get_their_own_monsters_from_shared_parts():
    s = room_b_opened()  # the orc and the goblin shown
    parts = ViewParts(s)
    zargon, hero, spectator = (seat_view(s, seat, parts) for seat in (1, 2, SPECTATOR_SEAT))
    assert all("dread_spells" in m for m in zargon["monsters"])
    assert hero["monsters"] and not any("dread_spells" in m for m in hero["monsters"])
    assert spectator["monsters"] == hero["monsters"]
