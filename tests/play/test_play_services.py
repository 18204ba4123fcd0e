"""The action service: launch rules, versions, idempotency, seat checks, the log, verification."""

from typing import Any

import pytest
from django.core.management import call_command

from apps.games.heroquest import engine as rules
from apps.games.heroquest.engine.options import RULES_REVISION
from apps.games.heroquest.engine.questfile import parse_quest_text
from apps.play.errors import (
    ActionRejected,
    GameNotFound,
    LaunchRefused,
    MalformedAction,
    NotHost,
    NotYourTurn,
    StaleVersion,
)
from apps.play.management.commands.verify_quest import Command as VerifyQuest
from apps.play.models import Game, GameEvent
from apps.play.selectors import game_events, game_state, game_view
from apps.play.services import game_launch, quest_apply_action
from apps.play.verify import game_verify
from apps.rooms import services as rooms
from apps.rooms.models import Room
from tests.conftest import make_user

from .conftest import GameMaker, RoomMaker, key

pytestmark = pytest.mark.django_db

ROLL = {"type": "roll_movement", "hero": "barbarian"}


def seqs(game: Game) -> list[int]:
    return list(game.events.order_by("seq").values_list("seq", flat=True))


# --- launching ---------------------------------------------------------------------------------


def test_host_launches_a_full_room(make_room: RoomMaker) -> None:
    room, users = make_room(3)

    game = game_launch(room_id=room.pk, user=users[1], seed=42)

    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING
    assert (game.room_id, game.seats, game.seed, game.version) == (room.pk, 3, 42, 0)
    assert game.quest_slug == "ashen_vault" and game.quest_source == room.quest.source
    assert (
        game.state
        == rules.new_game(
            parse_quest_text(room.quest.source, name="ashen_vault.yaml"),
            3,
            42,
            {"rules_revision": RULES_REVISION},  # the face pins today's rules at launch
            commitment=game.seed_commitment,
        ).to_json()
    )
    assert seqs(game) == list(range(1, len(seqs(game)) + 1))


def test_the_room_options_go_into_the_game(make_room: RoomMaker) -> None:
    room, users = make_room(2)
    Room.objects.filter(pk=room.pk).update(options={"edition": "uk", "spell_draft": True})
    game = game_launch(room_id=room.pk, user=users[1], seed=42)
    assert game.options == {
        "edition": "uk",
        "spell_draft": True,
        "rules_revision": RULES_REVISION,
    }
    state = game_state(game=game)
    assert state.phase == "draft"  # the Wizard picks a spell element first
    assert {m.body for m in state.monsters.values() if m.key != state.quest.villain} == {1}


def test_launch_draws_a_random_seed_when_none_is_given(make_room: RoomMaker) -> None:
    seeds = set()
    for _ in range(3):
        room, users = make_room(2)
        seeds.add(game_launch(room_id=room.pk, user=users[1]).seed)
    assert len(seeds) == 3
    assert all(0 <= s < 2**63 for s in seeds)


def test_only_the_host_launches(make_room: RoomMaker) -> None:
    room, users = make_room(2)
    with pytest.raises(NotHost):
        game_launch(room_id=room.pk, user=users[2])
    assert not Game.objects.exists()


def test_a_room_with_a_free_seat_cannot_launch(make_room: RoomMaker) -> None:
    room, users = make_room(3, fill=False)
    rooms.room_seat_take(room_id=room.pk, user=make_user(), number=2)
    with pytest.raises(LaunchRefused, match="Every seat"):
        game_launch(room_id=room.pk, user=users[1])
    room.refresh_from_db()
    assert room.status == Room.Status.OPEN


def test_a_room_launches_once(make_room: RoomMaker) -> None:
    room, users = make_room(2)
    game_launch(room_id=room.pk, user=users[1])
    with pytest.raises(LaunchRefused, match="already"):
        game_launch(room_id=room.pk, user=users[1])
    assert Game.objects.count() == 1


def test_launching_a_missing_room_or_someone_elses_started_room_is_not_found(
    make_room: RoomMaker,
) -> None:
    with pytest.raises(GameNotFound):
        game_launch(room_id=999_999, user=make_user())
    room, users = make_room(2)
    game_launch(room_id=room.pk, user=users[1])
    with pytest.raises(GameNotFound):
        game_launch(room_id=room.pk, user=make_user())


# --- applying actions --------------------------------------------------------------------------


