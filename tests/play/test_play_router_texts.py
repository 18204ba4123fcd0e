"""No text on any channel tells a reader what their seat may not see.

Whole HeroQuest games are played at random through the services (the bot of tests/play/bot.py,
every seat), with reminders and timeouts from the sweep, every player's browser subscribed to
push at a push endpoint on 127.0.0.1 (each payload decrypted) and the room's chat webhook at a
local server. After each step every new text is checked against the state of that moment:
notification titles and bodies (the live toast), every email, every push, every webhook line.
A hero seat's texts, and the webhook's (the whole table and anyone in the channel: the
spectator's view), never name what is still hidden: a monster not yet revealed (its kind, a
villain's name), a room not yet entered, a hidden id, a card still in the deck; no text names
the seed or its salt while the game runs. And each person is told once per turn change.
"""

import json
import re
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.core import mail

from apps.games.heroquest import engine as rules
from apps.games.registry import game_face
from apps.notifications.models import Notification
from apps.notifications.push.keys import new_key_pair
from apps.notifications.push.subscriptions import push_subscription_save
from apps.play.chat_webhooks import room_webhook_set
from apps.play.models import Game
from apps.play.services import game_launch, quest_apply_action
from apps.play.turns import turns_sweep
from apps.rooms.models import Room
from tests.games.heroquest.engine.leakcheck import hidden_area_names, hidden_ids
from tests.notifications.local_http import LocalServer, local_server
from tests.notifications.test_notifications_push import Browser

from .bot import Bot
from .conftest import RoomMaker

pytestmark = pytest.mark.django_db
ZARGON = 1
SPECTATOR = 0


def secrets_of(state: rules.State, seat: int, game: Game) -> set[str]:
    """What no text to `seat` may contain now (case-insensitive words or phrases)."""
    words = {str(game.seed), game.seed_salt}  # the seeds played here are as long as real ones
    if seat == ZARGON:
        return words
    shown_kinds = {m.kind for m in state.monsters.values() if m.pub is not None}
    hidden = [m for m in state.monsters.values() if m.pub is None and m.alive]
    words |= {m.kind.replace("_", " ") for m in hidden if m.kind not in shown_kinds}
    words |= {m.name for m in hidden if m.name}
    words |= hidden_area_names(state) | hidden_ids(state)
    words |= {card for card in state.deck if len(card) > 4}
    return {w for w in words if w}


def assert_clean(text: str, state: rules.State, seat: int, game: Game, where: str) -> None:
    for secret in secrets_of(state, seat, game):
        pattern = rf"(?<![\w-]){re.escape(secret)}(?![\w-])"
        assert not re.search(pattern, text, re.IGNORECASE), f"{where} tells seat {seat} {secret!r}"


class Channels:
    """Every text sent so far, by channel, and which of them were checked."""

    def __init__(self, push: LocalServer, chat: LocalServer, browsers: dict[str, Browser]):
        self.push, self.chat, self.browsers = push, chat, browsers
        self.seen = {"notes": 0, "mails": 0, "pushes": 0, "lines": 0}

    def new_texts(self, seats_of: dict[int, int], email_seat: dict[str, int]) -> list[Any]:
        """(channel, seat, text) of everything sent since the last call."""
        found: list[tuple[str, int, str]] = []
        notes = list(Notification.objects.order_by("id")[self.seen["notes"] :])
        found += [("live", seats_of[n.user_id], f"{n.title}\n{n.body}") for n in notes]
        mails = mail.outbox[self.seen["mails"] :]
        for message in mails:
            html = "".join(str(a[0]) for a in getattr(message, "alternatives", []))
            text = f"{message.subject}\n{message.body}\n{html}"
            found.append(("email", email_seat[message.to[0]], text))
        pushes = self.push.requests[self.seen["pushes"] :]
        for request in pushes:
            owner = request.path.rsplit("/", 1)[1]
            payload = self.browsers[owner].decrypt(request.body)
            found.append(("push", seats_of[int(owner)], json.dumps(payload)))
        lines = self.chat.requests[self.seen["lines"] :]
        found += [("webhook", SPECTATOR, json.loads(r.body)["text"]) for r in lines]
        self.seen = {
            "notes": self.seen["notes"] + len(notes),
            "mails": self.seen["mails"] + len(mails),
            "pushes": self.seen["pushes"] + len(pushes),
            "lines": self.seen["lines"] + len(lines),
        }
        return found


