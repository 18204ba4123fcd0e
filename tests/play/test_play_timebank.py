"""A clock that fits real lives, under time-machine: time banks (initial, increment, cap, shown
to everyone), vacation days spent instead of a timeout ("away until" draws on the same days),
the extend vote, at most two reminders; a sweep run twice has one effect. Played with HeroQuest
and with the test-only race (tests/platform/race_game.py): the platform names neither."""

import html
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from apps.accounts.models import User, Vacation
from apps.accounts.services import VacationRefused, user_away_set, vacation_days_left
from apps.games import registry
from apps.notifications.models import Notification
from apps.play.clock import game_clock, seat_users
from apps.play.errors import TableRefused
from apps.play.models import Game, GameEvent
from apps.play.services import game_launch, quest_apply_action
from apps.play.timebank import game_extend_vote
from apps.play.turns import turns_sweep
from apps.quests.services import quest_sync_shipped
from apps.rooms import services as rooms
from tests.conftest import make_user
from tests.platform.race_game import RACE

from .conftest import RoomMaker, client_for

pytestmark = pytest.mark.django_db

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)


def at(time_machine: Any, offset: timedelta) -> None:
    time_machine.move_to(START + offset, tick=False)


@pytest.fixture
def race() -> Iterator[None]:
    registry.register(RACE)
    quest_sync_shipped()
    yield
    registry.unregister(RACE.slug)


def race_game(**clock: Any) -> tuple[Game, dict[int, User]]:
    users = {1: make_user("ann"), 2: make_user("bob")}
    room = rooms.room_create(host=users[1], name="Sprint", seat_count=2, game="race", **clock)
    for seat, user in users.items():
        rooms.room_seat_take(room_id=room.pk, user=user, number=seat)
    return game_launch(room_id=room.pk, user=users[1], seed=3), users


def play(game: Game, action: str = "rest") -> Game:
    game.refresh_from_db()
    quest_apply_action(
        game_id=game.pk,
        seat=game.to_move[0],
        action={"type": action},
        expected_version=game.version,
        key=f"{action}-{game.version}",
    )
    game.refresh_from_db()
    return game


def deadline(game: Game) -> datetime | None:
    game = Game.objects.select_related("room").get(pk=game.pk)
    clock = game_clock(game, seat_users(game))
    return None if clock is None else clock.deadline


def notes(game: Game) -> list[dict[str, Any]]:
    return [e.payload for e in game.events.filter(kind=GameEvent.Kind.NOTE).order_by("seq")]


# --- the time bank -----------------------------------------------------------------------------


def test_a_time_bank_pays_the_time_used_gets_its_increment_up_to_the_cap_and_times_out(
    race: None, time_machine: Any
) -> None:
    at(time_machine, timedelta(0))
    game, users = race_game(
        clock="bank", bank_initial=24 * HOUR, bank_increment=6 * HOUR, bank_cap=30 * HOUR
    )
    assert deadline(game) == START + 24 * HOUR  # runner 1's whole bank

    at(time_machine, 10 * HOUR)
    game = play(game)  # runner 1 used 10 hours: 24 - 10 + 6
    assert game.banks == {"1": 20 * 3600} and deadline(game) == START + 34 * HOUR
    at(time_machine, 11 * HOUR)
    game = play(game)  # runner 2 used 1: 24 - 1 + 6
    assert game.banks == {"1": 20 * 3600, "2": 29 * 3600}
    assert deadline(game) == START + 31 * HOUR
    at(time_machine, 12 * HOUR)
    game = play(game)
    at(time_machine, 13 * HOUR)
    game = play(game)  # runner 2: 29 - 1 + 6 = 34, capped at 30
    assert game.banks == {"1": 25 * 3600, "2": 30 * 3600}

    page = client_for(users[2]).get(f"/games/{game.pk}/").content.decode()
    assert 'id="time-banks"' in page and "1 d 1 h (running)" in page and "1 d 6 h" in page
    assert "Each player has a time bank of 1 day, plus 6 hours after each of their turns" in page
    assert "A runner who runs out of time rests." in page  # the game's own rule, via its face

    at(time_machine, 38 * HOUR - timedelta(minutes=1))
    assert turns_sweep().timed_out == []
    at(time_machine, 38 * HOUR + timedelta(minutes=1))
    assert turns_sweep().timed_out == [game.pk]
    assert turns_sweep().timed_out == []  # twice: one effect
    game.refresh_from_db()
    assert game.to_move == [2] and game.banks["1"] == 6 * 3600  # empty, then the increment
    [timed_out] = Notification.objects.filter(user=users[1], kind="timeout")
    assert "You had 1 day 1 hour; you rested." in timed_out.body


