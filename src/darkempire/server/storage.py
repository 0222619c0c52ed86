"""Where matches live: the :class:`Storage` interface and its embedded default, :class:`SQLiteStorage`.

A match is stored as its settings (:class:`StoredMatch`: players, theme, seed, which seats are bots), who
holds each human seat (:class:`SeatHolder`, with the credential's hash, never the credential) and the ordered
list of accepted choices (:class:`StoredChoice`). Nothing else: the engine is deterministic (rule 9.3), so
the state of a match is rebuilt by dealing from its seed and replaying its choices
(:meth:`darkempire.server.match.Match.replay`).

A choice is written, and committed, before the server acknowledges it or tells anyone
(:meth:`Storage.append_choice`): a server killed at any moment restarts with every acknowledged move. The
position of each choice is part of its key, so two server processes sharing one database cannot both write
a choice at the same position: the second gets :class:`~darkempire.server.refusals.ChoiceConflictError`,
catches up and judges its move again.

The storage holds the secrets of every match in progress (the seeds deal every hand): never serve it.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import attrs

from darkempire.server.refusals import ChoiceConflictError, StorageError

__all__ = ["FanOut", "SQLiteStorage", "SeatHolder", "Storage", "StoredChoice", "StoredMatch", "match_from_row"]


@attrs.frozen
class StoredMatch:
    """A match's settings, fixed when it is created.

    :ivar match_id: the match's id (URL-safe text).
    :ivar players: the number of seats, 3 to 5.
    :ivar theme: the faction names clients show (a :class:`~darkempire.rules.cards.Theme` value).
    :ivar seed: the deal's seed: secret while the match is on.
    :ivar bots: per seat, the bot kind that plays it (a key of :data:`darkempire.bots.BOT_KINDS`), or
        ``None`` for a human seat.
    :ivar created: when the match was created (seconds since the epoch).
    :ivar time_limit: the seconds a human seat has for each decision before a bot makes it, or ``None``
        (no limit, the default).
    """

    match_id: str
    players: int
    theme: str
    seed: int
    bots: tuple[str | None, ...]
    created: float
    time_limit: float | None = None


@attrs.frozen
class SeatHolder:
    """Who holds a human seat.

    :ivar seat: the seat.
    :ivar name: the name the player gave.
    :ivar credential_hash: :func:`~darkempire.server.credentials.credential_hash` of its credential.
    """

    seat: int
    name: str
    credential_hash: str


@attrs.frozen
class StoredChoice:
    """One accepted choice: the ``index``-th of its match (from 0), by ``seat``, its action as an
    ``"action"`` message's JSON text.

    :ivar index: the choice's position in the match.
    :ivar seat: the seat that chose.
    :ivar action: the action message (:func:`darkempire.serialization.to_json`).
    """

    index: int
    seat: int
    action: str


class Storage(Protocol):
    """What the server needs of a storage. Every method commits before it returns."""

    def create_match(self, match: StoredMatch) -> None:
        """Store a new match (its id is new)."""

    def matches(self) -> list[StoredMatch]:
        """Every stored match, oldest first."""

    def match(self, match_id: str) -> StoredMatch | None:
        """The match with this id, if stored."""

    def seats(self, match_id: str) -> list[SeatHolder]:
        """The held human seats of a match, by seat."""

    def hold_seat(self, match_id: str, holder: SeatHolder) -> bool:
        """Give a free seat to ``holder``; ``False`` (and nothing written) if the seat is held."""

    def free_seat(self, match_id: str, seat: int) -> None:
        """Free a held seat."""

    def append_choice(self, match_id: str, choice: StoredChoice) -> None:
        """Write an accepted choice, committed before returning.

        :raises ChoiceConflictError: a choice at ``choice.index`` is already stored.
        :raises StorageError: it could not be written.
        """

    def choices(self, match_id: str, since: int = 0) -> list[StoredChoice]:
        """The match's choices from index ``since`` on, in order."""

    def close(self) -> None:
        """Release the connection."""


@runtime_checkable
class FanOut(Protocol):
    """A storage that several server processes share tells each of the choices the others store."""

    def listen(self, notify: Callable[[str], None]) -> Callable[[], None]:
        """Call ``notify(match_id)`` for each choice stored by any process, from another thread; return the
        function that stops listening."""


_SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    match_id TEXT PRIMARY KEY, players INTEGER NOT NULL, theme TEXT NOT NULL, seed INTEGER NOT NULL,
    bots TEXT NOT NULL, created REAL NOT NULL, time_limit REAL);
