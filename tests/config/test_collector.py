"""A web process freezes what it loaded at startup out of the garbage collector's passes and
collects its young objects less often (config/collector.py)."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

READ_THE_COLLECTOR = """
import gc, json, sys
import config.asgi
print(json.dumps({"frozen": gc.get_freeze_count(), "young": gc.get_threshold()[0],
                  "views_loaded": "apps.play.views" in sys.modules}))
"""


def test_a_web_process_freezes_its_startup_objects_views_included() -> None:
    env = {**os.environ, "DJANGO_DEV": "1", "DJANGO_SETTINGS_MODULE": "config.settings"}
    done = subprocess.run(
        [sys.executable, "-c", READ_THE_COLLECTOR],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    collector = json.loads(done.stdout.strip().splitlines()[-1])

    assert collector["frozen"] > 50_000  # Django, the apps, the engines, the URL patterns
    assert collector["young"] == 10_000
    assert collector["views_loaded"] is True
