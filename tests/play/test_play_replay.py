"""Replays: a finished quest step by step, for its players (or anyone, if the host says so).

The quests here are built through the real services: the bot plays the Ambush Hall to the end.
Every die in the replayed log can be checked against the revealed seed (`dice_problem` below is
the check static/js/fairness.js makes in the browser).
"""

import hashlib
from typing import Any

import pytest
from django.test import Client

from apps.games.heroquest import engine as rules
from apps.games.heroquest.engine.data import ZARGON_SEAT
from apps.games.heroquest.engine.dice import COMBAT_FACES, Dice, seed_rng
from apps.play.models import Game, GameEvent
from apps.play.replay import game_replay_page, replay_steps
from apps.play.table import game_abandon, game_spectators_set
from tests.conftest import make_user

from .conftest import GameMaker, client_for
from .finished import ambush_hall_game, finished_game

pytestmark = pytest.mark.django_db

SEED = 4  # the bot's heroes win the Ambush Hall in 89 actions


@pytest.fixture
def finished() -> tuple[Game, dict[int, Any]]:
    return finished_game(3, SEED)


def all_steps(client: Client, game: Game) -> dict[str, Any]:
    """Every page of the replay, joined, each step with its whole view (changes merged in)."""
    first = client.get(f"/api/games/{game.pk}/replay", {"count": 40})
    assert first.status_code == 200, first.content
    data = first.json()
    while len(data["steps"]) < data["total"]:
        more = client.get(f"/api/games/{game.pk}/replay", {"start": len(data["steps"])}).json()
        data["steps"] += more["steps"]
    view: dict[str, Any] = {}
    for step in data["steps"]:
        if "view" in step:
            view = step["view"]
        else:
            changes = step.pop("view_changes")
            view = view | changes | {"map": view["map"] | changes.get("map", {})}
            step["view"] = view
    return data


def shown_dice(entries: list[dict[str, Any]]) -> list[int | str]:
    return [
        die
        for entry in entries
        for roll in entry["dice"]
        for die in (roll["values"] if roll["kind"] == "red" else roll["faces"])
    ]


def dice_problem(data: dict[str, Any]) -> str | None:
    """The first die of the replay that the revealed seed does not give, or None."""
    fair = data["fairness"]
    digest = hashlib.sha256(f"{fair['salt']}:{fair['seed']}".encode()).hexdigest()
    if digest != fair["commitment"]:
        return "the seed and salt do not hash to the commitment"
    stream = Dice(seed_rng(int(fair["seed"])))  # the seed's stream, drawn afresh
    for step in data["steps"]:
        for purpose, n, result in step["draws"]:
            if stream.below(n) != result:
                return f"step {step['step']}: draw {purpose} {n} -> {result} is not the seed's"
        rolled = [
            result + 1 if purpose == "red" else COMBAT_FACES[result]
            for purpose, _, result in step["draws"]
            if purpose in ("red", "combat")
        ]
        if shown_dice(step["entries"]) != rolled:
            return f"step {step['step']}: the log shows other dice than were drawn"
    return None


def test_players_watch_a_finished_quest_from_launch_to_end(finished: Any) -> None:
    game, users = finished
    data = all_steps(client_for(users[2]), game)
    assert data["total"] == game.version + 1  # the launch, then one step per action
    assert [s["step"] for s in data["steps"]] == list(range(data["total"]))
    assert data["steps"][-1]["view"]["outcome"] == game.outcome == "heroes"
    assert data["steps"][0]["action"] is None
    actions = game.events.filter(kind=GameEvent.Kind.ACTION).order_by("seq")
    assert [s["action"] for s in data["steps"][1:]] == [a.payload["action"] for a in actions]


def test_the_replay_board_is_zargons_whole_map(finished: Any) -> None:
    """The board goes through the same seat-view code: Zargon's view is the whole map."""
    game, users = finished
    first = all_steps(client_for(users[2]), game)["steps"][0]["view"]
    state = replay_steps(game=game)[0].state
    expected = rules.seat_view(state, ZARGON_SEAT)
    assert first["role"] == "zargon"
    assert first["map"] == expected["map"] and first["monsters"] == expected["monsters"]
    assert "legal_actions" not in first and "log" not in first
    last = replay_steps(game=game)[-1].state
    replayed = all_steps(client_for(users[2]), game)["steps"][-1]["view"]
    whole = rules.seat_view(last, ZARGON_SEAT)
    assert replayed == {k: v for k, v in whole.items() if k not in ("log", "legal_actions")}


def test_every_die_of_the_replay_is_the_revealed_seeds(finished: Any) -> None:
    game, users = finished
    data = all_steps(client_for(users[3]), game)
    assert dice_problem(data) is None
    purposes = {draw[0] for step in data["steps"] for draw in step["draws"]}
    assert purposes == {"shuffle", "red", "combat"}  # the deck, movement and combat


