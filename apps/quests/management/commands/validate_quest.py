from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.games.registry import DEFAULT_GAME, UnknownGame, game_face


class Command(BaseCommand):
    help = (
        "Check scenario files with their game's own checks (for a quest: schema, map, doors, "
        "traps, figures, and that the villain is reachable)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "quests", nargs="+", help="A scenario file's path or a shipped scenario's slug."
        )
        parser.add_argument(
            "--game", default=DEFAULT_GAME, help="The game's slug (default: the site's first game)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            face = game_face(options["game"])
        except UnknownGame as exc:
            raise CommandError(str(exc)) from None
        shipped = {scenario.slug: scenario.source for scenario in face.scenarios()}
        failed = 0
        for name in options["quests"]:
            path = Path(name)
            if path.is_file():
                source, where, filename = path.read_text(encoding="utf-8"), str(path), path.name
            elif name in shipped:
                source, where, filename = shipped[name], f"{name}.yaml", f"{name}.yaml"
            else:
                raise CommandError(f"{name}: no such file, and {face.name} ships no such slug.")
            problems = face.scenario_problems(source, filename)
            if not problems:
                self.stdout.write(self.style.SUCCESS(f"{where}: OK"))
                continue
            failed += 1
            self.stdout.write(self.style.ERROR(f"{where}: {len(problems)} problem(s)"))
            for problem in problems:
                self.stdout.write(f"  {problem}")
        if failed:
            raise CommandError(f"{failed} quest file(s) have problems.")
