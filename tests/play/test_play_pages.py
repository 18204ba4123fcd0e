"""The lobby, the launch button and the game page."""

import json

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse
from django.views.defaults import server_error

from apps.games.heroquest import engine as rules
from apps.games.heroquest.engine.questfile import parse_quest_text
from apps.games.registry import game_faces
from apps.play.models import Game
from apps.play.selectors import game_view
from apps.play.services import quest_apply_action
from apps.rooms.models import Room
from apps.rooms.services import room_seat_take, room_spectators_set
from tests.conftest import make_user

from .conftest import GameMaker, RoomMaker, client_for

pytestmark = pytest.mark.django_db


def test_visitors_see_the_welcome_page(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert response.templates[0].name == "home.html"


def test_the_welcome_page_offers_every_game_on_the_site_with_its_rules(client: Client) -> None:
    page = client.get("/").content.decode()

    for face in game_faces():
        assert face.name in page
        assert reverse("play:rules_game", args=[face.slug]) in page
    assert "HeroQuest by web" not in page  # the site's title names no one game


def test_the_lobby_lists_open_rooms_with_free_seats(make_room: RoomMaker) -> None:
    waiting, _ = make_room(3, fill=False)
    full, _ = make_room(2)
    visitor = client_for(make_user())

    page = visitor.get("/").content.decode()

    assert f'id="room-{waiting.pk}"' in page and "2 of 3" in page
    assert f'id="room-{full.pk}"' not in page
    assert f"/rooms/{waiting.pk}/" in page


def test_the_lobby_shows_whose_turn_it_is_in_my_games(make_game: GameMaker) -> None:
    game, users = make_game(3)
    users[2].display_name = "Brenna"
    users[2].save()

    mine = client_for(users[2]).get("/").content.decode()
    theirs = client_for(users[3]).get("/").content.decode()
    stranger = client_for(make_user()).get("/").content.decode()

    assert f'id="game-{game.pk}"' in mine and "Your turn" in mine
    assert f'id="game-{game.pk}"' in theirs and "Waiting for Brenna" in theirs
    assert f'id="game-{game.pk}"' not in stranger

    quest_apply_action(
        game_id=game.pk,
        seat=2,
        action={"type": "end_turn", "hero": "barbarian"},
        expected_version=0,
        key="a",
    )
    quest_apply_action(
        game_id=game.pk,
        seat=2,
        action={"type": "end_turn", "hero": "dwarf"},
        expected_version=1,
        key="b",
    )
    assert "Your turn" in client_for(users[3]).get("/").content.decode()


def test_the_host_launches_from_the_room_page(make_room: RoomMaker) -> None:
    room, users = make_room(2)
    response = client_for(users[1]).post(f"/rooms/{room.pk}/launch")
    game = Game.objects.get(room=room)
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"


def test_launch_refusals_go_back_to_the_room_page_with_a_message(make_room: RoomMaker) -> None:
    room, users = make_room(3, fill=False)
    host = client_for(users[1])

    response = host.post(f"/rooms/{room.pk}/launch", follow=True)

    assert response.redirect_chain[0] == (f"/rooms/{room.pk}/", 302)
    assert "Every seat must be taken" in response.content.decode()
    assert not Game.objects.exists()


def test_launch_needs_a_post_and_a_login(make_room: RoomMaker, client: Client) -> None:
    room, users = make_room(2)
    assert client_for(users[1]).get(f"/rooms/{room.pk}/launch").status_code == 405
    assert client.post(f"/rooms/{room.pk}/launch").status_code == 302  # to the login page
    assert not Game.objects.exists()


def test_the_game_page_carries_the_seat_view_and_urls(make_game: GameMaker) -> None:
    game, users = make_game(2)
    response = client_for(users[2]).get(f"/games/{game.pk}/")

    assert response.status_code == 200
    context = response.context
    assert context["game"] == game and context["seat"] == 2
    assert context["view_json"] == game_view(game_id=game.pk, user=users[2])
    assert context["api_view_url"] == f"/api/games/{game.pk}/view"
    assert context["api_actions_url"] == f"/api/games/{game.pk}/actions"
    assert context["api_events_url"] == f"/api/games/{game.pk}/events"
    assert context["ws_url"] == f"/ws/games/{game.pk}/"
    page = response.content.decode()
    script = page.split('<script id="seat-view" type="application/json">')[1].split("</script>")[0]
    assert json.loads(script)["seat"] == 2


def test_the_game_header_shows_the_room_options_in_force(make_room: RoomMaker) -> None:
    room, users = make_room(2)
    Room.objects.filter(pk=room.pk).update(options={"edition": "uk", "heroes_pass_heroes": True})
    client_for(users[1]).post(f"/rooms/{room.pk}/launch")
    game = Game.objects.get(room=room)
    page = client_for(users[2]).get(f"/games/{game.pk}/").content.decode()
    header = page.split('id="rules-in-force">')[1].split("</p>")[0]
    assert header == "UK edition rules · Fixed spells (Elf: Earth) · Heroes may pass heroes"


def test_the_game_page_is_404_for_non_members(make_game: GameMaker, client: Client) -> None:
    game, _ = make_game(2)
    assert client_for(make_user()).get(f"/games/{game.pk}/").status_code == 404
    assert client_for(make_user()).get("/games/999999/").status_code == 404
    assert client.get(f"/games/{game.pk}/").status_code == 302  # anonymous: log in first


def test_the_lobby_shows_my_waiting_room_with_the_right_count(make_room: RoomMaker) -> None:
    room, users = make_room(4, fill=False)
    other = make_user()
    room_seat_take(room_id=room.pk, user=other, number=3)

    for user in (users[1], other):
        page = client_for(user).get("/").content.decode()
        assert f'id="room-{room.pk}"' in page and "2 of 4" in page
    assert "Your room (seat 3)" in client_for(other).get("/").content.decode()


def test_a_hero_seats_pages_name_nothing_hidden(make_game: GameMaker) -> None:
    """The game page, the lobby and the room page of a hero seat carry no internal id, name or
    note of anything the heroes have not found; Zargon's game page does (a sanity check)."""
    game, users = make_game(3, seed=918273645)
    state = rules.State.from_json(game.state, parse_quest_text(game.quest_source))
    quest = state.quest
    hidden = [f'"{m.key}"' for m in state.monsters.values() if m.pub is None]
    hidden += [f'"{t}"' for t, ts in state.traps.items() if ts.pub is None]
    hidden += [f'"{d}"' for d, ds in state.doors.items() if ds.pub is None]
    hidden += [a.name for a in quest.areas.values() if a.id not in state.areas]
    hidden = [h for h in hidden if h != quest.name]
    hidden += ['"z-', quest.notes.split(".")[0], "deck", '"rng"', '"seed"', str(game.seed)]
    assert len(hidden) > 30

    for seat in (2, 3):
        hero = client_for(users[seat])
        for url in (f"/games/{game.pk}/", "/", f"/rooms/{game.room_id}/"):
            page = hero.get(url).content.decode()
            assert not [h for h in hidden if h in page], (seat, url)
    # A spectator (no seat, the room lets them watch) reads no more than a hero seat, and no
    # hero's inventory either (tests/play/test_play_spectators.py checks the API and sockets).
    room_spectators_set(room_id=game.room_id, user=users[1], allow=True)
    spectator = client_for(make_user())
    for url in (f"/games/{game.pk}/", "/"):
        response = spectator.get(url)
        assert response.status_code == 200
        page = response.content.decode()
        assert not [h for h in [*hidden, '"spells"', '"gold"'] if h in page], ("spectator", url)
    zargon = client_for(users[1]).get(f"/games/{game.pk}/").content.decode()
    assert '"z-' in zargon and quest.notes.split(".")[0] in zargon


def test_the_game_page_names_the_players_and_carries_the_confirmation_setting(
    make_game: GameMaker,
) -> None:
    game, users = make_game(2)
    page = client_for(users[2]).get(f"/games/{game.pk}/").content.decode()
    assert 'data-confirm="on"' in page
    names = page.split('<script id="seat-names" type="application/json">')[1].split("</script>")[0]
    assert json.loads(names) == {"1": users[1].shown_name, "2": users[2].shown_name}

    users[2].confirm_actions = False
    users[2].save(update_fields=["confirm_actions"])
    assert 'data-confirm="off"' in client_for(users[2]).get(f"/games/{game.pk}/").content.decode()


def test_a_missing_page_is_styled_with_the_site_navigation(make_game: GameMaker) -> None:
    _, users = make_game(2)
    response = client_for(users[2]).get("/no/such/page/")
    assert response.status_code == 404
    page = response.content.decode()
    assert "Nothing down this passage" in page
    assert 'class="site-header"' in page and 'href="/rules/"' in page


def test_a_server_error_page_keeps_the_site_navigation() -> None:
    response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    page = response.content.decode()
    assert "A trap was sprung" in page and 'class="site-header"' in page
