from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.games.heroquest.engine.questfile import quest_path, validate_quest_file


class Command(BaseCommand):
    help = (
        "Check quest files: schema, map, doors, traps, monsters, and that the villain is reachable."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("quests", nargs="+", help="A quest file path or a shipped quest name.")

    def handle(self, *args: Any, **options: Any) -> None:
        failed = 0
        for name in options["quests"]:
            path = quest_path(name)
            problems = validate_quest_file(path)
            if not problems:
                self.stdout.write(self.style.SUCCESS(f"{path}: OK"))
                continue
            failed += 1
            self.stdout.write(self.style.ERROR(f"{path}: {len(problems)} problem(s)"))
            for problem in problems:
                self.stdout.write(f"  {problem}")
        if failed:
            raise CommandError(f"{failed} quest file(s) have problems.")
