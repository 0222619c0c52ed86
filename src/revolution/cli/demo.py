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
from tablekit.files import write_text

__all__ = ["run"]


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
        write_text(Path(record), save_record(played.record))
        print(f"Record of {len(played.record.choices)} choices written to {record}", file=out)
    return 0