def test_a_bank_turn_does_not_pay_for_the_time_its_player_was_away(
    race: None, time_machine: Any
) -> None:
    at(time_machine, timedelta(0))
    game, users = race_game(clock="bank", bank_initial=24 * HOUR)
    user_away_set(user=users[1], until=START + 48 * HOUR)
    assert deadline(game) == START + 72 * HOUR  # the clock waits for the away runner
    at(time_machine, 50 * HOUR)
    answer = client_for(users[1]).post(
        f"/api/games/{game.pk}/actions",
        {"action": {"type": "rest"}, "expected_version": 0, "idempotency_key": "back"},
        content_type="application/json",
    )
    assert answer.status_code == 200, answer.content
    game.refresh_from_db()
    assert game.banks["1"] == 22 * 3600  # 2 hours since they were back, not 50


# --- vacation instead of a timeout -------------------------------------------------------------


def heroquest_game(
    make_room: RoomMaker, seats: int = 3, **clock: Any
) -> tuple[Game, dict[int, User]]:
    room, users = make_room(seats)
    for name, value in clock.items():
        setattr(room, name, value)
    room.save()
    return game_launch(room_id=room.pk, user=users[1], seed=1), users


def test_a_late_turn_spends_a_vacation_day_then_times_out_when_none_is_left(
    make_room: RoomMaker, time_machine: Any, settings: Any
) -> None:
    settings.VACATION_DAYS_PER_YEAR = 1
    at(time_machine, timedelta(0))
    game, users = heroquest_game(make_room, turn_time_limit=24 * HOUR, vacation=True)
    barbarian = users[2]  # seat 2 moves first

    at(time_machine, 24 * HOUR + timedelta(minutes=1))
    first = turns_sweep()
    assert (first.vacation, first.timed_out) == ([game.pk], [])
    again = turns_sweep()
    assert (again.vacation, again.timed_out) == ([], [])  # twice: one effect
    game.refresh_from_db()
    assert game.version == 0 and deadline(game) == START + 48 * HOUR
    [note] = notes(game)
    assert note["type"] == "vacation_day" and note["player"] == barbarian.username
    assert note["days_left"] == 0 and note["until"] == (START + 48 * HOUR).isoformat()
    [spent] = Vacation.objects.filter(user=barbarian)
    assert (spent.source, spent.game_id, spent.start) == ("auto", game.pk, START + 24 * HOUR)
    [told] = Notification.objects.filter(user=barbarian, kind="timeout")
    assert "a day of your vacation allowance was spent" in told.body and "0 days left" in told.body
    assert "vacation allowance (1 days a year)" in client_for(users[3]).get(
        f"/rooms/{game.room_id}/"
    ).content.decode().replace("\xa0", " ")

    at(time_machine, 48 * HOUR + timedelta(minutes=1))
    late = turns_sweep()
    assert (late.vacation, late.timed_out) == ([], [game.pk])  # no day left: the rule applies
    game.refresh_from_db()
    assert game.to_move == [3] and game.extension is None  # a new turn, no extension


def test_away_until_draws_on_the_allowance_and_coming_back_early_returns_the_days(
    settings: Any, time_machine: Any
) -> None:
    settings.VACATION_DAYS_PER_YEAR = 5
    at(time_machine, timedelta(0))
    ann = make_user("ann")
    with pytest.raises(VacationRefused, match="5 vacation days left this year; this would take 6"):
        user_away_set(user=ann, until=START + timedelta(days=5, hours=1))
    ann.refresh_from_db()
    assert ann.away_until is None and vacation_days_left(user=ann) == 5
    user_away_set(user=ann, until=START + timedelta(days=3))
    assert vacation_days_left(user=ann) == 2
    at(time_machine, timedelta(days=1, hours=2))
    user_away_set(user=ann, until=None)  # back early: two days begun, one returned
    assert vacation_days_left(user=ann) == 3
    page = client_for(ann).get("/accounts/profile/").content.decode()
    assert "3 of 5 this year" in page
    answer = client_for(ann).post(
        "/accounts/profile/",
        {"turn_email": "immediately", "away_until": "2026-03-20T09:00"},
    )
    assert answer.status_code == 200 and "3 vacation days left this year" in answer.content.decode()


# --- the extend vote ---------------------------------------------------------------------------


