"""Which web pages may drive the server: the ``Origin`` check of lobby POSTs and game sockets.

A browser sends the ``Origin`` of the page that makes a request, and lets any page open a WebSocket or POST a
form to any address; only the server can refuse. Without the check a page on any site could, from a player's
browser, create matches, take seats, or play with a credential it has stolen from that page's own storage.
:class:`OriginPolicy` allows a request with no ``Origin`` (not made by a page: curl, a bot, another server), one
from the page's own site (its ``Origin`` names the ``Host`` asked for), one from a page on this machine
(``localhost``, ``127.0.0.1``, ``[::1]``, any port), and the origins given (``darkempire serve --allow-origin``;
``*`` allows every origin).

>>> policy = OriginPolicy(("https://play.example",))
>>> [policy.allows(origin, "game.example") for origin in (None, "https://play.example", "https://game.example",
...  "http://localhost:5173", "https://evil.example", "null", "http://127.0.0.1:80.evil.example")]
[True, True, True, True, False, False, False]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final
from urllib.parse import urlsplit

__all__ = ["LOOPBACK_HOSTS", "OriginPolicy"]

#: The host names of this machine, whose pages the default policy allows.
LOOPBACK_HOSTS: Final = frozenset({"localhost", "127.0.0.1", "[::1]", "::1"})


def _origin(text: str) -> str:
    """An origin as compared: lower case, without a trailing slash."""
    return text.strip().rstrip("/").lower()


class OriginPolicy:
    """The origins allowed besides the server's own and this machine's (``"*"``: every one).

    :param allowed: origins as a browser writes them, ``scheme://host[:port]``.
    """

    def __init__(self, allowed: Iterable[str] = ()) -> None:
        self._allowed = frozenset(_origin(origin) for origin in allowed)
        self._any = "*" in self._allowed

    def allows(self, origin: str | None, host: str | None) -> bool:
        """Whether a request with this ``Origin`` header (``None``: none) to this ``Host`` is allowed."""
        if origin is None or self._any:
            return True
        origin = _origin(origin)
        if origin in self._allowed:
            return True
        try:
            parts = urlsplit(origin)
            hostname, _ = parts.hostname, parts.port  # a port that is no number raises: "127.0.0.1:1.evil.example"
        except ValueError:
            return False
        if parts.scheme not in ("http", "https") or not hostname or "@" in parts.netloc or parts.path or parts.query:
            return False  # "null" (a sandboxed or file page), or no origin a browser writes
        if hostname in LOOPBACK_HOSTS or f"[{hostname}]" in LOOPBACK_HOSTS:
            return True
        return host is not None and parts.netloc == host.strip().lower()
