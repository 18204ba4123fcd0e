"""The load test's data, made through the real services in the served code's own process.

Run by `tests/load/loadtest.py` as `python -c` in the served checkout (so it also works against
an older commit for a before/after comparison): it reads a JSON request on stdin and prints a JSON
answer (tokens, session keys, game ids, statement counts) as its last line.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from typing import Any

SCRIPT = r"""
import json, sys, time
import django
django.setup()
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from apps.games.heroquest import engine as rules
from apps.accounts.models import User
from apps.accounts.services import token_issue
from apps.play.models import Game
from apps.play import services
from apps.quests.models import QuestDefinition
from apps.rooms import services as rooms

request = json.loads(sys.stdin.read())
GAME = request.get("game", "heroquest")
quest = QuestDefinition.objects.get(slug="ashen_vault")
out = {"games": []}
count = [0]


def user():
    count[0] += 1
    name = f"load{count[0]}"
    return User.objects.create_user(username=name, email=f"{name}@example.com", password=None)


def session_for(u):
    s = SessionStore()
    s[SESSION_KEY] = str(u.pk)
    s[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    s[HASH_SESSION_KEY] = u.get_session_auth_hash()
    s.create()
    return s.session_key


def game(seats, seed, options=None):
    users = {n: user() for n in range(1, seats + 1)}
    kind = {} if GAME == "heroquest" else {"game": GAME}  # an older checkout: HeroQuest's only
    if options:
        kind["options"] = options
    room = rooms.room_create(host=users[1], name=f"load {seed}", seat_count=seats, **kind)
    for n, u in users.items():
        rooms.room_seat_take(room_id=room.pk, user=u, number=n)
    g = services.game_launch(room_id=room.pk, user=users[1], seed=seed)
    return g, users



def state_of(g):
    g.refresh_from_db()
    return rules.State.from_json(g.state, rules.load_quest(g.quest_slug))


def to_move_and_legal(g):
    # The seat to move (None: the game is over), its legal actions and how far the log is:
    # through HeroQuest's engine, as older checkouts allow, or through any game's face.
    if GAME == "heroquest":
        s = state_of(g)
        seat = rules.seats_to_move(s)[0]
        return seat, [rules.action_to_json(a) for a in rules.legal_actions(s, seat)], s.seq
    from apps.play.selectors import game_face_of, game_state
    g.refresh_from_db()
    face, s = game_face_of(g), game_state(game=g)
    seats = face.seats_to_move(s)
    if not seats:
        return None, [], g.last_seq
    return seats[0], face.legal_actions(s, seats[0]), g.last_seq


ENDS = ("end_turn", "end_phase", "end_activation")


class WouldEnd(Exception):
    pass


def end_turns_until(g, events):
    # The seats end their turns (HeroQuest's Zargon the phase): a game whose log grows by a few
    # events per action. HeroQuest's never ends so; Legend of Zagor's ends after its last round,
    # and stops one action before it, still in play for the statements counted on it.
    while True:
        seat, legal, seq = to_move_and_legal(g)
        if seat is None or seq >= events:
            return
        ends = [a for a in legal if a["type"] in ENDS]
        action = ends[0] if ends else legal[0]
        try:
            with transaction.atomic():
                services.quest_apply_action(game_id=g.pk, seat=seat, action=action,
                                        expected_version=g.version, key=f"e{g.version}")
                g.refresh_from_db()
                if getattr(g, "outcome", None):
                    raise WouldEnd
        except WouldEnd:
            g.refresh_from_db()
            return


def statements(g, users):
    seat, legal, _ = to_move_and_legal(g)
    keep = [a for a in legal if a["type"] not in ENDS]
    action = (keep or legal)[0]
    with CaptureQueriesContext(connection) as q:
        services.game_action_submit(game_id=g.pk, user=users[seat], action=action,
                                    expected_version=g.version, key=f"count{g.version}")
    sent = [x["sql"] for x in q.captured_queries]
    return len([x for x in sent if x.split(None, 1)[0].upper() not in ("BEGIN", "COMMIT")])


for n in range(request["games"]):
    g, users = game(request["seats"], seed=1000 + n)
    out["games"].append({
        "game": g.pk, "room": g.room_id,
        "tokens": {str(s): token_issue(user=u) for s, u in users.items()},
        "watcher_session": session_for(users[1]),
    })

t0 = time.monotonic()
short, short_users = game(request["seats"], seed=7)
end_turns_until(short, 10)
# Legend of Zagor's longest game: the most rounds a room may ask for (HeroQuest's never ends).
long_options = None if GAME == "heroquest" else {"round_limit": 200}
long, long_users = game(request["seats"], seed=7, options=long_options)
end_turns_until(long, request["long_events"])
out["reconnect"] = {}
for name, g, users in (("short", short, short_users), ("long", long, long_users)):
    g.refresh_from_db()
    out["reconnect"][name] = {
        "game": g.pk, "events": g.events.filter(kind="event").count(), "version": g.version,
        "session": session_for(users[1]), "token": token_issue(user=users[1]),
        "statements": statements(g, users),
    }
out["setup_seconds"] = round(time.monotonic() - t0, 1)
print(json.dumps(out))
"""


def run_setup(python: str, cwd: str, env: dict[str, str], request: dict[str, Any]) -> Any:
    started = time.monotonic()
    done = subprocess.run(
        [python, "-c", SCRIPT],
        cwd=cwd,
        env=env,
        input=json.dumps(request),
        capture_output=True,
        text=True,
        timeout=900,
    )
    if done.returncode != 0:
        sys.stderr.write(done.stderr[-4000:])
        raise SystemExit(f"setup failed ({done.returncode})")
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    answer["setup_total_seconds"] = round(time.monotonic() - started, 1)
    return answer