CREATE TABLE IF NOT EXISTS seats (
    match_id TEXT NOT NULL REFERENCES matches(match_id), seat INTEGER NOT NULL, name TEXT NOT NULL,
    credential_hash TEXT NOT NULL, PRIMARY KEY (match_id, seat));
CREATE TABLE IF NOT EXISTS choices (
    match_id TEXT NOT NULL REFERENCES matches(match_id), idx INTEGER NOT NULL, seat INTEGER NOT NULL,
    action TEXT NOT NULL, PRIMARY KEY (match_id, idx));
"""


def match_from_row(row: Sequence[Any]) -> StoredMatch:
    """A :class:`StoredMatch` from a ``matches`` row (``match_id, players, theme, seed, bots, created,
    time_limit``)."""
    bots = json.loads(row[4])
    limit = None if row[6] is None else float(row[6])
    return StoredMatch(str(row[0]), int(row[1]), str(row[2]), int(row[3]), tuple(bots), float(row[5]), limit)


class SQLiteStorage:
    """The embedded storage: one SQLite file (``":memory:"`` for a throwaway one).

    The file is opened in WAL mode with ``synchronous=NORMAL``: a committed choice is in the file before the
    call returns, so it survives the process being killed at any moment (SIGKILL included); ``durable=True``
    (``synchronous=FULL``) also syncs the disk at each commit, so that it survives the operating system
    crashing, at the cost of a disk sync per choice. One connection, used under a lock, serves every thread.
    """

    def __init__(self, path: str | Path, *, durable: bool = False) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
            self._db.executescript(_SCHEMA)
        except sqlite3.Error as error:
            raise StorageError(f"cannot open the SQLite database {str(path)!r}: {error}") from None
        self._lock = threading.Lock()

    def _run(self, sql: str, parameters: Sequence[Any] = ()) -> list[Any]:
        with self._lock:
            try:
                return self._db.execute(sql, parameters).fetchall()
            except sqlite3.IntegrityError:
                raise
            except sqlite3.Error as error:
                raise StorageError(f"the SQLite database failed: {error}") from None

    def create_match(self, match: StoredMatch) -> None:
        """Store a new match."""
        row = (match.match_id, match.players, match.theme, match.seed, json.dumps(list(match.bots)), match.created, match.time_limit)
        self._run("INSERT INTO matches VALUES (?, ?, ?, ?, ?, ?, ?)", row)

    def matches(self) -> list[StoredMatch]:
        """Every stored match, oldest first."""
        return [match_from_row(r) for r in self._run("SELECT * FROM matches ORDER BY created, match_id")]

    def match(self, match_id: str) -> StoredMatch | None:
        """The match with this id, if stored."""
        rows = self._run("SELECT * FROM matches WHERE match_id = ?", (match_id,))
        return match_from_row(rows[0]) if rows else None

    def seats(self, match_id: str) -> list[SeatHolder]:
        """The held seats of a match, by seat."""
        rows = self._run("SELECT seat, name, credential_hash FROM seats WHERE match_id = ? ORDER BY seat", (match_id,))
        return [SeatHolder(int(r[0]), str(r[1]), str(r[2])) for r in rows]

    def hold_seat(self, match_id: str, holder: SeatHolder) -> bool:
        """Give a free seat to ``holder``; ``False`` if it is held."""
        try:
            self._run("INSERT INTO seats VALUES (?, ?, ?, ?)", (match_id, holder.seat, holder.name, holder.credential_hash))
        except sqlite3.IntegrityError:
            return False
        return True

    def free_seat(self, match_id: str, seat: int) -> None:
        """Free a held seat."""
        self._run("DELETE FROM seats WHERE match_id = ? AND seat = ?", (match_id, seat))

    def append_choice(self, match_id: str, choice: StoredChoice) -> None:
        """Write an accepted choice, committed (and synced) before returning."""
        try:
            self._run("INSERT INTO choices VALUES (?, ?, ?, ?)", (match_id, choice.index, choice.seat, choice.action))
        except sqlite3.IntegrityError:
            raise ChoiceConflictError(f"match {match_id} already has a choice at position {choice.index}") from None

    def choices(self, match_id: str, since: int = 0) -> list[StoredChoice]:
        """The match's choices from index ``since`` on, in order."""
        rows = self._run("SELECT idx, seat, action FROM choices WHERE match_id = ? AND idx >= ? ORDER BY idx", (match_id, since))
        return [StoredChoice(int(r[0]), int(r[1]), str(r[2])) for r in rows]

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()
