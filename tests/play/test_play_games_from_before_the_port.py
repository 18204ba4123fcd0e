"""A game launched before the platform knew more than one game still opens, plays on and
verifies: the migrations give it its kind, its seats to move and round, its players' settings and
the revision of the rules it was launched with (apps/play/migrations 0011 and 0012)."""

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from apps.games.heroquest import GAME
from apps.play.models import Game
from apps.play.selectors import game_state
from apps.play.services import quest_apply_action
from apps.play.verify import game_verify

BEFORE = [
    ("play", "0010_event_key"),
    ("rooms", "0005_room_invite_only"),
    ("quests", "0003_revisions"),
    ("accounts", "0006_email_not_unique"),
]


def _old_game(apps: Any) -> int:
    """A 3-seat game as the site stored one before the port: played four actions, the elf's
    auto-drink switched off (a HeroSetting row) and logged as the old action rows logged it."""
    user_model = apps.get_model("accounts", "User")
    users = [
        user_model.objects.create(username=f"old{n}", email=f"old{n}@x.org") for n in (1, 2, 3)
    ]
    shipped = {s.slug: s for s in GAME.scenarios()}["ashen_vault"]
    quest_row = apps.get_model("quests", "QuestDefinition").objects.create(
        slug="ashen_vault", name=shipped.name, source=shipped.source, origin="shipped"
    )
    room = apps.get_model("rooms", "Room").objects.create(
        name="Old table", host=users[0], quest=quest_row, seat_count=3, status="playing"
    )
    for number, user in enumerate(users, start=1):
        apps.get_model("rooms", "Seat").objects.create(room=room, number=number, user=user)
    quest = GAME.scenario_parse("ashen_vault", shipped.source)
    start = GAME.new_game(quest, 3, 11, {"rules_revision": 1}, commitment=None)
    state, events = start.state, list(start.events)
    rows: list[dict[str, Any]] = [
        {"version": 0, "kind": "event", "payload": e, "event_seq": e["seq"]} for e in events
    ]
    plays = [
        (2, {"type": "roll_movement", "hero": "barbarian"}, None),
        (2, {"type": "end_turn", "hero": "barbarian"}, None),
        (2, {"type": "end_turn", "hero": "dwarf"}, {"elf": False}),  # old settings format
        (3, {"type": "end_turn", "hero": "elf"}, None),
    ]
    for version, (seat, action, settings) in enumerate(plays, start=1):
        if settings:
            state = GAME.with_settings(state, settings)  # type: ignore[arg-type]  # the old format
        step = GAME.apply(state, seat, action)
        payload = {"seat": seat, "action": action, "system": False}
        rows.append(
            {
                "version": version,
                "kind": "action",
                "payload": payload | ({"settings": settings} if settings else {}),
                "seat": seat,
                "key": f"k{version}",
            }
        )
        rows += [{"version": version, "kind": "event", "payload": e, "event_seq": e["seq"]}
                 for e in step.events]  # fmt: skip
        state = step.state
    state_json = GAME.state_to_json(state)
    state_json["options"] = {}  # the old engine stored no revision: the migration pins 1
    game = apps.get_model("play", "Game").objects.create(
        room=room, quest_slug="ashen_vault", quest_source=shipped.source, seats=3, seed=11,
        options={}, state=state_json, version=len(plays), last_seq=len(rows), outcome="",
    )  # fmt: skip
    event_model = apps.get_model("play", "GameEvent")
    for seq, row in enumerate(rows, start=1):
        event_model.objects.create(game=game, seq=seq, **row)
    apps.get_model("play", "HeroSetting").objects.create(game=game, hero="elf", auto_drink=False)
    return int(game.pk)


@pytest.mark.django_db(transaction=True)
def test_a_game_from_before_the_port_opens_plays_on_and_verifies() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    game_id = _old_game(executor.loader.project_state(BEFORE).apps)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    game = Game.objects.get(pk=game_id)
    assert (game.kind, game.room.kind, game.room.ai_seat) == ("heroquest", "heroquest", "human")
    assert game.to_move == GAME.seats_to_move(game_state(game=game)) == [3]  # the wizard's turn
    assert game.round == 1 and game.settings == {"elf": {"auto_drink": False}}
    assert game.options["rules_revision"] == game.state["options"]["rules_revision"] == 1
    assert game_verify(game_id=game_id).ok

    quest_apply_action(
        game_id=game_id,
        seat=3,
        action={"type": "end_turn", "hero": "wizard"},
        expected_version=game.version,
        key="after-the-port",
    )

    game.refresh_from_db()
    # No monster can act yet, so Zargon's phase passes: round 2 is the Barbarian's (seat 2).
    assert (game.round, game.to_move) == (2, [2])
    report = game_verify(game_id=game_id)
    assert report.ok and report.actions == 5, str(report)
