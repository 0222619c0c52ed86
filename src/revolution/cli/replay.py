"""``revolution replay FILE``: re-run a record through the rules, check it and print the game (rule 9.4).

The file is a ``revolution/1`` record message (``revolution demo --record FILE`` writes one), read strictly
(:func:`revolution.records.load_record`) and no larger than the wire format's limit. Every choice is checked
again by the rules as the kit's one replay resolves it (:func:`revolution.records.replay_record`): a choice the
rules refuse stops the replay with one error line naming its index, its seat and the rule it breaks (exit
status 1). A record that replays is printed round by round, as ``demo`` prints a game, and ends with the
replay's verdict: the winners, or where a record of a game in progress stops.
"""

from __future__ import annotations

import stat
from pathlib import Path
from typing import TextIO

from revolution.cli.text import event_lines, seat_name
from revolution.records import RevolutionRecord, load_record, replay_record
from tablekit.records import RecordError
from tablekit.wire import DEFAULT_MAX_BYTES

__all__ = ["read_record_file", "run"]


def read_record_file(path: Path, *, max_bytes: int = DEFAULT_MAX_BYTES) -> RevolutionRecord:
    """The record in the file ``path``, read strictly; at most ``max_bytes`` bytes are read.

    :raises ~tablekit.records.RecordError: the file cannot be read, is no regular file, or is too large.
    :raises ~tablekit.wire.WireError: the file holds no valid ``revolution/1`` record.
    """
    try:
        # A FIFO or a device would block the read forever: only a regular file is a record.
        if not stat.S_ISREG(path.stat().st_mode):
            raise RecordError(f"{path} is not a regular file")
        with path.open("rb") as file:
            data = file.read(max_bytes + 1)  # never the whole of a huge file
    except OSError as error:
        raise RecordError(f"cannot read {path}: {error.strerror or error}") from None
    if len(data) > max_bytes:
        raise RecordError(f"{path} holds more than {max_bytes} bytes, the limit of a record")
    return load_record(data, max_bytes=max_bytes)


def run(out: TextIO, path: str) -> int:
    """Replay the record in the file ``path`` and print the game and the verdict.

    :returns: 0 when every choice replays.
    :raises ~tablekit.errors.KitError: the file cannot be read, holds no record, or a choice is refused
        (:class:`~tablekit.records.DivergentChoiceError`).
    """
    record = read_record_file(Path(path))
    replayed = replay_record(record)
    print(f"Replay of a {record.config.players}-player game of Revolution!: {len(record.choices)} choices",
          file=out)
    for event in replayed.events:
        for line in event_lines(event.payload):
            print(line, file=out)
    state = replayed.state
    if state.is_over:
        winners = " and ".join(seat_name(seat) for seat in sorted(state.winners))
        print(f"Record verified: every choice replays through the rules; won by {winners}.", file=out)
    else:
        pending = f", {len(replayed.pending)} bids of it made" if replayed.pending else ""
        print(f"Record verified: every choice replays through the rules; it stops in round {state.round}, "
              f"at the {state.phase.value}{pending}, before the game is over.", file=out)
    return 0