def test_an_action_bumps_the_version_and_appends_the_log(make_game: GameMaker) -> None:
    game, _ = make_game(2)
    before = len(seqs(game))

    response = quest_apply_action(game_id=game.pk, seat=2, action=ROLL, expected_version=0, key="k")

    game.refresh_from_db()
    assert game.version == 1 and response["version"] == 1 and response["seat"] == 2
    assert seqs(game) == list(range(1, len(seqs(game)) + 1))
    rows = list(game.events.filter(seq__gt=before))
    assert rows[0].kind == GameEvent.Kind.ACTION
    assert rows[0].payload == {"seat": 2, "action": ROLL, "system": False}
    assert rows[0].seat == 2 and all(r.version == 1 for r in rows)
    events = [r.payload for r in rows[1:]]
    assert events and all(r.kind == GameEvent.Kind.EVENT for r in rows[1:])
    assert all("audience" in e for e in events)
    assert any(d["kind"] == "red" for e in events for d in e["dice"])  # the movement roll
    seen = [rules.event_for_seat(e, 2) for e in events]
    assert response["entries"] == [{**e, "version": 1} for e in seen if e is not None]
    assert game.state["turn"]["movement_rolled"] is True
    assert rows[0].key == "k"  # the log row is the receipt: replaying "k" answers the same
    replayed = quest_apply_action(game_id=game.pk, seat=2, action=ROLL, expected_version=0, key="k")
    assert replayed == response


def test_a_stale_version_is_refused_with_the_current_one(make_game: GameMaker) -> None:
    game, _ = make_game(2)
    quest_apply_action(game_id=game.pk, seat=2, action=ROLL, expected_version=0, key="a")

    with pytest.raises(StaleVersion) as refused:
        quest_apply_action(
            game_id=game.pk,
            seat=2,
            action={"type": "end_turn", "hero": "barbarian"},
            expected_version=0,
            key="b",
        )
    assert refused.value.current_version == 1
    game.refresh_from_db()
    assert game.version == 1


def test_an_illegal_action_is_rejected_with_the_engine_reason(make_game: GameMaker) -> None:
    game, _ = make_game(2)
    n = len(seqs(game))
    with pytest.raises(ActionRejected) as refused:
        quest_apply_action(
            game_id=game.pk,
            seat=2,
            action={"type": "attack", "hero": "barbarian", "target": "m9"},
            expected_version=0,
            key="x",
        )
    assert refused.value.message
    game.refresh_from_db()
    assert (game.version, len(seqs(game))) == (0, n)
    assert not GameEvent.objects.filter(key="x").exists()


@pytest.mark.parametrize(
    "seat, action, reason",
    [
        (3, {"type": "roll_movement", "hero": "barbarian"}, "not yours"),  # seat 2's hero
        (3, {"type": "roll_movement", "hero": "elf"}, "not your turn"),  # own hero, out of turn
        (2, {"type": "end_phase"}, "Only Zargon"),
        (1, {"type": "end_phase"}, "not your turn"),  # Zargon during the heroes' phase
        (1, {"type": "roll_movement", "hero": "barbarian"}, "Zargon does not play"),
    ],
)
def test_seats_may_not_act_out_of_turn_or_for_others(
    make_game: GameMaker, seat: int, action: dict[str, Any], reason: str
) -> None:
    game, _ = make_game(3)
    with pytest.raises(NotYourTurn, match=f"(?i){reason}"):
        quest_apply_action(game_id=game.pk, seat=seat, action=action, expected_version=0, key="k")
    game.refresh_from_db()
    assert game.version == 0


@pytest.mark.parametrize(
    "action", [None, "roll", [], {"type": "fly", "hero": "elf"}, {"type": "move", "hero": "elf"}]
)
def test_malformed_actions_are_refused(make_game: GameMaker, action: Any) -> None:
    game, _ = make_game(2)
    with pytest.raises(MalformedAction):
        quest_apply_action(game_id=game.pk, seat=2, action=action, expected_version=0, key="k")


@pytest.mark.parametrize("bad_key", ["", "x" * 81])
def test_the_idempotency_key_must_be_1_to_80_characters(make_game: GameMaker, bad_key: str) -> None:
    game, _ = make_game(2)
    with pytest.raises(MalformedAction):
        quest_apply_action(game_id=game.pk, seat=2, action=ROLL, expected_version=0, key=bad_key)


