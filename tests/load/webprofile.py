"""Where the web processes' time goes under load: py-spy on each, its samples sorted into layers.

`make loadtest LOADTEST_ARGS=--profile` samples every web process (py-spy, only the thread
holding the GIL: the time that costs the process its one core) for the flat-out run and prints
each layer's share of the samples. A sample counts for every layer on its stack ("inclusive"),
so the rows overlap: the middleware row holds the views that run inside it.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

# (layer, what a frame of it contains): the first matching frame's layer, for each layer.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("the ASGI server's HTTP (uvicorn, httptools)", ("uvicorn/protocols/http", "httptools")),
    ("websocket frames (uvicorn, websockets)", ("uvicorn/protocols/websockets", "websockets/")),
    ("Django's request handling and middleware", ("django/core/handlers",)),
    ("authentication (tokens, sessions)", ("token_authenticate", "contrib/auth/middleware")),
    ("the action view (POST .../actions)", ("api.py:", "actions (apps/play/api.py")),
    ("the game engine (apply, legal actions)", ("/engine/engine.py", "apps/games/zagor/engine.py")),
    ("seat views for sockets (found or built)", ("game_seat_view_for_socket", "_encoded (")),
    ("seat views built (engine and JSON)", ("seat_view_of_state",)),
    ("JSON: the state decoded and encoded", ("(json/", "json_text", "from_json", "to_json")),
    ("the ORM building SQL", ("django/db/models/sql/compiler",)),
    ("rows written with SQL made once (apps/core/rows.py)", ("apps/core/rows.py",)),
    ("psycopg (the database driver)", ("psycopg/",)),
    ("channels-redis and redis (pokes, receives, cache)", ("channels_redis/", "redis/")),
    ("the consumers", ("apps/play/consumers.py",)),
)


@dataclass
class Profile:
    samples: int
    layers: dict[str, float]  # layer: share of the samples, 0..1


def profile_start(pids: list[int], seconds: float, out_dir: Path) -> list[subprocess.Popen[bytes]]:
    """py-spy recording each of `pids` for `seconds`, in the background."""
    spy = str(Path(sys.executable).parent / "py-spy")
    recorders = []
    for pid in pids:
        command = [spy, "record", "--gil", "--nonblocking", "--rate", "100", "--format", "raw"]
        command += ["--duration", str(int(seconds)), "--pid", str(pid)]
        command += ["--output", str(out_dir / f"profile-{pid}.txt")]
        recorders.append(
            subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        )
    return recorders


def profile_collect(
    recorders: list[subprocess.Popen[bytes]], pids: list[int], out_dir: Path
) -> Profile | None:
    """The recordings' samples sorted into `LAYERS` (None if py-spy recorded nothing)."""
    for recorder in recorders:
        recorder.wait(timeout=120)
    counts: Counter[str] = Counter()
    total = 0
    for pid in pids:
        path = out_dir / f"profile-{pid}.txt"
        if not path.exists():
            continue
        for line in path.read_text().splitlines():
            stack, _, number = line.rpartition(" ")
            if not number.isdigit():
                continue
            total += int(number)
            for layer in layers_of(stack):
                counts[layer] += int(number)
    if not total:
        return None
    return Profile(total, {layer: counts[layer] / total for layer, _ in LAYERS})


def layers_of(stack: str) -> set[str]:
    """The layers a collapsed stack (`frame;frame;...`) passes through."""
    return {layer for layer, marks in LAYERS if any(mark in stack for mark in marks)}


def profile_report(profile: Profile | None) -> None:
    if profile is None:
        print("profile: py-spy recorded nothing (is ptrace allowed here?)")
        return
    print(f"where the web processes' time went ({profile.samples} samples, GIL held, inclusive):")
    for layer, share in profile.layers.items():
        print(f"  {share * 100:5.1f}%  {layer}")
