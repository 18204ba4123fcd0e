from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from apps.quests.services import quest_sync_shipped


class Command(BaseCommand):
    help = (
        "Load the shipped quest files (the wing's quests/*.yaml) into the database. Quests an "
        "admin has uploaded, edited or restored are skipped (and listed) unless --overwrite-edits; "
        "restoring a quest's shipped revision in the workshop gives it back to its file."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--overwrite-edits",
            action="store_true",
            help="Replace quests an admin has edited with the shipped file.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        skipped = 0
        for result in quest_sync_shipped(overwrite_edits=options["overwrite_edits"]):
            definition = result.definition
            if result.action == "skipped":
                skipped += 1
                self.stdout.write(
                    self.style.WARNING(
                        f"{definition.slug}: {definition.name} (skipped: edited by an admin; "
                        "the shipped file was not loaded)"
                    )
                )
            else:
                self.stdout.write(f"{definition.slug}: {definition.name} ({definition.origin})")
        if skipped:
            self.stdout.write(
                f"{skipped} quest(s) kept as edited in the admin; "
                "--overwrite-edits replaces them with the shipped files."
            )
