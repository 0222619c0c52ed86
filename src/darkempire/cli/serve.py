"""``darkempire serve``: run the game server (:mod:`darkempire.server`) on uvicorn.

``darkempire serve [--host 127.0.0.1] [--port 8000] [--db PATH]`` serves the lobby and the games on
``http://HOST:PORT/api/``. The matches are kept in the SQLite file ``PATH`` (default: ``server.sqlite3`` in
the user's data folder, :func:`default_database`), or in PostgreSQL with ``--db postgresql://...``
(:mod:`darkempire.server.postgres`), which several server processes can share. The server needs the ``server`` extra
(``pip install -e ".[server]"``); without it the command says so and exits with status 1.

It binds its address before it prints where it serves: a port in use ends the command with one line and
status 1; a bad ``--port``, ``--host`` or ``--db`` is a usage error (status 2). ``--create-rate``,
``--per-address`` and ``--allow-origin`` set the limits of :func:`darkempire.server.asgi.create_app`.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import os
import socket
import sys
from pathlib import Path

from rich.console import Console

from darkempire.server.protocol import RATE_PER_SECOND
from darkempire.server.refusals import StorageError
from darkempire.server.storage import SQLiteStorage, Storage
from tablekit.cli import CommandExit, UsageError

__all__ = [
    "CREATE_RATE",
    "EXTRA_MISSING",
    "FULL_COLLECTION_EVERY",
    "WS_MAX_BYTES",
    "add_arguments",
    "command",
    "default_database",
    "run",
]

#: What ``serve`` says when the ``server`` extra is not installed.
EXTRA_MISSING = 'darkempire serve needs the server extra: pip install -e ".[server]" (Starlette and uvicorn)'
#: The largest WebSocket frame uvicorn reads at all (larger ones close the connection); frames above the
#: protocol's own cap but below this one get an error message instead.
WS_MAX_BYTES = 1 << 20
#: The matches one client address may create per second by default (ten at once).
CREATE_RATE = 0.5


def default_database() -> Path:
    """``server.sqlite3`` in the user's data folder: ``$XDG_DATA_HOME/darkempire`` (default
    ``~/.local/share/darkempire``), or ``%LOCALAPPDATA%\\darkempire`` on Windows."""
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        base = Path(os.environ["LOCALAPPDATA"])
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "darkempire" / "server.sqlite3"


def add_arguments(sub: argparse.ArgumentParser) -> None:
    """``serve``'s options."""
    sub.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this machine only)")
    sub.add_argument("--port", type=_port, default=8000, help="the port, 0 to 65535 (default 8000; 0: any free one)")
    sub.add_argument(
        "--rate", type=float, default=RATE_PER_SECOND,
        help=f"the messages a game connection may send per second, twice as many at once (default {RATE_PER_SECOND:g})",
    )  # fmt: skip
    sub.add_argument(
        "--create-rate", type=float, default=CREATE_RATE, metavar="PER_SECOND",
        help=f"the matches one client address may create per second on average (default {CREATE_RATE:g}); up to ten, "
        "or two seconds' worth if that is more, at once",
    )  # fmt: skip
    sub.add_argument(
        "--per-address", type=int, default=16, metavar="N",
        help="the game connections one client address may have open at once (default 16)",
    )  # fmt: skip
    sub.add_argument(
        "--allow-origin", action="append", default=[], metavar="ORIGIN",
        help="a web page origin (https://host[:port]) allowed to POST to the lobby and open game sockets, besides "
        "the server's own and this machine's; repeat it for more, * for any",
    )  # fmt: skip
    sub.add_argument(
        "--db", metavar="PATH|URL",
        help=f"the SQLite file of the matches (default {default_database()}), or a postgresql:// URL for several processes",
    )  # fmt: skip


