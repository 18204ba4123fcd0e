"""Private settings (auto-drink): sent any time, seen by their owner only, outside the game's log.

Changing one bumps no version and leaves no gap in anyone's event numbers, so the other seats
learn nothing and the player on turn is never refused for a stale version.
"""

from typing import Any

import pytest

from apps.games.heroquest import engine as rules
from apps.play.models import Game, GameEvent
from apps.play.selectors import game_seat_view
from apps.play.services import quest_apply_action
from apps.play.verify import game_verify

from .conftest import GameMaker, client_for, key, post_action

pytestmark = pytest.mark.django_db

Capture = Any


def auto_drink(hero: str, on: bool) -> dict[str, Any]:
    return {"type": "set_auto_drink", "hero": hero, "on": on}


def hero_sheet(game: Game, seat: int, hero: str) -> dict[str, Any]:
    game.refresh_from_db()
    view = game_seat_view(game=game, seat=seat)
    return next(h for h in view["heroes"] if h["hero"] == hero)


def test_a_setting_changes_no_version_no_log_and_no_other_seats_view(
    make_game: GameMaker, django_capture_on_commit_callbacks: Capture
) -> None:
    game, _ = make_game(3)
    before = {seat: game_seat_view(game=game, seat=seat) for seat in (1, 2)}
    rows = game.events.count()

    with django_capture_on_commit_callbacks() as callbacks:
        response = quest_apply_action(
            game_id=game.pk, seat=3, action=auto_drink("elf", False), expected_version=0, key=key()
        )

    assert response == {"version": 0, "seat": 3, "entries": []}
    assert callbacks == []  # nothing announced to the game's sockets
    game.refresh_from_db()
    assert game.version == 0 and game.events.count() == rows
    assert {seat: game_seat_view(game=game, seat=seat) for seat in (1, 2)} == before
    assert hero_sheet(game, 3, "elf")["auto_drink"] is False
    assert "auto_drink" not in hero_sheet(game, 2, "elf")  # the owner's alone, as before


def test_the_player_on_turn_is_never_refused_while_another_seat_toggles(
    make_game: GameMaker,
) -> None:
    game, users = make_game(3)
    barbarian, elf = client_for(users[2]), client_for(users[3])
    version = 0
    for n, action in enumerate(
        [{"type": "roll_movement", "hero": "barbarian"}, {"type": "end_turn", "hero": "barbarian"}]
    ):
        # The other seat toggles with whatever version it last saw, between every action.
        for on in (n % 2 == 0, n % 2 == 1):
            assert post_action(elf, game.pk, auto_drink("elf", on), 0).status_code == 200
        response = post_action(barbarian, game.pk, action, version)
        assert response.status_code == 200, response.json()
        version = response.json()["version"]
    assert version == 2


def test_the_next_action_carries_the_setting_into_the_game_and_the_replay(
    make_game: GameMaker,
) -> None:
    game, _ = make_game(3)
    quest_apply_action(
        game_id=game.pk, seat=2, action=auto_drink("dwarf", False), expected_version=0, key=key()
    )
    quest_apply_action(
        game_id=game.pk,
        seat=2,
        action={"type": "end_turn", "hero": "barbarian"},
        expected_version=0,
        key=key(),
    )

    game.refresh_from_db()
    state = rules.State.from_json(game.state, rules.load_quest("ashen_vault"))
    assert state.heroes["dwarf"].auto_drink is False
    [action_row] = game.events.filter(kind=GameEvent.Kind.ACTION)
    assert action_row.payload["settings"] == {"dwarf": {"auto_drink": False}}
    assert game_verify(game_id=game.pk).ok

    # Tampering with the recorded setting is caught by the replay.
    action_row.payload["settings"] = {}
    action_row.save()
    assert not game_verify(game_id=game.pk).ok


def test_a_setting_is_sent_once_per_key_and_only_for_ones_own_hero(
    make_game: GameMaker,
) -> None:
    game, users = make_game(3)
    elf = client_for(users[3])
    idem = key()

    first = post_action(elf, game.pk, auto_drink("elf", False), 0, idem)
    again = post_action(elf, game.pk, auto_drink("elf", True), 0, idem)
    theirs = post_action(elf, game.pk, auto_drink("barbarian", False), 0)

    assert first.status_code == again.status_code == 200 and first.json() == again.json()
    game.refresh_from_db()
    assert game.settings == {"elf": {"auto_drink": False}}
    assert theirs.status_code == 403
