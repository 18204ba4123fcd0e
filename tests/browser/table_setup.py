"""Run in the site's own environment (a subprocess pointed at the browser test's database) by
tests/browser/test_table_live.py:

    python -m tests.browser.table_setup start      # ada hosts (Zargon), bo plays the heroes
    python -m tests.browser.table_setup deliver    # deliver the outbox (the test has no worker)
    python -m tests.browser.table_setup notify bo GAME  # a turn notice about the game, delivered
    python -m tests.browser.table_setup win GAME   # the last hero escapes: the heroes win
    python -m tests.browser.table_setup open_room bo  # bo opens a Legend of Zagor room, seat 1

Each prints one JSON line.
"""

from __future__ import annotations

import json
import sys
from datetime import timedelta


def start() -> dict[str, object]:
    from apps.accounts.models import User
    from apps.play.services import game_launch
    from apps.rooms.services import room_create, room_seat_take
    from tests.conftest import PASSWORD

    ada, bo = (
        User.objects.create_user(
            username=name,
            email=f"{name}@example.com",
            password=PASSWORD,
            confirm_actions=False,
            time_zone="Europe/London",
        )
        for name in ("ada", "bo")
    )
    room = room_create(
        host=ada,
        name="The long table of the Ember Road",
        seat_count=2,
        turn_time_limit=timedelta(hours=24),
    )
    room_seat_take(room_id=room.pk, user=ada, number=1)
    room_seat_take(room_id=room.pk, user=bo, number=2, invite_code=room.invite_code)
    game = game_launch(room_id=room.pk, user=ada, seed=7)
    return {"game": game.pk}


def notify(username: str, game_id: int) -> dict[str, object]:
    """A turn notice about the game, as the action service writes it, then delivered."""
    from django.db import transaction

    from apps.accounts.models import User
    from apps.notifications.services import Kind, notification_send
    from apps.play.models import Game
    from apps.play.notices import game_topic, game_url

    game = Game.objects.select_related("room").get(pk=game_id)
    with transaction.atomic():
        notification_send(
            user=User.objects.get(username=username),
            kind=Kind.YOUR_TURN,
            title=f"Your turn in {game.room.name}",
            body="The Barbarian is up.",
            url=game_url(game),
            topic=game_topic(game_id=game.pk),
        )
    return deliver()


def deliver() -> dict[str, object]:
    from apps.notifications.models import Notification
    from apps.notifications.services import notification_deliver

    pending = list(
        Notification.objects.filter(delivered_at__isnull=True).values_list("pk", flat=True)
    )
    for pk in pending:
        notification_deliver(notification_id=pk)
    unread = {
        n.user.username: n.read
        for n in Notification.objects.filter(pk__in=pending).select_related("user")
    }
    return {"delivered": len(pending), "read": unread}


def win(game_id: int) -> dict[str, object]:
    from apps.play.models import Game
    from tests.campaigns.quest_ends import win as heroes_win

    game = Game.objects.get(pk=game_id)
    heroes_win(game)
    return {"outcome": game.outcome}


def open_room(username: str) -> dict[str, object]:
    """A room of Legend of Zagor with a long name, its host in seat 1 and three seats free."""
    from apps.accounts.models import User
    from apps.rooms.services import room_create, room_seat_take

    host = User.objects.get(username=username)
    room = room_create(
        host=host,
        name="The Firetop Mountain fellowship of the long summer evenings",
        seat_count=4,
        game="zagor",
    )
    room_seat_take(room_id=room.pk, user=host, number=1)
    return {"room": room.pk}


def main(command: str, *args: str) -> None:
    import django

    django.setup()
    if command == "start":
        out = start()
    elif command == "deliver":
        out = deliver()
    elif command == "open_room":
        out = open_room(args[0])
    elif command == "notify":
        out = notify(args[0], int(args[1]))
    else:
        out = win(int(args[0]))
    print(json.dumps(out))


if __name__ == "__main__":
    main(*sys.argv[1:])
