"""``revolution replay FILE``: re-run a record through the rules, check it and print the game (rule 9.4).

The file is a ``revolution/1`` record message (``revolution demo --record FILE`` writes one), read strictly
(:func:`revolution.records.load_record`) and no larger than the wire format's limit. Every choice is checked
again by the rules as the kit's one replay resolves it (:func:`revolution.records.replay_record`): a choice the
rules refuse stops the replay with one error line naming its index, its seat and the rule it breaks (exit
status 1). A record that replays is printed round by round, as ``demo`` prints a game, and ends with the
replay's verdict: the winners, or where a record of a game in progress stops.
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

import attrs

from revolution.cli.text import choice_text, event_lines, seat_name
from revolution.records import ReplayedGame, RevolutionRecord, load_record, replay_record
from revolution.rules.game import GAME
from revolution.rules.state import Phase
from tablekit.errors import AlreadyChoseError
from tablekit.files import read_limited
from tablekit.records import DivergentChoiceError, resume
from tablekit.wire import DEFAULT_MAX_BYTES

__all__ = ["RefusedChoiceError", "read_record_file", "run"]


class RefusedChoiceError(DivergentChoiceError):
    """A recorded choice the rules refuse, told in the game's words: ``choice 0: seat 0 bids 1 Force on the
    General, ...; the rules refuse it: the General is immune to Force (rule 4.4)``. Its fields are the kit's
    :class:`~tablekit.records.DivergentChoiceError`'s."""

    def __init__(self, index: int, seat: int, action: object, reason: str, message: str) -> None:
        super().__init__(index, seat, action, reason)
        self.args = (message,)  # the kit's message quotes the action's repr; this one is for a reader


def _refused(record: RevolutionRecord, error: DivergentChoiceError) -> RefusedChoiceError:
    """``error`` told in words; a second choice of one seat in one step is the record's fault, not a player's
    to withdraw (the kit's wording speaks to a live table)."""
    index, seat = error.index, error.seat
    if isinstance(error.__cause__, AlreadyChoseError):
        state = resume(GAME, attrs.evolve(record, choices=record.choices[:index])).state
        what = "bids" if state.phase is Phase.BIDDING else "choices"
        message = f"choice {index}: the record has two {what} of seat {seat} in round {state.round} (rule 4.1)"
    else:
        action = record.choices[index].action
        message = f"choice {index}: {choice_text(seat, action)}; the rules refuse it: {error.reason}"
    return RefusedChoiceError(index, seat, error.action, error.reason, message)


def _replay(record: RevolutionRecord) -> ReplayedGame:
    try:
        return replay_record(record)
    except DivergentChoiceError as error:
        raise _refused(record, error) from error


def read_record_file(path: Path, *, max_bytes: int = DEFAULT_MAX_BYTES) -> RevolutionRecord:
    """The record in the file ``path``, read strictly; at most ``max_bytes`` bytes are read.

    :raises ~tablekit.records.RecordError: the file cannot be read, is no regular file, or is too large.
    :raises ~tablekit.wire.WireError: the file holds no valid ``revolution/1`` record.
    """
    data = read_limited(path, max_bytes)
    return load_record(data, max_bytes=max_bytes)


def run(out: TextIO, path: str) -> int:
    """Replay the record in the file ``path`` and print the game and the verdict.

    :returns: 0 when every choice replays.
    :raises ~tablekit.errors.KitError: the file cannot be read, holds no record, or a choice is refused
        (:class:`~tablekit.records.DivergentChoiceError`).
    """
    record = read_record_file(Path(path))
    replayed = _replay(record)
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
        made = len(replayed.pending)
        pending = f", {made} bid{'' if made == 1 else 's'} of it made" if made else ""
        # As Dark Empire's replay: a record that claims no result and stops early is a game in progress, not
        # an error (a Revolution! record carries no verdict that its choices could fail to reach).
        print(f"Record verified: every choice replays through the rules; it stops in round {state.round}, "
              f"at the {state.phase.value}{pending}, before the game is over, as recorded.", file=out)
    return 0
