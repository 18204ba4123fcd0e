"""Requests the site makes to addresses its users gave it (chat webhooks, push endpoints).

Such an address must not let a user reach what only the server can (SSRF): our own Redis, a
cloud's metadata service, the LAN. Unless `settings.OUTBOUND_ALLOW_PRIVATE` (tests, with their
server on 127.0.0.1), an address must be https and every address its host resolves to must be
public (not private, loopback, link-local, reserved or multicast). It is checked when the user
gives it and again before each request (the name may resolve elsewhere by then), and requests
never follow redirects. What remains is a DNS answer changing between the check and the
connection; a deployment that wants to close that too sends these requests through an egress
proxy that refuses private ranges.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from django.conf import settings


class UnsafeAddress(ValueError):
    """The address may not be requested; the message says why, in a user's words."""


def _public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    return ip.is_global and not ip.is_multicast


def outbound_url_check(url: str, *, resolve: bool = True) -> str:
    """`url` if the site may request it, else UnsafeAddress (see the module's docstring)."""
    url = url.strip()
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise UnsafeAddress("That is not a web address.") from None
    allow_private = settings.OUTBOUND_ALLOW_PRIVATE
    schemes = ("https", "http") if allow_private else ("https",)
    if parts.scheme not in schemes or not parts.hostname:
        raise UnsafeAddress("The address must start with https://.")
    if parts.username or parts.password:
        raise UnsafeAddress("The address may not carry a user name or password.")
    if allow_private or not resolve:
        return url
    try:
        found = socket.getaddrinfo(parts.hostname, port or 443, proto=socket.IPPROTO_TCP)
    except OSError:
        raise UnsafeAddress(f"{parts.hostname} cannot be found.") from None
    if not found or not all(_public(str(info[4][0])) for info in found):
        raise UnsafeAddress(f"{parts.hostname} is not a public address.")
    return url
