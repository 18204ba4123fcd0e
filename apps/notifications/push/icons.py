"""The site's app icons, drawn in code: an ember-gold vault door on the site's dark stone.

SVG for browsers that take it, PNG (192 and 512 pixels, what install prompts ask for) written
with zlib: no image library, no file fetched from anywhere.
"""

from __future__ import annotations

import functools
import struct
import zlib

BACKGROUND = (0x1B, 0x17, 0x14)
EMBER = (0xE0, 0x9A, 0x3A)
DARK = (0x3A, 0x2A, 0x1E)
SIZES = (192, 512)

ICON_SVG = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
<rect width="100" height="100" rx="0" fill="#1b1714"/>
<path d="M24 86V46a26 26 0 0 1 52 0v40z" fill="#e09a3a"/>
<path d="M32 86V48a18 18 0 0 1 36 0v38z" fill="#3a2a1e"/>
<circle cx="58" cy="64" r="4" fill="#e09a3a"/>
</svg>
"""


def _colour(x: float, y: float) -> tuple[int, int, int]:
    """The colour at (x, y) in a 100 x 100 square (the SVG's shapes, sampled)."""

    def arch(half: float, bottom: float) -> bool:
        if abs(x - 50) > half or y > bottom:
            return False
        centre_y = 46 if half == 26 else 48
        return y >= centre_y or (x - 50) ** 2 + (y - centre_y) ** 2 <= half**2

    if (x - 58) ** 2 + (y - 64) ** 2 <= 16:
        return EMBER
    if arch(18, 86):
        return DARK
    if arch(26, 86):
        return EMBER
    return BACKGROUND


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data))
        + kind
        + data
        + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    )


@functools.cache
def icon_png(size: int) -> bytes:
    """The icon as a `size` x `size` PNG (RGB, 8 bits)."""
    scale = 100 / size
    rows = []
    for j in range(size):
        row = bytearray(b"\x00")  # filter: none
        for i in range(size):
            row += bytes(_colour((i + 0.5) * scale, (j + 0.5) * scale))
        rows.append(bytes(row))
    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + _chunk(b"IEND", b"")
    )
