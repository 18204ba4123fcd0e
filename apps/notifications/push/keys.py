"""The site's VAPID key pair (RFC 8292): push services check that pushes come from us.

Production sets both halves in the environment (`VAPID_PRIVATE_KEY`: the raw 32-byte P-256
private key, base64url; `VAPID_PUBLIC_KEY`: its uncompressed public point, base64url, which the
browser's `pushManager.subscribe` takes). A development copy keeps them in `settings.VAPID_FILE`
(`var/vapid.json`), written once by `manage.py vapid_keys` (run by `make run`). Changing the
keys orphans every stored subscription: browsers must subscribe again.
"""

from __future__ import annotations

import base64
import json
import os
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings


@dataclass(frozen=True)
class VapidKeys:
    private_key: str  # base64url of the raw 32-byte secret
    public_key: str  # base64url of the uncompressed point (65 bytes)
    source: str  # "environment" or the file's path


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def new_key_pair() -> tuple[str, str]:
    """A fresh P-256 key pair as (private, public), base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(private), b64url(public)


def vapid_keys() -> VapidKeys | None:
    """The keys in force, or None (push is then off: the profile says so)."""
    private, public = settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY
    if private and public:
        return VapidKeys(private_key=private, public_key=public, source="environment")
    path = Path(settings.VAPID_FILE)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not data.get("private_key") or not data.get("public_key"):
        return None
    return VapidKeys(
        private_key=str(data["private_key"]), public_key=str(data["public_key"]), source=str(path)
    )


def vapid_keys_ensure() -> tuple[VapidKeys, bool]:
    """The keys in force, made and written to `settings.VAPID_FILE` if there are none yet
    (owner-only permissions); whether they were made now."""
    found = vapid_keys()
    if found is not None:
        return found, False
    private, public = new_key_pair()
    path = Path(settings.VAPID_FILE)
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        json.dump({"private_key": private, "public_key": public}, file)
    return VapidKeys(private_key=private, public_key=public, source=str(path)), True
