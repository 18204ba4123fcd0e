"""HeroQuest's face (apps/games/heroquest/face.py): what it tells the platform, from the rules."""

import pytest

from apps.games.heroquest import GAME, face
from apps.games.heroquest import engine as rules
from apps.games.port import GameFace, Refusal, RefusalKind


def test_the_face_satisfies_the_port() -> None:
    assert isinstance(GAME, GameFace)


@pytest.mark.parametrize(
    ("seat_count", "expected"),
    [
        (2, {2: ("barbarian", "dwarf", "elf", "wizard")}),
        (3, {2: ("barbarian", "dwarf"), 3: ("elf", "wizard")}),
        (4, {2: ("barbarian", "dwarf"), 3: ("elf",), 4: ("wizard",)}),
        (5, {2: ("barbarian",), 3: ("dwarf",), 4: ("elf",), 5: ("wizard",)}),
    ],
)
def test_seat_one_is_zargon_and_the_others_share_the_heroes_by_rules_section_1(
    seat_count: int, expected: dict[int, tuple[str, ...]]
) -> None:
    roles = GAME.seat_roles(seat_count)

    assert (roles[0].number, roles[0].role, roles[0].pieces) == (1, "zargon", ())
    assert {r.number: r.pieces for r in roles[1:]} == expected
    assert {r.role for r in roles[1:]} == {"heroes"}


def _started(seats: int = 3):  # type: ignore[no-untyped-def]
    quest = GAME.scenario_parse("ashen_vault", "")
    return GAME.new_game(quest, seats, 7, {}, commitment=None).state


def test_a_hero_seat_may_not_play_another_seats_hero() -> None:
    with pytest.raises(Refusal) as refused:
        GAME.apply(_started(), 3, {"type": "end_turn", "hero": "barbarian"})
    assert refused.value.kind is RefusalKind.NOT_YOURS


def test_zargon_may_not_act_in_the_heroes_phase() -> None:
    with pytest.raises(Refusal) as refused:
        GAME.apply(_started(), 1, {"type": "end_phase"})
    assert refused.value.kind is RefusalKind.NOT_NOW


def test_a_malformed_action_is_refused_as_malformed() -> None:
    with pytest.raises(Refusal) as refused:
        GAME.apply(_started(), 2, {"type": "fly", "hero": "barbarian"})
    assert refused.value.kind is RefusalKind.MALFORMED


def test_a_timed_out_hero_seat_ends_the_turn_of_its_hero() -> None:
    assert GAME.timeout_action(_started(), 2) == {"type": "end_turn", "hero": "barbarian"}
    assert GAME.timeout_action(_started(), 3) is None  # not its turn


def test_auto_drink_is_a_private_setting_applied_to_a_new_state() -> None:
    state = _started()
    setting = GAME.setting_of(state, 3, {"type": "set_auto_drink", "hero": "elf", "on": False})
    assert setting is not None and (setting.owner, setting.name, setting.value) == (
        "elf",
        "auto_drink",
        False,
    )

    changed = GAME.with_settings(state, {"elf": {"auto_drink": False}})

    assert changed is not state and changed.heroes["elf"].auto_drink is False
    assert state.heroes["elf"].auto_drink is True  # the input is untouched
    assert GAME.with_settings(changed, {"elf": {"auto_drink": False}}) is changed


def test_the_shipped_quests_open_with_the_ashen_vault() -> None:
    assert [s.slug for s in GAME.scenarios()][:1] == ["ashen_vault"]


def test_the_views_of_one_state_share_its_seat_free_parts() -> None:
    state = _started()
    zargon, hero = GAME.seat_view(state, 1), GAME.seat_view(state, 2)
    assert GAME.seat_view(state, 1)["monsters"] is zargon["monsters"]  # worked out once
    assert GAME.seat_view(state, 3)["monsters"] is hero["monsters"]  # every hero seat's
    assert zargon == rules.seat_view(state, 1) and hero == rules.seat_view(state, 2)


def test_a_new_state_gets_parts_of_its_own() -> None:
    state = _started()
    step = GAME.apply(state, 2, {"type": "roll_movement", "hero": "barbarian"})
    before, after = GAME.seat_view(state, 1), GAME.seat_view(step.state, 1)
    assert before["monsters"] is not after["monsters"]
    assert after == rules.seat_view(step.state, 1)


def test_a_new_state_keeps_the_log_forms_of_the_state_it_came_from() -> None:
    state = _started()
    before = GAME.seat_view(state, 2)
    step = GAME.apply(state, 2, {"type": "roll_movement", "hero": "barbarian"})
    after = GAME.seat_view(step.state, 2)
    assert after == rules.seat_view(step.state, 2)
    assert len(after["log"]) > len(before["log"])
    assert all(a is b for a, b in zip(after["log"], before["log"], strict=False))


def test_the_parts_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(face, "PARTS_KEPT", 3)
    for _ in range(5):
        GAME.seat_view(_started(), 2)
        assert len(face._PARTS) <= 3