def test_a_replayed_key_returns_the_first_answer_and_applies_once(make_game: GameMaker) -> None:
    game, _ = make_game(2)
    first = quest_apply_action(game_id=game.pk, seat=2, action=ROLL, expected_version=0, key="k")
    n = len(seqs(game))

    again = quest_apply_action(game_id=game.pk, seat=2, action=ROLL, expected_version=0, key="k")
    # Even with another version (the client saw the change before the answer), the key wins.
    later = quest_apply_action(game_id=game.pk, seat=2, action=ROLL, expected_version=1, key="k")

    game.refresh_from_db()
    assert first == again == later
    assert (game.version, len(seqs(game))) == (1, n)


def test_a_key_replayed_after_the_game_moved_on_answers_as_it_did(make_game: GameMaker) -> None:
    game, _ = make_game(2)
    first = quest_apply_action(game_id=game.pk, seat=2, action=ROLL, expected_version=0, key="k")
    quest_apply_action(
        game_id=game.pk,
        seat=2,
        action={"type": "end_turn", "hero": "barbarian"},
        expected_version=1,
        key="next",
    )

    again = quest_apply_action(game_id=game.pk, seat=2, action=ROLL, expected_version=0, key="k")

    game.refresh_from_db()
    assert again == first and first["entries"]
    assert game.version == 2


def test_keys_are_per_seat(make_game: GameMaker) -> None:
    game, _ = make_game(3)
    quest_apply_action(game_id=game.pk, seat=2, action=ROLL, expected_version=0, key="same")
    with pytest.raises(NotYourTurn):  # seat 3's "same" key is a new request, judged afresh
        quest_apply_action(
            game_id=game.pk,
            seat=3,
            action={"type": "end_turn", "hero": "elf"},
            expected_version=1,
            key="same",
        )


def test_system_actions_skip_the_seat_checks_but_not_the_engine(make_game: GameMaker) -> None:
    game, _ = make_game(3)
    response = quest_apply_action(
        game_id=game.pk,
        seat=2,
        action={"type": "end_turn", "hero": "barbarian"},
        expected_version=0,
        key="timeout:0",
        system=True,
    )
    row = game.events.get(kind=GameEvent.Kind.ACTION)
    assert response["version"] == 1
    assert row.seat is None and row.payload["system"] is True and row.payload["seat"] == 2
    with pytest.raises(ActionRejected):
        quest_apply_action(
            game_id=game.pk,
            seat=2,
            action={"type": "end_turn", "hero": "barbarian"},
            expected_version=1,
            key="timeout:1",
            system=True,  # the Dwarf's turn now
        )


