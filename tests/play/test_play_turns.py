"""Turns over days: your-turn notifications, reminders, timeouts and the monster AI."""

import threading
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.core import mail
from django.db import OperationalError, connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.accounts.models import User
from apps.games.heroquest import engine as rules
from apps.games.heroquest.engine.ai import next_monster_action
from apps.notifications.models import Notification
from apps.play.models import Game, GameEvent
from apps.play.services import Applied, game_launch, quest_apply_action, system_key
from apps.play.tasks import sweep_turns
from apps.play.turns import game_time_out, turns_sweep
from apps.play.verify import game_verify
from apps.rooms.models import Room
from config.celery import app
from tests.conftest import make_user

from .bot import Bot
from .conftest import GameMaker, RoomMaker, client_for, post_action

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]
HOUR = timedelta(hours=1)


# --- helpers -----------------------------------------------------------------------------------


def launch(
    make_room: RoomMaker,
    seats: int = 5,
    *,
    limit: timedelta | None = None,
    reminder: timedelta | None = None,
) -> tuple[Game, dict[int, User]]:
    room, users = make_room(seats)
    Room.objects.filter(pk=room.pk).update(turn_time_limit=limit, reminder_after=reminder)
    return game_launch(room_id=room.pk, user=users[1], seed=1), users


def state_of(game: Game) -> rules.State:
    game.refresh_from_db()
    return rules.State.from_json(game.state, rules.load_quest("ashen_vault"))


def end_turn(game: Game, hero: str) -> None:
    game.refresh_from_db()
    seat = rules.seats_to_move(state_of(game))[0]
    quest_apply_action(
        game_id=game.pk,
        seat=seat,
        action={"type": "end_turn", "hero": hero},
        expected_version=game.version,
        key=uuid.uuid4().hex,
    )


def play_until_zargon_commands_monsters(game: Game, limit: int = 1500) -> None:
    """The heroes play (a bot) until Zargon has revealed monsters to command."""
    bot = Bot(7)
    for _ in range(limit):
        state = state_of(game)
        seats = rules.seats_to_move(state)
        assert seats, "the quest ended before Zargon's phase"
        if seats == [1]:
            return
        action = bot.choose(rules.seat_view(state, seats[0]))
        assert action is not None
        quest_apply_action(
            game_id=game.pk,
            seat=seats[0],
            action=action,
            expected_version=game.version,
            key=uuid.uuid4().hex,
        )
    raise AssertionError("Zargon never got a phase")


def notes(user: User, kind: str | None = None) -> list[Notification]:
    found = Notification.objects.filter(user=user).order_by("id")
    return list(found.filter(kind=kind) if kind else found)


def system_actions(game: Game) -> list[GameEvent]:
    return [
        e
        for e in game.events.filter(kind=GameEvent.Kind.ACTION).order_by("seq")
        if e.payload["system"]
    ]


# --- your turn ---------------------------------------------------------------------------------


