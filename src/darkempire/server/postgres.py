"""PostgreSQL storage, for several server processes on one database: ``darkempire serve --db postgresql://...``.

:class:`PostgresStorage` is the :class:`~darkempire.server.storage.Storage` of
:class:`~darkempire.server.storage.SQLiteStorage` on PostgreSQL (with psycopg 3, the ``server`` extra), and a
fan-out between processes: every stored choice, and every seat freed, sends ``NOTIFY darkempire_choices`` with
its match's id, in the transaction that stores it, and :meth:`PostgresStorage.listen` hears the other processes'
notices, so that a match's connections on every process are told of every move, and those of a seat left
through another process are closed (a credential is checked against the database by every process). Two servers behind one address then serve the same
match: a move sent to either is judged against the stored choices (a stale process loses the race for the
choice's position, catches up and judges again).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from typing import Any, Final

import psycopg
from psycopg import errors as pg_errors

from darkempire.server.refusals import ChoiceConflictError, StorageError
from darkempire.server.storage import SeatHolder, StoredChoice, StoredMatch, match_from_row

__all__ = ["CHANNEL", "PostgresStorage"]

#: The channel of the fan-out: each notification's payload is the id of a match with a new choice or a seat freed.
CHANNEL: Final = "darkempire_choices"

_SCHEMA: Final = [
    """CREATE TABLE IF NOT EXISTS matches (
        match_id TEXT PRIMARY KEY, players INTEGER NOT NULL, theme TEXT NOT NULL, seed BIGINT NOT NULL,
        bots TEXT NOT NULL, created DOUBLE PRECISION NOT NULL, time_limit DOUBLE PRECISION)""",
    """CREATE TABLE IF NOT EXISTS seats (
        match_id TEXT NOT NULL REFERENCES matches(match_id), seat INTEGER NOT NULL, name TEXT NOT NULL,
        credential_hash TEXT NOT NULL, PRIMARY KEY (match_id, seat))""",
    """CREATE TABLE IF NOT EXISTS choices (
        match_id TEXT NOT NULL REFERENCES matches(match_id), idx INTEGER NOT NULL, seat INTEGER NOT NULL,
        action TEXT NOT NULL, PRIMARY KEY (match_id, idx))""",
]


def _connect(url: str) -> psycopg.Connection[Any]:
    try:
        return psycopg.connect(url, autocommit=True)
    except psycopg.Error as error:
        raise StorageError(f"cannot connect to PostgreSQL: {type(error).__name__}") from None  # the URL may hold a password


class PostgresStorage:
    """Matches in a PostgreSQL database at ``url`` (``postgresql://user@host:port/db``); the tables are created
    if missing. One connection, used under a lock; :meth:`listen` opens its own."""

    def __init__(self, url: str) -> None:
        self._url = url
        self._db = _connect(url)
        self._lock = threading.Lock()
        with self._lock:
            with self._db.transaction():
                self._db.execute("SELECT pg_advisory_xact_lock(20261202)")  # two processes creating the tables at once
                for statement in _SCHEMA:
                    self._db.execute(statement)

    def _run(self, sql: str, parameters: Sequence[Any] = ()) -> list[Any]:
        with self._lock:
            try:
                cursor = self._db.execute(sql, parameters)
                return cursor.fetchall() if cursor.description is not None else []
            except pg_errors.UniqueViolation:
                raise
            except psycopg.Error as error:
                raise StorageError(f"PostgreSQL failed: {type(error).__name__}: {error}") from None

    def create_match(self, match: StoredMatch) -> None:
        """Store a new match."""
        row = (match.match_id, match.players, match.theme, match.seed, json.dumps(list(match.bots)), match.created, match.time_limit)
        self._run("INSERT INTO matches VALUES (%s, %s, %s, %s, %s, %s, %s)", row)

    def matches(self) -> list[StoredMatch]:
        """Every stored match, oldest first."""
        return [match_from_row(r) for r in self._run("SELECT * FROM matches ORDER BY created, match_id")]

    def match(self, match_id: str) -> StoredMatch | None:
        """The match with this id, if stored."""
        rows = self._run("SELECT * FROM matches WHERE match_id = %s", (match_id,))
        return match_from_row(rows[0]) if rows else None

    def seats(self, match_id: str) -> list[SeatHolder]:
        """The held seats of a match, by seat."""
        rows = self._run("SELECT seat, name, credential_hash FROM seats WHERE match_id = %s ORDER BY seat", (match_id,))
        return [SeatHolder(int(r[0]), str(r[1]), str(r[2])) for r in rows]

    def hold_seat(self, match_id: str, holder: SeatHolder) -> bool:
        """Give a free seat to ``holder``; ``False`` if it is held."""
        rows = self._run(
            "INSERT INTO seats VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING RETURNING seat",
            (match_id, holder.seat, holder.name, holder.credential_hash),
        )
        return bool(rows)

    def free_seat(self, match_id: str, seat: int) -> None:
        """Free a held seat, and notify the other processes: they close the seat's connections."""
        try:
            with self._lock, self._db.transaction():
                self._db.execute("DELETE FROM seats WHERE match_id = %s AND seat = %s", (match_id, seat))
                self._db.execute("SELECT pg_notify(%s, %s)", (CHANNEL, match_id))
        except psycopg.Error as error:
            raise StorageError(f"PostgreSQL failed: {type(error).__name__}: {error}") from None

    def append_choice(self, match_id: str, choice: StoredChoice) -> None:
        """Write an accepted choice and notify the other processes, in one committed transaction."""
        try:
            with self._lock, self._db.transaction():
                self._db.execute("INSERT INTO choices VALUES (%s, %s, %s, %s)", (match_id, choice.index, choice.seat, choice.action))
                self._db.execute("SELECT pg_notify(%s, %s)", (CHANNEL, match_id))
        except pg_errors.UniqueViolation:
            raise ChoiceConflictError(f"match {match_id} already has a choice at position {choice.index}") from None
        except psycopg.Error as error:
            raise StorageError(f"PostgreSQL failed: {type(error).__name__}: {error}") from None

    def choices(self, match_id: str, since: int = 0) -> list[StoredChoice]:
        """The match's choices from index ``since`` on, in order."""
        rows = self._run(
            "SELECT idx, seat, action FROM choices WHERE match_id = %s AND idx >= %s ORDER BY idx", (match_id, since)
        )
        return [StoredChoice(int(r[0]), int(r[1]), str(r[2])) for r in rows]

    def listen(self, notify: Callable[[str], None]) -> Callable[[], None]:
        """Call ``notify(match_id)`` (in a thread of its own) for every choice any process stores; return the
        function that stops listening."""
        listener = _connect(self._url)
        listener.execute(f"LISTEN {CHANNEL}")
        stop = threading.Event()

        def run() -> None:
            while not stop.is_set():
                for note in listener.notifies(timeout=0.2):
                    notify(note.payload)

        thread = threading.Thread(target=run, name="darkempire-listen", daemon=True)
        thread.start()

        def stopping() -> None:
            stop.set()
            thread.join(5)
            listener.close()

        return stopping

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._db.close()
