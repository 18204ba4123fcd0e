"""Whole quests played through the HTTP API by a bot that only uses `legal_actions`.

Seed 3 ends with the heroes' win and seed 1 with Zargon's (the bot is deterministic per seed);
each game is then verified by replaying its log, and every seat's log is checked for leaks.
"""

import io
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from apps.play.models import Game, GameEvent
from apps.play.verify import game_verify

from .bot import Bot
from .conftest import GameMaker, client_for, key, post_action

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

ACTION_CAP = 2000


def play_to_the_end(game: Game, clients: dict[int, Client], seed: int) -> int:
    """Play with the bot until the quest ends; returns the number of actions."""
    bot = Bot(seed)
    url = f"/api/games/{game.pk}/view"
    view = clients[1].get(url).json()
    for n in range(ACTION_CAP):
        if view["outcome"]:
            return n
        seat = view["turn"]["seat"]
        if view["seat"] != seat:
            view = clients[seat].get(url).json()
        action = bot.choose(view)
        assert action in view["legal_actions"]
        response = post_action(clients[seat], game.pk, action, view["version"], key())
        assert response.status_code == 200, (action, response.content)
        bot.observe(response.json()["entries"])
        view = clients[seat].get(url).json()
        assert view["version"] == n + 1
    raise AssertionError(f"no outcome after {ACTION_CAP} actions")


def in_audience(audience: Any, seat: int) -> bool:
    return (
        audience == "all"
        or (audience == "zargon" and seat == 1)
        or (isinstance(audience, list) and seat in audience)
    )


def assert_no_leaks(game: Game, clients: dict[int, Client]) -> None:
    """Each seat gets the full form of its events, the redacted form of others, or nothing."""
    stored = {
        row.payload["seq"]: row.payload for row in game.events.filter(kind=GameEvent.Kind.EVENT)
    }
    for seat, client in clients.items():
        entries: list[dict[str, Any]] = []
        after = 0
        while page := client.get(f"/api/games/{game.pk}/events", {"after": after}).json():
            entries += page
            after = page[-1]["seq"]
        served = {e["seq"]: e for e in entries}
        assert len(served) == len(entries)
        for seq, event in stored.items():
            entry = served.get(seq)
            if in_audience(event["audience"], seat):
                assert entry is not None
                assert {k: v for k, v in entry.items() if k != "version"} == {
                    k: v for k, v in event.items() if k not in ("audience", "redacted")
                }
            elif event["redacted"] is None:
                assert entry is None, (seat, event)
            else:
                assert entry is not None
                # Only the redacted form: nothing of the full event that the redaction leaves out.
                hidden = set(event) - set(event["redacted"]) - {"type", "seq", "dice"}
                assert not (set(entry) & hidden), (seat, entry, event)
                assert entry["text"] == event["redacted"]["text"]


@pytest.mark.parametrize("seats", [2, 3, 5])
# Seed 1 ended in a Zargon win before this round's rules audit (docs/rules.md 5, 6, 7); both seeds
# now end in the heroes' win, and Zargon's wins are covered by the AI tests.
@pytest.mark.parametrize("seed, outcome", [(3, "heroes"), (1, "heroes")])
def test_a_bot_plays_the_ashen_vault_to_the_end_through_the_api(
    make_game: GameMaker, seats: int, seed: int, outcome: str
) -> None:
    game, users = make_game(seats, seed=seed)
    clients = {seat: client_for(user) for seat, user in users.items()}

    actions = play_to_the_end(game, clients, seed)

    game.refresh_from_db()
    assert game.outcome == outcome
    assert game.version == actions
    assert game.room.status == "finished"
    seqs = list(game.events.order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    report = game_verify(game_id=game.pk)
    assert report.ok, report.problem
    assert report.actions == actions
    out = io.StringIO()
    call_command("verify_quest", str(game.pk), stdout=out)
    assert f"game {game.pk}: OK: {actions} actions" in out.getvalue()
    assert_no_leaks(game, clients)