def test_launch_tells_the_first_player_only(
    make_room: RoomMaker, django_capture_on_commit_callbacks: Capture
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game, users = launch(make_room)

    [note] = Notification.objects.all()
    assert note.user == users[2] and note.kind == "your_turn"
    assert note.title == "Your turn in Friday table: the Barbarian"
    assert note.url == f"/games/{game.pk}/"
    [email] = mail.outbox
    assert email.to == [users[2].email] and email.subject == note.title
    assert f"{settings.SITE_URL}/games/{game.pk}/" in email.body


def test_the_next_seat_is_told_and_emailed_only_if_it_wants(
    make_room: RoomMaker, django_capture_on_commit_callbacks: Capture
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game, users = launch(make_room)
    User.objects.filter(pk=users[3].pk).update(turn_email="never")
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        end_turn(game, "barbarian")
    [note] = notes(users[3])
    assert note.title == "Your turn in Friday table: the Dwarf"
    assert mail.outbox == []  # the Dwarf's player wants no turn emails

    with django_capture_on_commit_callbacks(execute=True):
        end_turn(game, "dwarf")
    assert [n.title for n in notes(users[4])] == ["Your turn in Friday table: the Elf"]
    assert [m.to for m in mail.outbox] == [[users[4].email]]


def test_a_seat_playing_its_next_hero_is_not_told_again(
    make_room: RoomMaker, django_capture_on_commit_callbacks: Capture
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game, users = launch(make_room, seats=3)  # seat 2: Barbarian and Dwarf
        end_turn(game, "barbarian")
    assert len(notes(users[2])) == 1 and notes(users[3]) == []

    with django_capture_on_commit_callbacks(execute=True):
        end_turn(game, "dwarf")
    assert [n.title for n in notes(users[3])] == ["Your turn in Friday table: the Elf"]


def test_zargons_phase_and_the_end_reach_the_players_and_no_one_else(
    make_room: RoomMaker,
    django_capture_on_commit_callbacks: Capture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stranger = make_user()
    with django_capture_on_commit_callbacks(execute=True):
        game, users = launch(make_room, seats=2)
        play_until_zargon_commands_monsters(game)
    zargon = notes(users[1], "your_turn")
    assert [n.title for n in zargon] == ["Zargon's phase in Friday table"]

    real_apply = rules.apply

    def ending_apply(state: Any, seat: int, action: Any) -> Any:
        transition = real_apply(state, seat, action)
        transition.state.outcome = "zargon"
        return transition

    monkeypatch.setattr(rules, "apply", ending_apply)
    game.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        quest_apply_action(
            game_id=game.pk,
            seat=1,
            action={"type": "end_phase"},
            expected_version=game.version,
            key="the-end",
        )
    for user in users.values():
        [over] = notes(user, "game_over")
        assert over.title == "Game over in Friday table: Zargon won"
    assert notes(stranger) == []


# --- reminders ---------------------------------------------------------------------------------


def test_a_reminder_is_sent_once_per_turn(
    make_room: RoomMaker, django_capture_on_commit_callbacks: Capture, time_machine: Any
) -> None:
    game, users = launch(make_room, reminder=HOUR)
    User.objects.filter(pk=users[3].pk).update(turn_email="digest")
    start = timezone.now()

    time_machine.move_to(start + timedelta(minutes=59))
    assert turns_sweep().reminded == []
    time_machine.move_to(start + timedelta(minutes=61))
    with django_capture_on_commit_callbacks(execute=True):
        assert turns_sweep().reminded == [game.pk]
        assert sweep_turns() == {
            "reminded": [],
            "timed_out": [],
            "failed": [],
            "ai_played": [],
            "orders": [],
            "vacation": [],
        }
    time_machine.move_to(start + timedelta(hours=5))
    assert turns_sweep().reminded == []

    [reminder] = notes(users[2], "reminder")
    assert reminder.title == "Reminder: Your turn in Friday table: the Barbarian"
    assert [m.subject for m in mail.outbox] == [reminder.title]
    game.refresh_from_db()
    assert game.reminded_at is not None

    # The next turn is a new clock: reminded again, this player (turn news in a digest) without
    # an email.
    mail.outbox.clear()
    end_turn(game, "barbarian")
    game.refresh_from_db()
    assert game.reminded_at is None
    time_machine.move_to(start + timedelta(hours=6, minutes=2))
    with django_capture_on_commit_callbacks(execute=True):
        assert turns_sweep().reminded == [game.pk]
    assert [n.title for n in notes(users[3], "reminder")] == [
        "Reminder: Your turn in Friday table: the Dwarf"
    ]
    assert mail.outbox == []


def test_games_without_limits_or_over_are_left_alone(
    make_room: RoomMaker, time_machine: Any
) -> None:
    launch(make_room)
    over, _ = launch(make_room, limit=HOUR, reminder=HOUR / 2)
    Game.objects.filter(pk=over.pk).update(outcome="zargon")
    Room.objects.filter(pk=over.room_id).update(status=Room.Status.FINISHED)
    time_machine.move_to(timezone.now() + timedelta(days=30))
    launched = Notification.objects.count()  # the launches' "your turn"

    report = turns_sweep()

    assert (report.reminded, report.timed_out, report.failed) == ([], [], [])
    assert Notification.objects.count() == launched


# --- timeouts ----------------------------------------------------------------------------------


def test_a_timed_out_hero_turn_ends_exactly_once(
    make_room: RoomMaker, django_capture_on_commit_callbacks: Capture, time_machine: Any
) -> None:
    game, users = launch(make_room, limit=HOUR, reminder=HOUR / 2)
    start = timezone.now()
    time_machine.move_to(start + timedelta(minutes=59))
    assert turns_sweep().timed_out == []

    time_machine.move_to(start + timedelta(minutes=61))
    with django_capture_on_commit_callbacks(execute=True):
        first = turns_sweep()
        second = turns_sweep()
        again = game_time_out(game_id=game.pk)
    assert (first.timed_out, second.timed_out, again) == ([game.pk], [], False)
    assert first.reminded == []  # the turn ended: no reminder for it

    [action] = system_actions(game)
    assert action.payload["action"] == {"type": "end_turn", "hero": "barbarian"}
    assert action.seat is None  # the system acted
    state = state_of(game)
    assert game.version == 1 and rules.seats_to_move(state) == [3]
    assert [n.title for n in notes(users[2], "timeout")] == ["Your turn in Friday table timed out"]
    assert [n.title for n in notes(users[3], "your_turn")] == [
        "Your turn in Friday table: the Dwarf"
    ]

    # The key is derived from (game, version): submitting the timeout again changes nothing.
    assert action.key == f"timeout-{game.pk}-0"
    replayed = quest_apply_action(
        game_id=game.pk,
        seat=2,
        action={"type": "end_turn", "hero": "barbarian"},
        expected_version=0,
        key=action.key,
        system=True,
    )
    assert replayed["version"] == 1 and replayed["seat"] == 2
    game.refresh_from_db()
    assert game.version == 1 and game_verify(game_id=game.pk).ok


def test_a_timed_out_seat_with_two_heroes_ends_both_turns(
    make_room: RoomMaker, time_machine: Any
) -> None:
    game, _ = launch(make_room, seats=3, limit=12 * HOUR)
    time_machine.move_to(timezone.now() + 13 * HOUR)

    assert turns_sweep().timed_out == [game.pk]

    assert [a.payload["action"]["hero"] for a in system_actions(game)] == ["barbarian", "dwarf"]
    assert rules.seats_to_move(state_of(game)) == [3]
    game.refresh_from_db()
    assert game.turn_started is not None and game.turn_started > timezone.now() - HOUR


def test_a_timed_out_hero_does_what_its_players_standing_rule_says(
    make_room: RoomMaker, time_machine: Any
) -> None:
    game, users = launch(make_room, seats=3, limit=12 * HOUR)
    rule = {"type": "set_on_timeout", "hero": "barbarian", "act": "search_traps"}
    answer = post_action(client_for(users[2]), game.pk, rule, game.version)
    assert answer.status_code == 200, answer.content
    time_machine.move_to(timezone.now() + 13 * HOUR)

    assert turns_sweep().timed_out == [game.pk]

    # The Barbarian searches for traps first, as his player set; the Dwarf (no rule) ends in place.
    assert [a.payload["action"] for a in system_actions(game)] == [
        {"type": "search_traps", "hero": "barbarian"},
        {"type": "end_turn", "hero": "barbarian"},
        {"type": "end_turn", "hero": "dwarf"},
    ]
    assert rules.seats_to_move(state_of(game)) == [3]
    assert game_verify(game_id=game.pk).ok


def test_a_timed_out_zargon_phase_is_played_by_the_monster_ai(
    make_room: RoomMaker, django_capture_on_commit_callbacks: Capture, time_machine: Any
) -> None:
    game, users = launch(make_room, seats=2, limit=24 * HOUR)
    play_until_zargon_commands_monsters(game)
    before = state_of(game)
    version = game.version
    time_machine.move_to(timezone.now() + 25 * HOUR)

    with django_capture_on_commit_callbacks(execute=True):
        assert turns_sweep().timed_out == [game.pk]
        assert turns_sweep().timed_out == []

    after = state_of(game)
    assert after.phase == "heroes" and after.round == before.round + 1
    played = system_actions(game)
    assert played and played[-1].payload["action"] == {"type": "end_phase"}
    assert all(a.payload["seat"] == 1 for a in played)
    assert len(played) == game.version - version
    keys = {action.key for action in played}
    assert keys == {f"ai-{game.pk}-{v}" for v in range(version, game.version)}
    assert [n.title for n in notes(users[1], "timeout")] == [
        "Zargon's phase in Friday table timed out"
    ]
    assert notes(users[2], "your_turn")[-1].title.startswith("Your turn in Friday table: the ")
    assert game_verify(game_id=game.pk).ok


# The sweep could use these keys: every kind, for every version a short game reaches.
SWEEP_KEYS_VERSIONS = range(60)


def every_sweep_key(game: Game) -> list[str]:
    return [
        system_key(kind=kind, game_id=game.pk, version=version)
        for version in SWEEP_KEYS_VERSIONS
        for kind in ("timeout", "ai")
    ]


def test_a_player_cannot_take_the_keys_of_the_timeout(
    make_room: RoomMaker, django_capture_on_commit_callbacks: Capture, time_machine: Any
) -> None:
    game, users = launch(make_room, seats=3, limit=HOUR)  # seat 2: Barbarian and Dwarf
    # The player on turn, and the one after, send an accepted action under every key the
    # sweep could use (a setting any seat may change any time).
    for seat, hero in ((2, "barbarian"), (3, "elf")):
        for n, key in enumerate(every_sweep_key(game)):
            game.refresh_from_db()
            quest_apply_action(
                game_id=game.pk,
                seat=seat,
                action={"type": "set_auto_drink", "hero": hero, "on": n % 2 == 0},
                expected_version=game.version,
                key=key,
            )
    game.refresh_from_db()
    version = game.version
    time_machine.move_to(timezone.now() + 2 * HOUR)

    with django_capture_on_commit_callbacks(execute=True):
        first = turns_sweep()
        second = turns_sweep()

    assert (first.timed_out, second.timed_out) == ([game.pk], [])
    ended = [a.payload["action"] for a in system_actions(game)]
    assert ended == [
        {"type": "end_turn", "hero": "barbarian"},
        {"type": "end_turn", "hero": "dwarf"},
    ]
    assert rules.seats_to_move(state_of(game)) == [3]
    assert game.version == version + 2
    assert len(notes(users[2], "timeout")) == 1
    assert notes(users[3], "timeout") == []
    assert game_verify(game_id=game.pk).ok


def test_zargon_cannot_take_the_keys_of_the_monster_ai(
    make_room: RoomMaker, django_capture_on_commit_callbacks: Capture, time_machine: Any
) -> None:
    game, users = launch(make_room, seats=2, limit=24 * HOUR)
    play_until_zargon_commands_monsters(game)
    # Zargon plays the first moves of the phase under the keys the AI would use next.
    for _ in range(2):
        game.refresh_from_db()
        action = next_monster_action(state_of(game))
        assert action is not None and action.type != "end_phase"
        quest_apply_action(
            game_id=game.pk,
            seat=1,
            action=rules.action_to_json(action),
            expected_version=game.version,
            key=system_key(kind="ai", game_id=game.pk, version=game.version + 1),
        )
    time_machine.move_to(timezone.now() + 25 * HOUR)

    with django_capture_on_commit_callbacks(execute=True):
        assert turns_sweep().timed_out == [game.pk]
        assert turns_sweep().timed_out == []

    after = state_of(game)
    assert after.phase == "heroes"
    assert system_actions(game)[-1].payload["action"] == {"type": "end_phase"}
    assert len(notes(users[1], "timeout")) == 1
    assert game_verify(game_id=game.pk).ok


def test_a_timeout_that_moves_nothing_notifies_no_one(
    make_room: RoomMaker, time_machine: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, users = launch(make_room, limit=HOUR)
    time_machine.move_to(timezone.now() + 2 * HOUR)
    # Whatever the cause (here the action service answering from a stored receipt), a timeout
    # that moved nothing reports nothing, notifies no one and stops at once.
    calls: list[str] = []

    def answers_without_applying(**kwargs: Any) -> Applied:
        calls.append(kwargs["key"])
        response = {"version": kwargs["expected_version"], "seat": kwargs["seat"], "entries": []}
        return Applied(response=response, view=None, game=game, state=None)

    monkeypatch.setattr("apps.play.turns.game_system_act", answers_without_applying)

    assert turns_sweep().timed_out == []
    assert len(calls) == 1
    assert notes(users[2], "timeout") == []
    game.refresh_from_db()
    assert game.version == 0


# --- the room form and the schedule ------------------------------------------------------------


def test_the_room_form_sets_the_turn_time_limit_and_reminder(make_room: RoomMaker) -> None:
    _, users = make_room(2, fill=False)  # makes the quest row and a user
    client = client_for(users[1])
    form = {"name": "Slow table", "seats": 3, "quest": "ashen_vault"}

    page = client.get("/rooms/new").content.decode()
    assert "Turn time limit" in page and 'name="turn_time_limit_unit"' in page
    assert '<option value="minutes">minutes</option>' in page
    # A number without its unit is hours, as the form took it before minutes.
    response = client.post("/rooms/new", {**form, "turn_time_limit": "48", "reminder_after": "12"})
    assert response.status_code == 302
    created = Room.objects.get(name="Slow table")
    assert (created.turn_time_limit, created.reminder_after) == (48 * HOUR, 12 * HOUR)

    refused = client.post("/rooms/new", {**form, "turn_time_limit": "1", "reminder_after": "6"})
    assert refused.status_code == 200 and b"before the time limit" in refused.content
    client.post("/rooms/new", {**form, "name": "Relaxed"})
    relaxed = Room.objects.get(name="Relaxed")
    assert (relaxed.turn_time_limit, relaxed.reminder_after) == (None, None)


def test_beat_sweeps_every_minute() -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["play.sweep_turns"]
    assert entry["task"] == "play.sweep_turns" and entry["schedule"] == 60.0
    assert "play.sweep_turns" in app.tasks and "notifications.deliver" in app.tasks
    outbox = settings.CELERY_BEAT_SCHEDULE["notifications.deliver_pending"]
    assert outbox["task"] == "notifications.deliver_pending" and outbox["schedule"] == 60.0


# --- through a real worker and on PostgreSQL ---------------------------------------------------


@pytest.fixture
def real_worker() -> Iterator[None]:
    """A real worker thread on the configured broker, on a queue of its own (a dev worker
    consuming the default queue must not take these tasks)."""
    queue = f"test-turns-{uuid.uuid4().hex[:12]}"
    saved = app.conf.task_always_eager, app.conf.task_default_queue
    app.conf.task_always_eager, app.conf.task_default_queue = False, queue
    try:
        with start_worker(
            app, pool="solo", perform_ping_check=False, shutdown_timeout=10, queues=[queue]
        ):
            yield
    finally:
        app.conf.task_always_eager, app.conf.task_default_queue = saved
        app._backend_cache = None
        app._local.__dict__.pop("backend", None)


def wait_for(check: Callable[[], bool], seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not _answers(check):
        assert time.monotonic() < deadline, "the worker did not get there in time"
        time.sleep(0.1)


def _answers(check: Callable[[], bool]) -> bool:
    """The check, where a table the worker is writing counts as "not yet": the test database
    on SQLite is in memory with a shared cache, whose table locks do not wait."""
    try:
        return check()
    except OperationalError as error:
        if "locked" not in str(error):
            raise
        return False


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_notifies_and_sweeps(make_room: RoomMaker, real_worker: None) -> None:
    game, users = launch(make_room, limit=HOUR)  # commits: the task goes through the broker
    wait_for(lambda: Notification.objects.filter(user=users[2], kind="your_turn").exists())

    Game.objects.filter(pk=game.pk).update(turn_started=timezone.now() - 2 * HOUR)
    sweep_turns.delay()
    wait_for(lambda: Notification.objects.filter(user=users[3], kind="your_turn").exists())

    assert [n.kind for n in notes(users[2])] == ["your_turn", "timeout"]
    game.refresh_from_db()
    assert game.version == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_racing_sweeps_time_a_turn_out_once(postgres: None, make_game: GameMaker) -> None:
    game, users = make_game(5)
    Room.objects.filter(pk=game.room_id).update(turn_time_limit=HOUR)
    Game.objects.filter(pk=game.pk).update(turn_started=timezone.now() - 2 * HOUR)
    barrier = threading.Barrier(4)
    results: list[Any] = []

    def sweep() -> None:
        barrier.wait()
        try:
            results.append(turns_sweep().timed_out)
        finally:
            connection.close()

    threads = [threading.Thread(target=sweep) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)

    assert sorted(results) == [[], [], [], [game.pk]]
    assert len(system_actions(game)) == 1
    assert len(notes(users[2], "timeout")) == 1


def test_the_sweeps_cost_per_stalled_game_is_bounded(
    make_room: RoomMaker, time_machine: Any, django_capture_on_commit_callbacks: Capture
) -> None:
    """Each stalled game costs the sweep the same few statements: three cost at most three
    times one (nothing grows with the number of games, or with what players sent before)."""
    first, _ = launch(make_room, seats=2, limit=HOUR)
    later = [launch(make_room, seats=2)[0] for _ in range(3)]  # no limit yet
    for game in later:  # the player on turn sends actions under the sweep's own keys
        for n, key in enumerate(every_sweep_key(game)):
            game.refresh_from_db()
            action = {"type": "set_auto_drink", "hero": "barbarian", "on": n % 2 == 0}
            quest_apply_action(
                game_id=game.pk, seat=2, action=action, expected_version=game.version, key=key
            )
    time_machine.move_to(timezone.now() + 2 * HOUR)

    def sweep_statements() -> tuple[int, list[int]]:
        with (
            CaptureQueriesContext(connection) as queries,
            django_capture_on_commit_callbacks(execute=True),
        ):
            report = turns_sweep()
        return len(queries), report.timed_out

    one, one_out = sweep_statements()
    idle, idle_out = sweep_statements()
    Room.objects.filter(game__in=later).update(turn_time_limit=HOUR)
    three, three_out = sweep_statements()

    assert (one_out, idle_out, sorted(three_out)) == ([first.pk], [], [g.pk for g in later])
    per_game = one - idle
    assert per_game <= 60, per_game
    assert three - idle <= 3 * per_game, (three, idle, per_game)
