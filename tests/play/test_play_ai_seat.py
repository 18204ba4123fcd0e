"""Solo play: rooms whose Zargon is the monster AI (apps/play/ai_seat.py).

The heroes are played through the public API (a bot that only plays heroes, tests/play/bot.py);
the AI plays each Zargon phase as soon as the heroes are done, through the action service, one
announced version per action.
"""

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from apps.accounts.models import User
from apps.games.heroquest import engine as rules
from apps.games.heroquest.engine.questfile import parse_quest_text
from apps.play.ai_seat import ai_seat_play
from apps.play.models import Game, GameEvent
from apps.play.services import game_group, game_launch
from apps.play.turns import turns_sweep
from apps.play.verify import game_verify
from apps.quests.models import QuestDefinition
from apps.rooms import services as rooms
from apps.rooms.models import Room
from tests.conftest import make_user
from tests.listeners import group_listener

from .bot import Bot
from .conftest import client_for, key, post_action

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]
AMBUSH_HALL = Path(__file__).parent / "quests" / "ambush_hall.yaml"
ACTION_CAP = 3000


@pytest.fixture(autouse=True)
def no_pause_between_ai_actions(settings: Any) -> None:
    settings.AI_STEP_SECONDS = 0


@pytest.fixture
def ambush_hall(db: None) -> QuestDefinition:
    """A quest whose monsters stand in the heroes' entrance hall: they fight from round 1."""
    return QuestDefinition.objects.create(
        slug="ambush_hall", name="The Ambush Hall", source=AMBUSH_HALL.read_text(encoding="utf-8")
    )


def solo_game(
    seats: int = 2, *, quest: str = "ashen_vault", seed: int = 1, ai_seat: str = "ai"
) -> tuple[Game, dict[int, User]]:
    """A launched solo room: the monster AI plays Zargon, people sit in seats 2..seats.

    With `ai_seat="human"`, the same room with a person in seat 1.
    """
    host = make_user()
    room = rooms.room_create(
        host=host, name="Solo table", seat_count=seats, quest_slug=quest, ai_seat=ai_seat
    )
    users = {room.first_player_seat: host}
    rooms.room_seat_take(room_id=room.pk, user=host, number=room.first_player_seat)
    for number in range(room.first_player_seat + 1, seats + 1):
        users[number] = make_user()
        rooms.room_seat_take(room_id=room.pk, user=users[number], number=number)
    return game_launch(room_id=room.pk, user=host, seed=seed), users


def ai_actions(game: Game) -> list[GameEvent]:
    return [
        row
        for row in game.events.filter(kind=GameEvent.Kind.ACTION).order_by("seq")
        if row.payload["system"] and row.payload["seat"] == 1
    ]


def assert_every_ai_action_was_legal(game: Game) -> int:
    """Replay the log: each AI action was among Zargon's legal actions when it was played."""
    quest = parse_quest_text(game.quest_source, name=f"{game.quest_slug}.yaml")
    state = rules.new_game(quest, game.seats, game.seed, game.options)
    checked = 0
    for row in game.events.filter(kind=GameEvent.Kind.ACTION).order_by("seq"):
        action = rules.action_from_json(row.payload["action"])
        if row.payload["system"] and row.payload["seat"] == 1:
            assert action in rules.legal_actions(state, 1), (row.seq, action)
            checked += 1
        state = rules.apply(state, row.payload["seat"], action).state
    return checked


def hero_view(clients: dict[int, Client], game: Game) -> dict[str, Any]:
    """The view of the hero seat to move (any hero seat's view once the quest is over)."""
    view: dict[str, Any] = next(iter(clients.values())).get(f"/api/games/{game.pk}/view").json()
    seat = view["turn"]["seat"]
    if seat in clients and seat != view["seat"]:
        view = clients[seat].get(f"/api/games/{game.pk}/view").json()
    return view


def play_heroes(
    game: Game,
    clients: dict[int, Client],
    choose: Callable[[dict[str, Any]], dict[str, Any]],
    capture: Capture,
) -> int:
    """Post the heroes' actions through the API until the quest ends; the AI answers by itself."""
    for n in range(ACTION_CAP):
        view = hero_view(clients, game)
        if view["outcome"]:
            return n
        assert view["turn"]["seat"] != 1, "the heroes are waiting on Zargon: the AI did not play"
        action = choose(view)
        assert action in view["legal_actions"]
        with capture(execute=True):  # the commit's callbacks: the AI's task runs (eagerly)
            response = post_action(clients[view["seat"]], game.pk, action, view["version"], key())
        assert response.status_code == 200, (action, response.content)
    raise AssertionError(f"no outcome after {ACTION_CAP} hero actions")


def end_the_turn(view: dict[str, Any]) -> dict[str, Any]:
    return {"type": "end_turn", "hero": view["turn"]["hero"]}


# --- the AI plays Zargon's phase at once -------------------------------------------------------


def test_after_the_heroes_turns_the_ai_plays_zargons_phase_at_once(
    ambush_hall: QuestDefinition, django_capture_on_commit_callbacks: Capture
) -> None:
    game, users = solo_game(quest="ambush_hall")
    client = client_for(users[2])
    for hero in ("barbarian", "dwarf", "elf"):
        game.refresh_from_db()
        post_action(client, game.pk, {"type": "end_turn", "hero": hero}, game.version)
    game.refresh_from_db()
    before = game.version

    with django_capture_on_commit_callbacks(execute=True):
        post_action(client, game.pk, {"type": "end_turn", "hero": "wizard"}, before)

    game.refresh_from_db()
    played = ai_actions(game)
    assert len(played) >= 4  # the monsters came at the heroes and the phase ended
    assert [row.version for row in played] == list(range(before + 2, game.version + 1))
    assert played[-1].payload["action"] == {"type": "end_phase"}
    assert any(row.payload["action"]["type"] == "monster_attack" for row in played)
    view = client.get(f"/api/games/{game.pk}/view").json()
    assert view["round"] == 2 and view["turn"]["seat"] == 2  # the heroes' turn again


