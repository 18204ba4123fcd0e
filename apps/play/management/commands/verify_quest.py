"""`manage.py verify_quest <game_id>`: replay a game's log from its seed and compare."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.play.errors import GameNotFound
from apps.play.verify import game_verify


class Command(BaseCommand):
    help = (
        "Replay a game's accepted actions from its seed and compare the events and the final "
        "state with the stored ones. Prints OK or the first difference; exit code 1 on mismatch."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_id", type=int)

    def handle(self, *args: Any, game_id: int, **options: Any) -> None:
        try:
            report = game_verify(game_id=game_id)
        except GameNotFound:
            raise CommandError(f"There is no game {game_id}.", returncode=2) from None
        if not report.ok:
            raise CommandError(f"game {game_id}: {report}", returncode=1)
        self.stdout.write(self.style.SUCCESS(f"game {game_id}: {report}"))
