"""Fair dice: the seed's commitment is published at launch, kept, and opened only at the end.

Every seat sees `sha256("<salt>:<seed>")` in its log and on the game page from the launch on; the
salt (256 random bits) and the seed are shown nowhere (views, log, API, pages) until the quest is
over, and then they hash back to the same commitment.
"""

import hashlib
import re

import pytest
from django.contrib.admin.sites import site
from django.test import Client

from apps.play.admin import GameAdmin
from apps.play.fairness import SALT_BYTES
from apps.play.models import Game
from apps.play.selectors import game_seat_view
from apps.play.services import quest_apply_action
from apps.play.table import game_abandon
from apps.play.verify import game_verify
from tests.conftest import make_user

from .conftest import GameMaker, client_for, key

pytestmark = pytest.mark.django_db

# A seed whose digits could not turn up in a page by chance.
SEED = 7_316_482_905_177_342_611


def sha256_of(salt: str, seed: int) -> str:
    return hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()


def end_by_staff(game: Game) -> Game:
    game_abandon(game_id=game.pk, by=make_user(staff=True))
    game.refresh_from_db()
    return game


def everything_a_seat_gets(client: Client, game: Game) -> str:
    """The seat's view, its whole log through the API, its fairness answer and its game page."""
    parts = [
        client.get(f"/api/games/{game.pk}/view").content.decode(),
        client.get(f"/api/games/{game.pk}/events").content.decode(),
        client.get(f"/api/games/{game.pk}/fairness").content.decode(),
        client.get(f"/games/{game.pk}/").content.decode(),
    ]
    return "\n".join(parts)


def play_a_few_actions(game: Game, count: int) -> None:
    """The heroes' seat rolls and ends turns; each action is a real, logged one."""
    for _ in range(count):
        game.refresh_from_db()
        view = game_seat_view(game=game, seat=2 if game.state["phase"] != "monsters" else 1)
        seat = view["turn"]["seat"]
        view = game_seat_view(game=game, seat=seat)
        wanted = ("roll_movement", "end_turn", "end_phase", "end_activation")
        action = next(a for t in wanted for a in view["legal_actions"] if a["type"] == t)
        quest_apply_action(
            game_id=game.pk, seat=seat, action=action, expected_version=game.version, key=key()
        )


def test_the_launch_commits_to_the_seed_with_256_bits_of_salt(make_game: GameMaker) -> None:
    game, _ = make_game(seats=3, seed=SEED)
    assert re.fullmatch(r"[0-9a-f]{64}", game.seed_salt)  # 32 random bytes
    assert len(bytes.fromhex(game.seed_salt)) == SALT_BYTES == 32
    assert game.seed_commitment == sha256_of(game.seed_salt, SEED)


def test_two_launches_with_the_same_seed_commit_differently(make_game: GameMaker) -> None:
    first, _ = make_game(seed=SEED)
    second, _ = make_game(seed=SEED)
    assert first.seed_commitment != second.seed_commitment


def test_every_seat_sees_the_commitment_in_its_log_and_on_its_page(make_game: GameMaker) -> None:
    game, users = make_game(seats=3, seed=SEED)
    for user in users.values():
        client = client_for(user)
        log = client.get(f"/api/games/{game.pk}/events").json()
        sealed = [e for e in log if e["type"] == "seed_committed"]
        assert [e["commitment"] for e in sealed] == [game.seed_commitment]
        assert game.seed_commitment in client.get(f"/games/{game.pk}/").content.decode()
        answer = client.get(f"/api/games/{game.pk}/fairness").json()
        assert answer == {
            "commitment": game.seed_commitment,
            "revealed": False,
            "seed": None,
            "salt": None,
        }


def test_nothing_of_the_seed_is_shown_before_the_end(make_game: GameMaker) -> None:
    game, users = make_game(seats=3, seed=SEED)
    play_a_few_actions(game, 6)
    game.refresh_from_db()
    for user in users.values():
        seen = everything_a_seat_gets(client_for(user), game)
        assert str(SEED) not in seen
        assert game.seed_salt not in seen
        assert format(SEED, "x") not in seen
        assert "seed_revealed" not in seen and 'id="seed-revealed"' not in seen


def test_after_the_end_the_seed_and_salt_are_shown_and_match(make_game: GameMaker) -> None:
    game, users = make_game(seats=3, seed=SEED)
    committed = game.seed_commitment
    play_a_few_actions(game, 4)
    game = end_by_staff(game)
    for user in users.values():
        client = client_for(user)
        answer = client.get(f"/api/games/{game.pk}/fairness").json()
        assert answer["revealed"] is True
        assert answer["commitment"] == committed
        assert sha256_of(answer["salt"], int(answer["seed"])) == committed
        assert int(answer["seed"]) == SEED
        page = client.get(f"/games/{game.pk}/").content.decode()
        assert str(SEED) in page and game.seed_salt in page


def test_the_commitment_never_changes_and_the_admin_cannot_edit_it(
    make_game: GameMaker,
) -> None:
    game, _ = make_game(seed=SEED)
    committed, salt = game.seed_commitment, game.seed_salt
    play_a_few_actions(game, 5)
    game = end_by_staff(game)
    assert (game.seed_commitment, game.seed_salt, game.seed) == (committed, salt, SEED)
    readonly = GameAdmin(Game, site).readonly_fields
    assert {"seed", "seed_commitment"} <= set(readonly)
    assert "seed_salt" not in GameAdmin.fields  # not even shown to staff


def test_a_changed_commitment_no_longer_replays(make_game: GameMaker) -> None:
    """The commitment is in the log the replay checks: changing the row is caught."""
    game, _ = make_game(seed=SEED)
    play_a_few_actions(game, 3)
    assert game_verify(game_id=game.pk).ok
    Game.objects.filter(pk=game.pk).update(seed_commitment="0" * 64)
    report = game_verify(game_id=game.pk)
    assert not report.ok and "commitment" in str(report)


def test_a_game_launched_before_commitments_offers_none(make_game: GameMaker) -> None:
    game, users = make_game(seed=SEED)
    Game.objects.filter(pk=game.pk).update(seed_salt="", seed_commitment="")
    game = end_by_staff(game)
    client = client_for(users[2])
    assert client.get(f"/api/games/{game.pk}/fairness").json() == {
        "commitment": "",
        "revealed": False,
        "seed": None,
        "salt": None,
    }
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="seed-commitment"' not in page and 'id="seed-revealed"' not in page
    assert 'id="replay-link"' in page  # the replay itself is there, without a check


def test_non_members_get_no_fairness_answer(make_game: GameMaker) -> None:
    game, _ = make_game(seed=SEED)
    stranger = client_for(make_user())
    assert stranger.get(f"/api/games/{game.pk}/fairness").status_code == 404
