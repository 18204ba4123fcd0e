"""A finished quest built through the real services: the bot plays every seat to the end.

The Ambush Hall (tests/play/quests/) puts the monsters in the heroes' entrance hall, so its
quests are short and full of dice: red movement dice and combat dice from the first round.
"""

from pathlib import Path

from apps.accounts.models import User
from apps.play.models import Game
from apps.play.selectors import game_seat_view
from apps.play.services import game_launch, quest_apply_action
from apps.quests.models import QuestDefinition
from apps.rooms import services as rooms
from tests.conftest import make_user

from .bot import Bot
from .conftest import key

ACTION_CAP = 2000
AMBUSH_HALL = Path(__file__).parent / "quests" / "ambush_hall.yaml"


def ambush_hall_game(seats: int = 3, seed: int = 5) -> tuple[Game, dict[int, User]]:
    """A launched Ambush Hall game, the host in seat 1 (Zargon), every seat taken."""
    QuestDefinition.objects.get_or_create(
        slug="ambush_hall",
        defaults={"name": "The Ambush Hall", "source": AMBUSH_HALL.read_text(encoding="utf-8")},
    )
    host = make_user()
    room = rooms.room_create(
        host=host, name="Ambush table", seat_count=seats, quest_slug="ambush_hall"
    )
    users = {1: host}
    rooms.room_seat_take(room_id=room.pk, user=host, number=1)
    for number in range(2, seats + 1):
        users[number] = make_user()
        rooms.room_seat_take(room_id=room.pk, user=users[number], number=number)
    return game_launch(room_id=room.pk, user=host, seed=seed), users


def play_to_the_end(game: Game, seed: int) -> Game:
    """Every seat plays its turns with the bot (as test_play_playthrough.py, without HTTP)."""
    bot = Bot(seed)
    for _ in range(ACTION_CAP):
        game.refresh_from_db()
        if game.outcome:
            return game
        seat = game_seat_view(game=game, seat=1)["turn"]["seat"]
        view = game_seat_view(game=game, seat=seat)
        action = bot.choose(view)
        response = quest_apply_action(
            game_id=game.pk, seat=seat, action=action, expected_version=game.version, key=key()
        )
        bot.observe(response["entries"])
    raise AssertionError(f"no outcome after {ACTION_CAP} actions")


def finished_game(seats: int = 3, seed: int = 5) -> tuple[Game, dict[int, User]]:
    game, users = ambush_hall_game(seats, seed)
    return play_to_the_end(game, seed), users
