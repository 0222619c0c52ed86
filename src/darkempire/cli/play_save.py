"""Saved games of ``darkempire play``: what ``s`` (or ``--save FILE``) writes and ``--resume FILE`` reads.

A saved game is one JSON object::

    {"format": "darkempire-play-save/1", "seat": 0, "bots": [null, "greedy", "random", "greedy"],
     "record": {"format": "darkempire/1", "type": "game-record", ...}}

``seat`` is the person's seat, ``bots`` the bot kind of every other seat (``null`` at the person's), and
``record`` the :class:`~darkempire.records.GameRecord` of the game so far (with state digests, no verdict
while the game is on). Resuming replays the record with fresh bots seeded as at the start: they are asked
every question of the game again, so their generators reach the same point and the rest of the game is
the one the person would have played without leaving (:func:`darkempire.cli.play.run`). The faction
names shown are the record's ``theme``: a resumed game shows them again unless ``--theme`` picks others (a
game saved before saves kept the theme has none, and is Steam Noir's).

**Like a game record, a saved game holds the seed**: whoever reads the file can deal the game again and see
every hand and victor card. It is the person's own file, for going on later, not for sharing.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import attrs

from darkempire.bots import BOT_KINDS
from darkempire.records import GameRecord, RecordError
from darkempire.serialization import DEFAULT_MAX_SIZE, SerializationError, from_data, parse_json, to_data
from tablekit.files import read_limited

__all__ = ["SAVE_FORMAT", "SaveFileError", "SavedGame", "read_save", "write_save"]

#: The ``format`` of a saved game.
SAVE_FORMAT = "darkempire-play-save/1"

_FIELDS = ("format", "seat", "bots", "record")


class SaveFileError(RecordError):
    """A saved game that cannot be written, read or resumed; the message names the file and the field."""


@attrs.frozen
class SavedGame:
    """A game of ``darkempire play`` so far.

    :ivar seat: the person's seat.
    :ivar bots: the bot kind of each seat, ``None`` at the person's seat.
    :ivar record: the game so far (config, seed, every choice, digests).
    """

    seat: int
    bots: tuple[str | None, ...]
    record: GameRecord


def write_save(path: Path, saved: SavedGame) -> None:
    """Write ``saved`` to ``path`` (replacing it whole: a reader never sees half a file).

    :raises SaveFileError: if the file cannot be written.
    """
    document = {
        "format": SAVE_FORMAT,
        "seat": saved.seat,
        "bots": list(saved.bots),
        "record": to_data(saved.record),
    }
    partial = path.with_name(path.name + ".partial")
    try:
        partial.write_text(json.dumps(document, ensure_ascii=False) + "\n", encoding="utf-8")
        os.replace(partial, path)
    except OSError as error:
        raise SaveFileError(f"cannot write {path}: {error.strerror or error}") from None


def read_save(path: Path) -> SavedGame:
    """The saved game in ``path``, checked field by field; its record is checked as any game record is
    (:func:`darkempire.serialization.from_data`), not yet replayed.

    :raises SaveFileError: if the file cannot be read or is not a saved game; the message names the field.
    """
    try:
        document = parse_json(read_limited(path, DEFAULT_MAX_SIZE, what="saved game", error=SaveFileError), max_size=DEFAULT_MAX_SIZE)
    except SerializationError as error:
        raise SaveFileError(f"{path} is not a saved game: {error}") from None
    if not isinstance(document, dict) or document.get("format") != SAVE_FORMAT:
        raise SaveFileError(f"{path} is not a saved game: its format is not {SAVE_FORMAT!r}")
    unknown = sorted(set(document) - set(_FIELDS))
    missing = [name for name in _FIELDS if name not in document]
    if unknown or missing:
        raise SaveFileError(f"{path}: field {(unknown or missing)[0]!r} is {'unknown' if unknown else 'missing'}")
    try:
        record = from_data(document["record"], "game-record")
    except SerializationError as error:
        raise SaveFileError(f"{path}: field 'record': {error}") from None
    assert isinstance(record, GameRecord)
    seat, bots = _seat_and_bots(path, document, record.config.players)
    return SavedGame(seat, bots, record)


def _seat_and_bots(path: Path, document: dict[str, Any], players: int) -> tuple[int, tuple[str | None, ...]]:
    seat, bots = document["seat"], document["bots"]
    if type(seat) is not int or not 0 <= seat < players:
        raise SaveFileError(f"{path}: field 'seat' must be a seat from 0 to {players - 1}")
    if not isinstance(bots, list) or len(bots) != players:
        raise SaveFileError(f"{path}: field 'bots' must list {players} seats")
    for index, kind in enumerate(bots):
        if (kind is None) != (index == seat) or (kind is not None and (type(kind) is not str or kind not in BOT_KINDS)):
            raise SaveFileError(
                f"{path}: field 'bots[{index}]' must be "
                + ("null (your seat)" if index == seat else f"a bot kind: {', '.join(sorted(BOT_KINDS))}")
            )
    return seat, tuple(bots)
