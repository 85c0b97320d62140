"""Which requests the server answers: a server on the loopback address only answers requests
addressed to a loopback name (no DNS rebinding: another site's name pointed at 127.0.0.1),
and a game's websocket only opens from the server's own page (no other site's page)."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit


def loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address) is reachable from this machine only."""
    name = host.strip().strip("[]").lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def host_name(host_header: str) -> str:
    """``127.0.0.1:8000`` -> ``127.0.0.1``; ``[::1]:8000`` -> ``::1``."""
    return urlsplit(f"//{host_header}").hostname or ""


def host_allowed(host_header: str | None, bound_host: str) -> bool:
    """A request's Host is fine: any when the server listens on the network (its owner chose
    to), a loopback name when it listens on the loopback address."""
    if not loopback(bound_host):
        return True
    return bool(host_header) and loopback(host_name(host_header or ""))


def same_origin(origin: str | None, host_header: str | None) -> bool:
    """The websocket was opened by a page of this server (a browser always sends Origin; a
    client without one is not a page of another site)."""
    if origin is None:
        return True
    parts = urlsplit(origin)
    return bool(host_header) and parts.netloc.lower() == (host_header or "").lower()