def test_a_changed_die_in_the_log_fails_the_check(finished: Any) -> None:
    game, users = finished
    data = all_steps(client_for(users[2]), game)
    step = next(s for s in data["steps"] if shown_dice(s["entries"]))
    roll = next(r for e in step["entries"] for r in e["dice"])
    if roll["kind"] == "red":
        roll["values"][0] = roll["values"][0] % 6 + 1
    else:
        roll["faces"][0] = "black_shield" if roll["faces"][0] != "black_shield" else "skull"
    assert dice_problem(data) == f"step {step['step']}: the log shows other dice than were drawn"

    data = all_steps(client_for(users[2]), game)  # a draw changed
    draw = next(s for s in data["steps"][1:] if s["draws"])["draws"][0]
    draw[2] = (draw[2] + 1) % draw[1]
    assert "is not the seed's" in (dice_problem(data) or "")
    data = all_steps(client_for(users[2]), game)
    data["fairness"]["seed"] = str(int(data["fairness"]["seed"]) + 1)
    assert dice_problem(data) == "the seed and salt do not hash to the commitment"


def test_no_replay_while_the_quest_runs(make_game: GameMaker) -> None:
    game, users = make_game(3)
    for user in users.values():
        assert client_for(user).get(f"/api/games/{game.pk}/replay").status_code == 404
        assert client_for(user).get(f"/games/{game.pk}/replay/").status_code == 404
    assert client_for(users[1]).post(
        f"/api/games/{game.pk}/replay/public", {"public": True}, content_type="application/json"
    ).json() == {"public": True}
    assert Client().get(f"/api/games/{game.pk}/replay").status_code == 404  # not even public


def test_strangers_get_404_until_the_host_makes_the_replay_public() -> None:
    game, users = ambush_hall_game(3, SEED)
    game_abandon(game_id=game.pk, by=make_staff())
    stranger, visitor = client_for(make_user()), Client()
    link, api_link = f"/replays/{game.replay_token}/", f"/api/games/replays/{game.replay_token}"
    for client in (stranger, visitor):
        assert client.get(api_link).status_code == 404
        assert client.get(link).status_code == 404
    answer = client_for(users[1]).post(
        f"/api/games/{game.pk}/replay/public", {"public": True}, content_type="application/json"
    )
    assert answer.json() == {"public": True}
    for client in (stranger, visitor):
        assert client.get(api_link).status_code == 200
        assert client.get(link).status_code == 200
        # by the sequential id, never: only the host's link leads there
        assert client.get(f"/api/games/{game.pk}/replay").status_code == 404
        assert client.get(f"/games/{game.pk}/replay/").status_code == 404
    client_for(users[1]).post(
        f"/api/games/{game.pk}/replay/public", {"public": False}, content_type="application/json"
    )
    assert visitor.get(api_link).status_code == 404


def test_only_the_host_makes_a_replay_public() -> None:
    game, users = ambush_hall_game(3, SEED)
    game_abandon(game_id=game.pk, by=make_staff())
    hero = client_for(users[2])
    answer = hero.post(
        f"/api/games/{game.pk}/replay/public", {"public": True}, content_type="application/json"
    )
    assert answer.status_code == 403
    assert answer.json() == {"detail": "Only the host can make the replay public."}
    stranger = client_for(make_user()).post(
        f"/api/games/{game.pk}/replay/public", {"public": True}, content_type="application/json"
    )
    assert stranger.status_code == 404
    game.refresh_from_db()
    assert not game.replay_public
    assert Client().get(f"/api/games/{game.pk}/replay").status_code == 404


def test_an_abandoned_quest_replays_to_where_it_stopped() -> None:
    game, users = ambush_hall_game(3, SEED)
    game_abandon(game_id=game.pk, by=make_staff())
    page = game_replay_page(game_id=game.pk, user=users[2])
    assert page["total"] == 1 and page["outcome"] == "abandoned"
    assert page["fairness"]["revealed"] is True


def test_replay_pages_are_bounded() -> None:
    game, users = ambush_hall_game(3, SEED)
    game_abandon(game_id=game.pk, by=make_staff())
    page = client_for(users[2]).get(f"/api/games/{game.pk}/replay", {"count": 10_000}).json()
    assert len(page["steps"]) <= 200


def make_staff() -> Any:
    admin = make_user()
    admin.is_staff = True
    admin.save()
    return admin


def test_spectators_see_the_seal_but_watch_the_replay_only_once_public() -> None:
    """Spectators are no players: the commitment and its opening, yes; the replay, if shared."""
    game, users = ambush_hall_game(3, SEED)
    game_spectators_set(game_id=game.pk, user=users[1], allow=True)
    game_abandon(game_id=game.pk, by=make_staff())
    watcher = client_for(make_user())
    page = watcher.get(f"/games/{game.pk}/").content.decode()
    assert game.seed_commitment in page and 'id="seed-revealed"' in page
    assert 'id="replay-link"' not in page
    assert watcher.get(f"/api/games/replays/{game.replay_token}").status_code == 404
    Game.objects.filter(pk=game.pk).update(replay_public=True)
    page = watcher.get(f"/games/{game.pk}/").content.decode()
    assert f'id="replay-link" class="button" href="/replays/{game.replay_token}/"' in page
    assert watcher.get(f"/api/games/replays/{game.replay_token}").status_code == 200
    assert watcher.get(f"/api/games/{game.pk}/replay").status_code == 404  # not by the id