def _port(text: str) -> int:
    """``--port``'s value: a TCP port number (argparse reports anything else as a usage error)."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a port is a number, not {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {port}")
    return port


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` (uvicorn listens on it): bound before the banner names the address, so
    that the banner is never printed for a server that cannot start.

    :raises UsageError: ``host`` is no address of this machine's resolver.
    :raises CommandExit: (status 1) the address cannot be bound (in use, not this machine's, not allowed).
    """
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _, address = found[0]
    except (OSError, UnicodeError) as error:
        raise UsageError(f"--host: no address {host!r} ({getattr(error, 'strerror', None) or error})") from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as error:
        sock.close()
        raise CommandExit(1, f"darkempire serve cannot listen on {host}:{port}: {error.strerror or error}") from None
    return sock


def _missing_extra() -> bool:
    return any(importlib.util.find_spec(name) is None for name in ("starlette", "uvicorn"))


def _storage(db: str | None) -> tuple[Storage, str]:
    """The storage ``--db`` names, and how to name it (a PostgreSQL URL without its password)."""
    if db is not None and db.startswith(("postgresql://", "postgres://")):
        if importlib.util.find_spec("psycopg") is None:
            raise CommandExit(1, 'a PostgreSQL --db needs psycopg: pip install -e ".[server]"')
        from darkempire.server.postgres import PostgresStorage

        return PostgresStorage(db), "PostgreSQL " + db.rpartition("@")[2]
    path = Path(db) if db else default_database()
    return SQLiteStorage(path), str(path)


def run(out: Console, args: argparse.Namespace) -> int:
    """Serve until interrupted.

    :raises CommandExit: (status 1) without the ``server`` extra, or when the address cannot be bound.
    :raises UsageError: a ``--db`` that cannot be opened, a ``--host`` that names no address.
    """
    if not args.rate > 0:
        raise UsageError(f"--rate must be above 0, not {args.rate}")
    if not args.create_rate > 0:
        raise UsageError(f"--create-rate must be above 0, not {args.create_rate}")
    if args.per_address < 1:
        raise UsageError(f"--per-address must be 1 or more, not {args.per_address}")
    if _missing_extra():
        raise CommandExit(1, EXTRA_MISSING)
    import uvicorn

    from darkempire.server.asgi import CREATE_BURST, create_app
    from darkempire.server.origins import OriginPolicy

    try:
        storage, where = _storage(args.db)
    except (StorageError, OSError) as error:
        raise UsageError(f"--db: {getattr(error, 'message', None) or error}") from None
    try:
        sock = _listen(args.host, args.port)
    except BaseException:
        storage.close()
        raise
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if sock.family == socket.AF_INET6 else host
    app = create_app(
        storage,
        rate=args.rate,
        burst=max(1, int(2 * args.rate)),
        create_rate=args.create_rate,
        create_burst=max(CREATE_BURST, int(2 * args.create_rate)),
        per_address=args.per_address,
        origins=OriginPolicy(args.allow_origin),
    )
    config = uvicorn.Config(app, ws="websockets-sansio", ws_max_size=WS_MAX_BYTES, log_level="warning")
    config.load()  # uvicorn imports its protocols here: before the collector is set, so that they are frozen too
    _set_collector()
    out.print(f"darkempire server on http://{shown}:{port}/ (the page; the API under /api/), matches in {where}", markup=False, highlight=False)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
        storage.close()
    return 0


#: Full collections of the garbage collector wait for this many collections of its middle generation (Python's
#: default: 10), besides the oldest generation having grown by a quarter (which Python always waits for).
FULL_COLLECTION_EVERY = 100


def _set_collector() -> None:
    """Set the garbage collector for a long-running server: a full collection stops the whole server for as
    long as it walks every object the server holds (over 100 ms with 200 matches on a 2-core machine), and
    they came every ten seconds or so under the load test, the tail of its move-to-broadcast latencies.

    What was loaded to start (modules, the app: some 40,000 objects) is frozen, as it stays for the life of
    the process: full collections no longer walk it. And they come ten times less often
    (:data:`FULL_COLLECTION_EVERY`). Young objects are collected as before. A match's states and events are
    freed by their reference counts, not by the collector; what waits longer to be freed is the garbage in
    cycles that grew old first, such as a closed connection's tasks (some kilobytes each).
    """
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)


def command(args: argparse.Namespace, out: Console) -> int:
    """The ``serve`` subcommand as :mod:`darkempire.cli.app` lists it: :func:`run`."""
    return run(out, args)