def test_each_ai_action_is_announced_on_its_own_so_the_board_animates(
    ambush_hall: QuestDefinition, django_capture_on_commit_callbacks: Capture
) -> None:
    game, users = solo_game(quest="ambush_hall")
    client = client_for(users[2])
    for hero in ("barbarian", "dwarf", "elf"):
        game.refresh_from_db()
        post_action(client, game.pk, {"type": "end_turn", "hero": hero}, game.version)
    game.refresh_from_db()
    before = game.version

    with group_listener(game_group(game_id=game.pk)) as socket:
        with django_capture_on_commit_callbacks(execute=True):
            post_action(client, game.pk, {"type": "end_turn", "hero": "wizard"}, before)
        game.refresh_from_db()
        announced = socket.take(game.version - before)

    assert [{k: m[k] for k in ("type", "version")} for m in announced] == [
        {"type": "game.changed", "version": v} for v in range(before + 1, game.version + 1)
    ]
    # The wizard's end hands the turn to the AI, the last action back to the heroes.
    assert announced[0].get("turn") and announced[-1].get("turn")


def test_a_human_zargon_is_never_played_by_the_ai(
    ambush_hall: QuestDefinition, django_capture_on_commit_callbacks: Capture
) -> None:
    game, users = solo_game(quest="ambush_hall", ai_seat="human")
    client = client_for(users[2])
    with django_capture_on_commit_callbacks(execute=True):
        for hero in ("barbarian", "dwarf", "elf", "wizard"):
            game.refresh_from_db()
            post_action(client, game.pk, {"type": "end_turn", "hero": hero}, game.version)

    game.refresh_from_db()
    assert ai_actions(game) == []
    assert ai_seat_play(game_id=game.pk) == 0
    assert client_for(users[1]).get(f"/api/games/{game.pk}/view").json()["turn"]["seat"] == 1


def test_a_second_runner_finds_nothing_left_to_play(
    ambush_hall: QuestDefinition, django_capture_on_commit_callbacks: Capture
) -> None:
    game, users = solo_game(quest="ambush_hall")
    client = client_for(users[2])
    for hero in ("barbarian", "dwarf", "elf", "wizard"):  # no callbacks: the task is "lost"
        game.refresh_from_db()
        post_action(client, game.pk, {"type": "end_turn", "hero": hero}, game.version)

    first = ai_seat_play(game_id=game.pk)
    assert first > 0
    assert ai_seat_play(game_id=game.pk) == 0
    game.refresh_from_db()
    assert len(ai_actions(game)) == first


def test_the_sweep_plays_a_solo_phase_whose_task_was_lost(ambush_hall: QuestDefinition) -> None:
    game, users = solo_game(quest="ambush_hall")
    client = client_for(users[2])
    for hero in ("barbarian", "dwarf", "elf", "wizard"):  # no callbacks: the task is "lost"
        game.refresh_from_db()
        post_action(client, game.pk, {"type": "end_turn", "hero": hero}, game.version)
    assert ai_actions(game) == []

    assert turns_sweep().ai_played == []  # not stalled yet: its task may still be on its way
    with time_machine.travel(timezone.now() + timedelta(minutes=3)):
        report = turns_sweep()
        again = turns_sweep()

    assert report.ai_played == [game.pk]
    assert again.ai_played == []
    game.refresh_from_db()
    assert ai_actions(game)[-1].payload["action"] == {"type": "end_phase"}


# --- whole quests ------------------------------------------------------------------------------


def test_the_ai_beats_a_party_that_only_ends_its_turns(
    ambush_hall: QuestDefinition, django_capture_on_commit_callbacks: Capture
) -> None:
    game, users = solo_game(3, quest="ambush_hall")
    clients = {seat: client_for(user) for seat, user in users.items()}

    play_heroes(game, clients, end_the_turn, django_capture_on_commit_callbacks)

    game.refresh_from_db()
    assert game.outcome == "zargon"
    assert game.room.status == Room.Status.FINISHED
    assert assert_every_ai_action_was_legal(game) == len(ai_actions(game)) > 0
    report = game_verify(game_id=game.pk)
    assert report.ok, report.problem


@pytest.mark.slow  # a whole quest, about a minute
@pytest.mark.parametrize("seed", [3])
def test_a_bot_playing_only_heroes_plays_a_solo_ashen_vault_to_the_end(
    quest: QuestDefinition,
    django_capture_on_commit_callbacks: Capture,
    caplog: pytest.LogCaptureFixture,
    seed: int,
) -> None:
    game, users = solo_game(2, seed=seed)
    clients = {seat: client_for(user) for seat, user in users.items()}
    bot = Bot(seed)

    def heroes_only(view: dict[str, Any]) -> dict[str, Any]:
        assert view["role"] == "hero"
        action = bot.choose(view)
        assert action is not None
        return action

    play_heroes(game, clients, heroes_only, django_capture_on_commit_callbacks)

    game.refresh_from_db()
    assert game.outcome in {"heroes", "zargon"}
    assert assert_every_ai_action_was_legal(game) == len(ai_actions(game)) > 0
    assert not [r for r in caplog.records if "refused" in r.getMessage()]
    report = game_verify(game_id=game.pk)
    assert report.ok, report.problem
