"""What an action, a view and a page of the log cost in SQL statements, early in a game and after
a long one (issue 9): the same, and small.

Transactional tests: the count is then what production sends, with no test savepoints.
"""

from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from apps.accounts.services import token_issue
from apps.games.heroquest import engine as rules
from apps.games.heroquest.engine.questfile import parse_quest_text
from apps.play.models import Game, GameEvent
from apps.play.selectors import game_events
from apps.play.services import game_action_submit, quest_apply_action

from .bot import Bot
from .conftest import GameMaker, key

pytestmark = pytest.mark.django_db(transaction=True)

MAX_STATEMENTS_PER_ACTION = 5


def next_move(game: Game) -> tuple[int, dict[str, Any]]:
    game.refresh_from_db()
    state = rules.State.from_json(game.state, parse_quest_text(game.quest_source))
    seat = rules.seats_to_move(state)[0]
    action = Bot(game.version).choose(rules.seat_view(state, seat))
    assert action is not None
    return seat, action


def play(game: Game, actions: int) -> None:
    for _ in range(actions):
        seat, action = next_move(game)
        quest_apply_action(
            game_id=game.pk, seat=seat, action=action, expected_version=game.version, key=key()
        )


def fast_forward(game: Game, events: int, zargon_only_every: int = 0) -> None:
    """Give `game` a long past: `events` more log rows (copies of its first event, numbered on),
    with the version, log number and engine event counter that go with them. With
    `zargon_only_every` = n, every n-th of them is for Zargon's eyes only."""
    game.refresh_from_db()
    template = game.events.filter(kind=GameEvent.Kind.EVENT).order_by("seq").first()
    assert template is not None
    first_seq = game.state["seq"] + 1
    GameEvent.objects.bulk_create(
        GameEvent(
            game=game,
            seq=game.last_seq + 1 + n,
            version=game.version + 1 + n,
            kind=GameEvent.Kind.EVENT,
            payload={
                **template.payload,
                "seq": first_seq + n,
                **(
                    {"audience": "zargon", "redacted": None}
                    if zargon_only_every and n % zargon_only_every == 0
                    else {}
                ),
            },
            event_seq=first_seq + n,
        )
        for n in range(events)
    )
    game.state["seq"] += events
    game.version += events
    game.last_seq += events
    game.save(update_fields=["state", "version", "last_seq"])


def statements_of(run: Any) -> list[str]:
    """The statements `run` sends, less transaction control: SQLite's driver logs its BEGIN and
    COMMIT, PostgreSQL's sends them unlogged; either way one per transaction."""
    with CaptureQueriesContext(connection) as queries:
        run()
    sent = [q["sql"] for q in queries.captured_queries]
    return [sql for sql in sent if sql.split(None, 1)[0].upper() not in TRANSACTION_CONTROL]


TRANSACTION_CONTROL = {"BEGIN", "COMMIT", "SAVEPOINT", "RELEASE"}


def statements_in_transaction(run: Any) -> list[str]:
    """The statements `run` sends in its transaction: what runs once it commits (delivering the
    notices it wrote, here eagerly) is left out."""
    with transaction.atomic():
        return statements_of(run)


def test_an_action_costs_at_most_five_statements_early_and_after_10000_events(
    make_game: GameMaker,
) -> None:
    early, users_early = make_game(3, seed=5)
    late, users_late = make_game(3, seed=5)
    play(early, 10)
    play(late, 10)
    fast_forward(late, 10_000)

    counts = []
    for game, users in ((early, users_early), (late, users_late)):
        seat, action = next_move(game)
        sent = statements_of(
            lambda game=game, users=users, seat=seat, action=action: game_action_submit(
                game_id=game.pk,
                user=users[seat],
                action=action,
                expected_version=game.version,
                key=key(),
            )
        )
        counts.append(len(sent))
        assert len(sent) <= MAX_STATEMENTS_PER_ACTION, "\n".join(sent)
    assert counts[0] == counts[1]