def play_and_check(
    make_room: RoomMaker, settings: Any, time_machine: Any, capture: Any, seed: int
) -> Counter:
    time_machine.move_to(datetime(2026, 6, 1, 9, 0, tzinfo=UTC), tick=False)
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = new_key_pair()
    settings.OUTBOUND_ALLOW_PRIVATE = True
    room, users = make_room(5)
    Room.objects.filter(pk=room.pk).update(
        turn_time_limit=timedelta(hours=24), reminder_after=timedelta(hours=12)
    )
    seats_of = {user.pk: seat for seat, user in users.items()}
    email_seat = {user.email: seat for seat, user in users.items()}
    counts: Counter[str] = Counter()
    with local_server((201,)) as push, local_server((200,)) as chat:
        browsers = {}
        for user in users.values():
            browsers[str(user.pk)] = Browser()
            push_subscription_save(
                user=user, data=browsers[str(user.pk)].subscription(f"{push.url}/p/{user.pk}")
            )
        room_webhook_set(room_id=room.pk, user=users[1], url=f"{chat.url}/services/T/B/x")
        channels = Channels(push, chat, browsers)
        with capture(execute=True):
            game = game_launch(room_id=room.pk, user=users[1], seed=seed)
        bot = Bot(seed % 1000)
        for step in range(260):
            game.refresh_from_db()
            state = rules.State.from_json(game.state, rules.load_quest("ashen_vault"))
            for channel, seat, text in channels.new_texts(seats_of, email_seat):
                assert_clean(text, state, seat, game, channel)
                counts[channel] += 1
            if game.outcome:
                break
            if step % 40 == 39:  # the days between turns: reminders and timeouts
                time_machine.shift(timedelta(hours=13 if step % 80 == 39 else 25))
                with capture(execute=True):
                    turns_sweep()
                continue
            (seat,) = game.to_move
            action = bot.choose(rules.seat_view(state, seat))
            assert action is not None
            before, told = list(game.to_move), turn_notices()
            with capture(execute=True):
                quest_apply_action(
                    game_id=game.pk,
                    seat=seat,
                    action=action,
                    expected_version=game.version,
                    key=f"bot-{step}",
                )
            game.refresh_from_db()
            newly = set(game.to_move) if game.to_move != before else set()
            told_now = turn_notices() - told
            assert told_now == Counter({users[s].pk: 1 for s in newly})  # once per turn change
        game.refresh_from_db()
        state = rules.State.from_json(game.state, rules.load_quest("ashen_vault"))
        for channel, seat, text in channels.new_texts(seats_of, email_seat):
            if not game.outcome:
                assert_clean(text, state, seat, game, channel)
            counts[channel] += 1
    return counts


def turn_notices() -> Counter[int]:
    return Counter(Notification.objects.filter(kind="your_turn").values_list("user_id", flat=True))


def test_the_texts_of_a_whole_game_reveal_nothing_hidden(
    make_room: RoomMaker,
    settings: Any,
    time_machine: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    counts = play_and_check(
        make_room, settings, time_machine, django_capture_on_commit_callbacks, seed=2**62 + 11
    )
    assert {"live", "email", "push", "webhook"} <= set(counts)  # every channel was exercised
    assert sum(counts.values()) > 50, counts


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2**62 + 2, 2**62 + 3, 2**62 + 5, 2**62 + 8])
def test_more_games_reveal_nothing_hidden(
    make_room: RoomMaker,
    settings: Any,
    time_machine: Any,
    django_capture_on_commit_callbacks: Any,
    seed: int,
) -> None:
    play_and_check(make_room, settings, time_machine, django_capture_on_commit_callbacks, seed)


def test_the_check_catches_a_notice_that_names_a_room_not_yet_entered(
    make_room: RoomMaker,
    settings: Any,
    time_machine: Any,
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    face = type(rules_face())
    honest = face.turn_notice

    def leaking(self: Any, state: Any, seat: int, *, reminder: bool, where: str) -> Any:
        title, text = honest(self, state, seat, reminder=reminder, where=where)
        secret = sorted(hidden_area_names(state))[:1]
        return title, text + (f" Beware {secret[0]}." if secret else "")

    monkeypatch.setattr(face, "turn_notice", leaking)
    with pytest.raises(AssertionError, match="tells seat"):
        play_and_check(
            make_room, settings, time_machine, django_capture_on_commit_callbacks, seed=2**62 + 11
        )


def rules_face() -> Any:
    return game_face("heroquest")