def test_two_thirds_of_the_other_players_extend_the_deadline_once_a_turn(
    make_room: RoomMaker, time_machine: Any
) -> None:
    at(time_machine, timedelta(0))
    game, users = heroquest_game(
        make_room, seats=4, turn_time_limit=24 * HOUR, extend_hours=12, reminder_after=6 * HOUR
    )
    mover = users[2]  # seat 2; the others are seats 1, 3 and 4: two of three must agree
    with pytest.raises(TableRefused, match="It is your turn"):
        game_extend_vote(game_id=game.pk, user=mover)
    state = game_extend_vote(game_id=game.pk, user=users[3])
    assert (state.yes, state.needed, state.carried) == (1, 2, False)
    assert game_extend_vote(game_id=game.pk, user=users[3]).yes == 1  # counted once
    page = client_for(users[4]).get(f"/games/{game.pk}/").content.decode()
    assert "1 of 2 yes votes needed" in page and "Give 12 more hours" in page
    assert client_for(users[4]).post(f"/games/{game.pk}/extend").status_code == 302
    assert deadline(game) == START + 36 * HOUR
    with pytest.raises(TableRefused, match="already been given more time"):
        game_extend_vote(game_id=game.pk, user=users[1])
    game.refresh_from_db()
    assert [n["type"] for n in notes(game)] == ["extend_vote", "extend_vote", "extended"]
    [told] = Notification.objects.filter(user=mover, kind="reminder")
    assert told.body == "The other players gave you 12 hours more for this turn."

    at(time_machine, 24 * HOUR + timedelta(minutes=1))
    assert turns_sweep().timed_out == []
    at(time_machine, 36 * HOUR + timedelta(minutes=1))
    assert turns_sweep().timed_out == [game.pk]
    game.refresh_from_db()
    assert game.extension is None and game.turn_serial == 1  # the next turn votes afresh
    assert game_extend_vote(game_id=game.pk, user=users[2]).yes == 1


def test_a_race_of_two_needs_the_other_runners_yes(race: None, time_machine: Any) -> None:
    at(time_machine, timedelta(0))
    game, users = race_game(turn_time_limit=2 * HOUR, extend_hours=24)
    state = game_extend_vote(game_id=game.pk, user=users[2])
    assert (state.yes, state.needed, state.carried) == (1, 1, True)
    assert deadline(game) == START + 26 * HOUR


# --- reminders: at most two, scaled to the deadline -------------------------------------------


def test_at_most_two_reminders_a_turn_the_second_when_a_sixth_is_left(
    make_room: RoomMaker, time_machine: Any
) -> None:
    at(time_machine, timedelta(0))
    game, users = heroquest_game(
        make_room, turn_time_limit=24 * HOUR, reminder_after=6 * HOUR, extend_hours=24
    )
    at(time_machine, 6 * HOUR + timedelta(minutes=1))
    assert turns_sweep().reminded == [game.pk]
    assert turns_sweep().reminded == []
    at(time_machine, 19 * HOUR + timedelta(minutes=59))
    assert turns_sweep().reminded == []
    at(time_machine, 20 * HOUR + timedelta(minutes=1))  # 4 of 24 hours left
    assert turns_sweep().reminded == [game.pk]
    game_extend_vote(game_id=game.pk, user=users[3])  # a new deadline, but no third reminder
    at(time_machine, 44 * HOUR + timedelta(minutes=1))
    assert turns_sweep().reminded == []
    reminders = Notification.objects.filter(user=users[2], kind="reminder", title__startswith="R")
    assert reminders.count() == 2


def test_the_room_form_takes_a_time_bank_and_the_rule_is_written(make_room: RoomMaker) -> None:
    host = make_user()
    answer = client_for(host).post(
        "/rooms/new",
        {
            "name": "Banked",
            "seats": "3",
            "quest": "ashen_vault",
            "clock": "bank",
            "bank_initial": "72",
            "bank_increment": "12",
            "bank_cap": "168",
            "vacation": "on",
            "extend_hours": "24",
            "reminder_after": "24",
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    page = html.unescape(client_for(host).get(answer["Location"]).content.decode())
    assert (
        "Each player has a time bank of 3 days, plus 12 hours after each of their turns (never "
        "more than 7 days); a turn lasts what its player's bank holds." in page
    )
    assert "reminded after 1 day, and when a sixth of the turn is left." in page
    assert "The other players may give the player to move 24 more hours" in page
    assert "A hero turn that runs out ends where the hero stands" in page
    refused = client_for(host).post(
        "/rooms/new", {"name": "No bank", "seats": "2", "quest": "ashen_vault", "clock": "bank"}
    )
    assert "A time bank needs a starting amount of time." in refused.content.decode()
