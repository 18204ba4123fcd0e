"""`python -m apps.games.heroquest.engine.questfile [--show] PATH|SLUG...`: each file's problems."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from apps.games.heroquest.engine import questfile
from apps.games.heroquest.engine.questfile.render import MAP_LEGEND, render_map


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m apps.games.heroquest.engine.questfile PATH...`: OK or the problems."""
    args = list(sys.argv[1:] if argv is None else argv)
    show = "--show" in args
    args = [a for a in args if a != "--show"]
    if not args:
        print(
            "usage: python -m apps.games.heroquest.engine.questfile [--show] QUEST.yaml|SLUG [...]",
            file=sys.stderr,
        )
        return 2
    failed = False
    for arg in args:
        path = questfile.quest_path(arg)
        problems = questfile.validate_quest_file(path)
        if problems:
            failed = True
            print(f"{path}: {len(problems)} problem{'s' if len(problems) != 1 else ''}")
            for problem in problems:
                print(f"  {problem}")
        else:
            print(f"{path}: OK")
            if show:
                print(render_map(questfile.parse_quest_file(path)))
                print(MAP_LEGEND)
    return 1 if failed else 0