def test_the_room_finishes_and_the_outcome_is_stored_when_the_quest_ends(
    make_game: GameMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, _ = make_game(2)
    real_apply = rules.apply

    def ending_apply(state: Any, seat: int, action: Any) -> Any:
        transition = real_apply(state, seat, action)
        transition.state.outcome = "zargon"
        return transition

    monkeypatch.setattr(rules, "apply", ending_apply)
    quest_apply_action(game_id=game.pk, seat=2, action=ROLL, expected_version=0, key="k")

    game.refresh_from_db()
    game.room.refresh_from_db()
    assert game.outcome == "zargon" and game.room.status == Room.Status.FINISHED


# --- views, events, membership -----------------------------------------------------------------


def test_members_get_their_own_seat_view(make_game: GameMaker) -> None:
    game, users = make_game(3)
    for seat, user in users.items():
        view = game_view(game_id=game.pk, user=user)
        assert (view["seat"], view["version"], view["game_id"]) == (seat, 0, game.pk)
    assert game_view(game_id=game.pk, user=users[1])["role"] == "zargon"
    assert game_view(game_id=game.pk, user=users[2])["legal_actions"]
    assert game_view(game_id=game.pk, user=users[3])["legal_actions"] == []


def test_non_members_get_nothing(make_game: GameMaker) -> None:
    game, _ = make_game(2)
    stranger = make_user()
    with pytest.raises(GameNotFound):
        game_view(game_id=game.pk, user=stranger)
    with pytest.raises(GameNotFound):
        game_events(game_id=game.pk, user=stranger)
    with pytest.raises(GameNotFound):
        game_view(game_id=999_999, user=stranger)


def test_events_after_a_seq_are_the_seats_entries(make_game: GameMaker) -> None:
    game, users = make_game(3)
    response = quest_apply_action(game_id=game.pk, seat=2, action=ROLL, expected_version=0, key="k")
    everything = game_events(game_id=game.pk, user=users[2])
    last_before = max((e["seq"] for e in everything if e["version"] == 0), default=0)

    assert game_events(game_id=game.pk, user=users[2], after=last_before) == response["entries"]
    assert game_events(game_id=game.pk, user=users[2], after=everything[-1]["seq"]) == []
    assert game_events(game_id=game.pk, user=users[2], after=0, limit=1) == everything[:1]
    assert all("audience" not in e and "redacted" not in e for e in everything)


def test_events_page_forwards_with_after_and_backwards_with_before(make_game: GameMaker) -> None:
    game, users = make_game(3)
    play_a_few(game)
    everything = game_events(game_id=game.pk, user=users[2])
    seqs_seen = [e["seq"] for e in everything]
    assert len(seqs_seen) >= 5 and seqs_seen == sorted(seqs_seen)

    forwards: list[dict[str, Any]] = []
    after = 0
    while page := game_events(game_id=game.pk, user=users[2], after=after, limit=2):
        forwards += page
        after = page[-1]["seq"]
    backwards: list[dict[str, Any]] = []
    before = seqs_seen[-1] + 1
    while page := game_events(game_id=game.pk, user=users[2], before=before, limit=2):
        backwards = page + backwards
        before = page[0]["seq"]

    assert forwards == backwards == everything
    newest = game_events(game_id=game.pk, user=users[2], before=10**9, limit=3)
    assert newest == everything[-3:]
    between = game_events(game_id=game.pk, user=users[2], after=seqs_seen[0], before=seqs_seen[3])
    assert between == everything[1:3]


# --- verification ------------------------------------------------------------------------------


def play_a_few(game: Game) -> None:
    for version, action in enumerate(
        [ROLL, {"type": "end_turn", "hero": "barbarian"}, {"type": "end_turn", "hero": "dwarf"}]
    ):
        quest_apply_action(
            game_id=game.pk, seat=2, action=action, expected_version=version, key=key()
        )


def test_verify_replays_the_log_to_the_stored_state(make_game: GameMaker) -> None:
    game, _ = make_game(2)
    play_a_few(game)
    report = game_verify(game_id=game.pk)
    assert report.ok, report.problem
    assert report.actions == 3


def test_verify_finds_a_tampered_state(make_game: GameMaker) -> None:
    game, _ = make_game(2)
    play_a_few(game)
    game.refresh_from_db()
    game.state["heroes"]["barbarian"]["body"] = 1
    game.save()
    report = game_verify(game_id=game.pk)
    assert not report.ok and "heroes.barbarian.body" in (report.problem or "")


def test_verify_finds_a_gap_in_the_log(make_game: GameMaker) -> None:
    game, _ = make_game(2)
    play_a_few(game)
    game.events.order_by("seq")[2:3].get().delete()
    report = game_verify(game_id=game.pk)
    assert not report.ok and "no entry 3" in (report.problem or "")


def test_verify_finds_a_tampered_die(make_game: GameMaker) -> None:
    game, _ = make_game(2)
    play_a_few(game)
    row = next(r for r in game.events.filter(kind="event") if r.payload["dice"])
    row.payload["dice"][0]["values"] = [9, 9]
    row.save()
    report = game_verify(game_id=game.pk)
    assert not report.ok and f"log entry {row.seq}" in (report.problem or "")


def test_verify_quest_command_prints_ok_or_exits_1(make_game: GameMaker, capsys: Any) -> None:
    game, _ = make_game(2)
    play_a_few(game)
    call_command("verify_quest", str(game.pk))
    assert "OK" in capsys.readouterr().out

    game.refresh_from_db()
    game.state["round"] = 7
    game.save()
    with pytest.raises(SystemExit) as exited:
        VerifyQuest().run_from_argv(["manage.py", "verify_quest", str(game.pk)])
    assert exited.value.code == 1
    assert "MISMATCH: state: round: 7 != 1 (stored != replayed)" in capsys.readouterr().err


def test_a_state_loaded_from_the_database_has_the_engines_key_order(make_game: GameMaker) -> None:
    """jsonb sorts keys; the engine's dicts iterate in insertion order (reveal order), which
    `State.from_json` restores from the quest, so the loaded game plays on as it was written."""
    game, _ = make_game(2)
    written = list(game.state["monsters"])
    assert written != sorted(written) and written != sorted(written, key=lambda k: (len(k), k))

    loaded = game_state(game=Game.objects.get(pk=game.pk)).to_json()

    assert list(loaded["monsters"]) == written
    assert list(loaded) == list(rules.new_game(rules.load_quest("ashen_vault"), 2, 1).to_json())