def test_passing_the_turn_costs_at_most_five_statements_with_the_notices(
    make_game: GameMaker,
) -> None:
    game, users = make_game(3, seed=6)
    end_barbarian = {"type": "end_turn", "hero": "barbarian"}
    end_dwarf = {"type": "end_turn", "hero": "dwarf"}  # the elf's player is told: seat 3

    sent = statements_of(
        lambda: game_action_submit(
            game_id=game.pk, user=users[2], action=end_barbarian, expected_version=0, key=key()
        )
    )
    assert len(sent) <= MAX_STATEMENTS_PER_ACTION
    sent = statements_in_transaction(
        lambda: game_action_submit(
            game_id=game.pk, user=users[2], action=end_dwarf, expected_version=1, key=key()
        )
    )
    assert any("notifications_" in sql for sql in sent), "the next player is told at once"
    assert len(sent) <= MAX_STATEMENTS_PER_ACTION, "\n".join(sent)


def test_a_replayed_key_costs_the_lock_and_one_read_of_its_log_rows(
    make_game: GameMaker,
) -> None:
    game, users = make_game(3, seed=6)
    sent_key = key()
    end_barbarian = {"type": "end_turn", "hero": "barbarian"}

    def submit() -> Any:
        return game_action_submit(
            game_id=game.pk, user=users[2], action=end_barbarian, expected_version=0, key=sent_key
        )

    first = submit()
    sent = statements_of(submit)
    assert len(sent) <= 2, "\n".join(sent)
    assert submit().response == first.response


def test_an_api_action_with_a_token_costs_the_same_statements(make_game: GameMaker) -> None:
    game, users = make_game(2, seed=5)
    play(game, 3)
    seat, _ = next_move(game)
    bot = Client(HTTP_AUTHORIZATION=f"Bearer {token_issue(user=users[seat])}")
    bot.get(f"/api/games/{game.pk}/view")  # the token is looked up (and cached) once

    seat, action = next_move(game)
    before = game.version
    body = {"action": action, "expected_version": before, "idempotency_key": key()}
    sent = statements_of(
        lambda: bot.post(f"/api/games/{game.pk}/actions", body, content_type="application/json")
    )

    assert len(sent) <= MAX_STATEMENTS_PER_ACTION, "\n".join(sent)
    game.refresh_from_db()
    assert game.version == before + 1


def test_the_view_and_a_page_of_events_cost_the_same_after_10000_events(
    make_game: GameMaker,
) -> None:
    short, users_short = make_game(2, seed=6)
    long, users_long = make_game(2, seed=6)
    play(short, 3)
    play(long, 3)
    fast_forward(long, 10_000)

    views, pages = [], []
    for game, users in ((short, users_short), (long, users_long)):
        client = Client()
        client.force_login(users[1])
        client.get(f"/api/games/{game.pk}/view")  # the session, looked up once
        views.append(len(statements_of(lambda g=game, c=client: c.get(f"/api/games/{g.pk}/view"))))
        for after in (0, int(game.state["seq"]) - 50):
            pages.append(
                len(
                    statements_of(
                        lambda g=game, u=users, a=after: game_events(
                            game_id=g.pk, user=u[1], after=a, limit=20
                        )
                    )
                )
            )
    assert views[0] == views[1]
    assert len(set(pages)) == 1 and pages[0] <= 2


def test_event_pages_are_found_through_the_index_not_the_json(make_game: GameMaker) -> None:
    game, users = make_game(2, seed=6)
    sent = statements_of(lambda: game_events(game_id=game.pk, user=users[1], after=3, limit=5))
    page_query = sent[-1]
    assert "event_seq" in page_query and "LIMIT" in page_query.upper()
    assert "payload" not in page_query.split("WHERE", 1)[1]


def test_a_page_skips_what_the_seat_may_not_see_and_is_still_full(make_game: GameMaker) -> None:
    game, users = make_game(2, seed=6)
    fast_forward(game, 100, zargon_only_every=2)
    game.refresh_from_db()
    start = game.state["seq"] - 100

    zargon_page = game_events(game_id=game.pk, user=users[1], after=start, limit=20)
    hero_page = game_events(game_id=game.pk, user=users[2], after=start, limit=20)
    hero_before = game_events(game_id=game.pk, user=users[2], before=start + 60, limit=20)

    assert [e["seq"] for e in zargon_page] == list(range(start + 1, start + 21))
    assert [e["seq"] for e in hero_page] == list(range(start + 2, start + 41, 2))
    assert [e["seq"] for e in hero_before] == list(range(start + 20, start + 59, 2))
