"""The browser client that ``darkempire serve`` serves at its root: plain HTML, CSS and ES modules in
``darkempire/web/static/``, no build step and nothing fetched from elsewhere, so ``pip install`` alone gives a
page that works offline.

The page talks to the server only through the lobby's JSON routes and the game protocol
(:mod:`darkempire.server.protocol`), as any other client would: it holds a seat's credential and sees what that
seat's prompts and events carry, nothing more. :doc:`/web-client` walks through its code.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["static_directory"]


def static_directory() -> Path:
    """The folder of the page's files (``index.html`` and the modules it imports)."""
    return Path(__file__).parent / "static"
