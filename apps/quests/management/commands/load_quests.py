from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from apps.quests.services import quest_sync_shipped


class Command(BaseCommand):
    help = "Load the shipped quest files (apps/rules/quests/*.yaml) into the database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--overwrite-edits",
            action="store_true",
            help="Replace quests an admin has edited with the shipped file.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        for definition in quest_sync_shipped(overwrite_edits=options["overwrite_edits"]):
            self.stdout.write(f"{definition.slug}: {definition.name} ({definition.origin})")
