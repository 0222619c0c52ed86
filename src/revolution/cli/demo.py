"""``revolution demo``: watch bots play a whole game, round by round (issue 18).

``revolution demo [--players N] [--seed S] [--bots greedy,random,...] [--bid-refunds] [--area-control-bonus]
[--record FILE]`` plays a game between bots with the kit's driver (:func:`tablekit.bots.run_game`) and prints
it round by round: each seat's tokens (Espionage, rule 3.2), the bids revealed together (rule 5.1), each
character's winner and rewards in board order (rules 5.2-5.8), the bid tokens' return and Patronage (rules 5.9,
6.1), and at the end the final scoring (rules 7.2-7.4). Seat ``s``'s bot is seeded with ``10 * S + s``.

``--record FILE`` also writes the game's record (``revolution/1`` JSON, :mod:`revolution.records`), which
``revolution replay FILE`` re-runs through the rules.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from revolution.cli.text import event_lines
from revolution.records import save_record
from revolution.rules.actions import Action
from revolution.rules.game import GAME
from revolution.rules.state import RevolutionConfig
from revolution.rules.views import RevolutionView
from tablekit.bots import Bot, run_game
from tablekit.records import RecordError

__all__ = ["check_writable", "run", "write_record_file"]


def run(out: TextIO, config: RevolutionConfig, seed: int, bots: Sequence[Bot[RevolutionView, Action]],
        kinds: Sequence[str], record: str | None = None) -> int:
    """Play a game of ``config`` between ``bots`` (of ``kinds``, for the heading) and print it; write its record
    to the file ``record`` if given.

    :returns: 0 when done.
    :raises ~tablekit.records.RecordError: the record file cannot be written.
    """
    played = run_game(GAME, config, seed, bots)
    options = [name for name, on in (("Bid Refunds", config.bid_refunds),
                                     ("Area Control Bonus", config.area_control_bonus)) if on]
    print(f"Revolution! - {config.players} players, seed {seed}"
          + (f", with {' and '.join(options)}" if options else ""), file=out)
    print("Bots: " + ", ".join(f"seat {seat}: {kind}" for seat, kind in enumerate(kinds)), file=out)
    for event in played.events:
        for line in event_lines(event.payload):
            print(line, file=out)
    if record is not None:
        write_record_file(Path(record), save_record(played.record))
        print(f"Record of {len(played.record.choices)} choices written to {record}", file=out)
    return 0


def write_record_file(path: Path, text: str) -> None:
    """Write the record's JSON ``text`` to ``path``.

    :raises ~tablekit.records.RecordError: the file cannot be written, with the system's reason.
    """
    try:
        path.write_text(text + "\n", encoding="utf-8")
    except OSError as error:
        raise RecordError(f"cannot write {path}: {error.strerror or error}") from None


def check_writable(path: Path) -> None:
    """Check that :func:`write_record_file` could write ``path`` now, leaving the file system as it was: a
    command calls it before the game whose record it writes, so that a mistyped directory is refused at once
    (as Dark Empire's ``demo --record`` and ``play --record``).

    A file that does not exist is created and removed again; one that exists is opened for writing without
    being truncated (nor waited on, if it is a FIFO without a reader).

    :raises ~tablekit.records.RecordError: ``path`` cannot be written, with the message
        :func:`write_record_file` would give.
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
    except OSError as error:
        raise RecordError(f"cannot write {path}: {error.strerror or error}") from None
