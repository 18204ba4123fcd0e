"""`manage.py vapid_keys`: make the site's web push (VAPID) keys once; say where they are.

`make run` calls it before serving: a first start writes `var/vapid.json`, later ones keep it.
In production set `VAPID_PRIVATE_KEY` and `VAPID_PUBLIC_KEY` instead (`--print` makes a pair to
paste into the environment without writing any file).
"""

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from apps.notifications.push.keys import new_key_pair, vapid_keys_ensure


class Command(BaseCommand):
    help = "Make the web push (VAPID) keys if there are none; print the public key."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--print",
            action="store_true",
            help="Print a new pair as VAPID_PRIVATE_KEY=... VAPID_PUBLIC_KEY=... (writes nothing).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["print"]:
            private, public = new_key_pair()
            self.stdout.write(f"VAPID_PRIVATE_KEY={private}\nVAPID_PUBLIC_KEY={public}")
            return
        keys, made = vapid_keys_ensure()
        verb = "Made" if made else "Using"
        self.stdout.write(
            f"{verb} the web push keys from {keys.source}; public key {keys.public_key}"
        )
