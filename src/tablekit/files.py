"""Record files on disk, for any game's command line: check that a path can be written before the game whose
record goes there, write a record's text, and read at most so many bytes of a regular file.

Every failure is a :class:`~tablekit.records.RecordError` whose message names the path and the system's reason
(``cannot write /nonexistent/x.json: No such file or directory``), the one line a shell prints.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> check_writable(folder / "game.json")          # leaves nothing behind
>>> sorted(folder.iterdir())
[]
>>> write_text(folder / "game.json", '{"format": "toy/1"}')
>>> read_limited(folder / "game.json", 100)
b'{"format": "toy/1"}\\n'
>>> read_limited(folder / "game.json", 5)
Traceback (most recent call last):
  ...
tablekit.records.RecordError: ... holds more than 5 bytes, the limit of a record
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

from tablekit.records import RecordError

__all__ = ["check_writable", "read_limited", "write_text"]


def write_text(path: Path, text: str, *, error: Callable[[str], Exception] = RecordError) -> None:
    """Write ``text`` and a newline to ``path`` (UTF-8).

    :param error: the error raised, with its message (a game's own subclass of :class:`RecordError`, say).
    :raises RecordError: (or ``error``) the file cannot be written, with the system's reason.
    """
    try:
        path.write_text(text + "\n", encoding="utf-8")
    except OSError as failure:
        raise error(f"cannot write {path}: {failure.strerror or failure}") from None


def check_writable(path: Path, *, error: Callable[[str], Exception] = RecordError) -> None:
    """Check that :func:`write_text` could write ``path`` now, leaving the file system as it was: a command
    calls it before the game whose record it writes, so that a mistyped directory is refused at once.

    A file that does not exist is created and removed again; one that exists is opened for writing without
    being truncated (nor waited on, if it is a FIFO without a reader).

    :raises RecordError: (or ``error``) ``path`` cannot be written, with the message :func:`write_text` would
        give.
    """
    try:
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
            created = True
        except FileExistsError:
            descriptor = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            created = False
        os.close(descriptor)
        if created:
            os.unlink(path)
    except OSError as failure:
        raise error(f"cannot write {path}: {failure.strerror or failure}") from None


def read_limited(
    path: Path,
    max_bytes: int,
    *,
    what: str = "record",
    error: Callable[[str], Exception] = RecordError,
    too_large: Callable[[str], Exception] | None = None,
) -> bytes:
    """The bytes of the regular file ``path``, reading no more than ``max_bytes`` and one (never the whole of a
    huge file; ``/dev/zero`` or a FIFO is no regular file and would block or never end).

    :param what: what the file should hold, for the message of a file too large.
    :param error: the error raised, with its message, when the file cannot be read or is no regular file (a
        game's own subclass of :class:`RecordError`, say).
    :param too_large: the error for a file of more than ``max_bytes`` (default ``error``).
    :raises RecordError: (or ``error``, ``too_large``) the file cannot be read, is no regular file, or holds
        more than ``max_bytes``.
    """
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            raise error(f"{path} is not a regular file")
        with path.open("rb") as file:
            data = file.read(max_bytes + 1)
    except OSError as failure:
        raise error(f"cannot read {path}: {failure.strerror or failure}") from None
    if len(data) > max_bytes:
        raise (too_large or error)(f"{path} holds more than {max_bytes} bytes, the limit of a {what}")
    return data
