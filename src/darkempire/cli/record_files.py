"""Game records in files: what ``darkempire demo --record`` writes and ``darkempire replay`` reads (spec 9.3).

A file holds one JSON message (:mod:`darkempire.serialization`): a
``"game-record"`` (:class:`~darkempire.records.GameRecord`, with the seed and
every hidden choice) or a ``"public-record"``
(:class:`~darkempire.public_record.PublicRecord`, what a spectator saw).
"""

from __future__ import annotations

from pathlib import Path

from darkempire.public_record import PublicRecord
from darkempire.records import GameRecord, RecordError
from darkempire.cli.play_save import SAVE_FORMAT
from darkempire.serialization import (
    DEFAULT_MAX_SIZE,
    DocumentTooLargeError,
    FormatVersionError,
    SerializationError,
    WrongTypeError,
    from_json,
    parse_json,
    to_json,
)
from tablekit import files

__all__ = ["check_writable", "read_record", "write_record"]


def write_record(path: Path, record: GameRecord | PublicRecord) -> None:
    """Write ``record`` to ``path`` as a ``"game-record"`` (or ``"public-record"``) JSON message.

    :raises RecordError: if the file cannot be written.
    """
    files.write_text(path, to_json(record), error=RecordError)


def check_writable(path: Path) -> None:
    """Check that :func:`write_record` could write ``path`` now, leaving the file system as it was
    (:func:`tablekit.files.check_writable`): a command calls it before the work whose record it writes.

    :raises RecordError: if ``path`` cannot be written, with the same message :func:`write_record` gives.
    """
    files.check_writable(path, error=RecordError)


def read_record(path: Path, *, max_size: int = DEFAULT_MAX_SIZE) -> GameRecord | PublicRecord:
    """Read a ``"game-record"`` or ``"public-record"`` JSON message from ``path``, reading no more than
    ``max_size`` bytes and one.

    :raises RecordError: if the file cannot be read.
    :raises DocumentTooLargeError: if the file holds more than ``max_size`` bytes (``/dev/zero`` does).
    :raises SerializationError: if it is not a valid record (with the path of the bad value).
    :raises RecordError: if it is a saved game of ``darkempire play``, which ``play --resume`` goes on with.
    """
    data = files.read_limited(path, max_size, error=RecordError, too_large=DocumentTooLargeError)
    try:
        document = from_json(data, max_size=max_size)
    except FormatVersionError:
        if _is_saved_game(data):
            raise RecordError(
                f"{path} is a saved game of darkempire play, not a record; "
                f"go on with it: darkempire play --resume {path}"
            ) from None
        raise
    if not isinstance(document, (GameRecord, PublicRecord)):
        raise WrongTypeError(f"{path} holds a {type(document).__name__} message, not a game or public record")
    return document


def _is_saved_game(data: bytes) -> bool:
    """Whether ``data`` is a saved game of ``darkempire play`` (:mod:`darkempire.cli.play_save`)."""
    try:
        document = parse_json(data, max_size=DEFAULT_MAX_SIZE)
    except SerializationError:
        return False
    return isinstance(document, dict) and document.get("format") == SAVE_FORMAT
