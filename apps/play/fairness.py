"""Provably fair dice: the seed's commitment, published at launch and opened at the end.

At launch the site draws a 256-bit random salt and tells every seat (in the log, and on the game
page) `sha256("<salt hex>:<seed>")`. The salt makes the hash unguessable: without it the 63-bit
seed could be brute-forced from its hash, and with the seed anyone could read the treasure deck.
Once the quest is over the salt and the seed are shown; anyone can then hash them again and walk
the dice stream from the seed (static/js/fairness.js does both in the browser).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

SALT_BYTES = 32  # 256 bits of secret randomness in what is hashed


def new_salt() -> str:
    return secrets.token_hex(SALT_BYTES)


def seed_commitment(*, seed: int, salt: str) -> str:
    """The SHA-256 (hex) of "<salt>:<seed>", e.g. `printf '%s' "$salt:$seed" | sha256sum`."""
    return hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()


@dataclass(frozen=True)
class Fairness:
    """What a reader may know of a game's seed: the commitment always, the rest after the end."""

    commitment: str  # "" for a game launched before commitments
    revealed: bool
    seed: int | None = None
    salt: str | None = None

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {"commitment": self.commitment, "revealed": self.revealed}
        if self.revealed:
            out |= {"seed": str(self.seed), "salt": self.salt}
        return out
