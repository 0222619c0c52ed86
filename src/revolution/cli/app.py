"""The ``revolution`` command: *Revolution!*'s subcommands on the kit's shell (:mod:`tablekit.cli`).

The shell parses the arguments, runs the subcommand and turns what went wrong into an exit status and one line
on standard error; this module holds what is *Revolution!*'s: the subcommands (:data:`COMMANDS`) with their
options, the checks of options that depend on each other (``--bots`` against ``--players``, ``--seat``,
``--games``), and the hand-over to each subcommand's module (:mod:`~revolution.cli.demo`,
:mod:`~revolution.cli.play`, :mod:`~revolution.cli.replay`, :mod:`~revolution.cli.simulate`). The output is
plain text (the kit's plain console, :func:`plain`), wrapped at word boundaries to the terminal's width when
the standard output is a terminal (:class:`WrappedOutput`).

The same :data:`COMMANDS` run as ``revolution ...``, ``python -m revolution ...`` and, hosted by Dark
Empire's command, ``darkempire --game revolution ...`` (:data:`SHELL`).
"""

from __future__ import annotations

import argparse
import importlib.metadata
import io
import re
import shutil
import stat
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Final, TextIO, cast

from revolution.cli import demo, play, replay, simulate
from revolution.cli.options import BOT_KINDS, add_bots, add_game, bot_kinds, config_of, make_bot, other_kinds
from tablekit import cli as shell
from tablekit.files import check_writable
from tablekit.cli import Command, CommandExit, Shell, UsageError

__all__ = ["COMMANDS", "DESCRIPTION", "GAME_NAME", "PEEK_BYTES", "SHELL", "WrappedOutput", "main", "plain",
           "recognizes", "version"]

#: The top-level help's paragraph.
DESCRIPTION: Final = "Revolution! (Steve Jackson Games, 2009), the bidding game, for 3 or 4 players."
#: The game's name for ``--game`` in a command that hosts several games.
GAME_NAME: Final = "revolution"


_RULE_ITEM: Final = re.compile(r"\s+(?:\d+\.\d+|R-[A-Z]+) ")


class WrappedOutput(io.TextIOBase):
    """A terminal's output whose lines are wrapped at word boundaries to the terminal's width, as it is when
    each line is written (:func:`shutil.get_terminal_size`). A continued line keeps the line's indent and two
    spaces more (a rule quoted after its number, ``4.2 "..."``, continues under its text); a word longer
    than the width is left whole. Text without its newline yet (a prompt) waits for the newline or for
    :meth:`flush`, which writes it wrapped, the cursor after it.

    :param stream: the terminal's stream.
    """

    def __init__(self, stream: TextIO) -> None:
        super().__init__()
        self._stream = stream
        self._pending = ""

    def writable(self) -> bool:
        """Always: an output."""
        return True

    def isatty(self) -> bool:
        """Whether the stream is a terminal (it is, unless built for a test)."""
        return self._stream.isatty()

    def write(self, text: str) -> int:
        """Write the whole lines of what has been written so far, wrapped; keep the rest for later."""
        *lines, self._pending = (self._pending + text).split("\n")
        for line in lines:
            self._stream.write(self._wrapped(line) + "\n")
        return len(text)

    def flush(self) -> None:
        """Write the line begun (a prompt), wrapped, its trailing space kept; flush the stream."""
        if self._pending:
            trailing = self._pending[len(self._pending.rstrip()):]
            self._stream.write(self._wrapped(self._pending) + trailing)
            self._pending = ""
        self._stream.flush()

    def _wrapped(self, line: str) -> str:
        width = shutil.get_terminal_size().columns
        if len(line) <= width:
            return line
        # A rule quoted after its number ("  4.2 ...") continues under its text; any other line two spaces in.
        hanging = _RULE_ITEM.match(line)
        indent = " " * hanging.end() if hanging else line[: len(line) - len(line.lstrip())] + "  "
        return "\n".join(textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=False,
                                        break_on_hyphens=False)) or line


def plain(stream: TextIO) -> TextIO:
    """The output of a subcommand: the standard output itself, plain text; on a terminal, its lines wrapped to
    the terminal's width (:class:`WrappedOutput`). A pipe or a file gets whole lines."""
    if not stream.isatty():
        return stream
    # WrappedOutput is a text stream: the methods a command uses (write, flush, isatty) are TextIO's.
    return cast(TextIO, WrappedOutput(stream))


def _add_demo(sub: argparse.ArgumentParser) -> None:
    add_game(sub)
    add_bots(sub)
    sub.add_argument("--record", metavar="FILE", help="also write the game's record (JSON) to FILE")


def _add_play(sub: argparse.ArgumentParser) -> None:
    add_game(sub)
    sub.add_argument("--seat", type=int, default=0, help="your seat, 0 to players-1 (default 0)")
    sub.add_argument("--bots", default="greedy",
                     help=f"bot kind of the other seats, or a comma-separated kind for each other seat in seat "
                          f"order: {', '.join(sorted(BOT_KINDS))} (default greedy)")
    sub.add_argument("--record", metavar="FILE", help="write the finished game's record (JSON, as demo --record) "
                                                      "to FILE")


def _add_replay(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("file", metavar="FILE", help="a record that demo --record wrote")


def _add_simulate(sub: argparse.ArgumentParser) -> None:
    add_game(sub)
    add_bots(sub)
    sub.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    sub.add_argument("--json", action="store_true", help="print the summary as JSON")


def _demo(args: argparse.Namespace, out: TextIO) -> int:
    kinds = bot_kinds(args.bots, args.players)
    if args.record is not None:  # refused now rather than after the whole game
        check_writable(Path(args.record))
    bots = [make_bot(kind, 10 * args.seed + seat) for seat, kind in enumerate(kinds)]
    return demo.run(out, config_of(args), args.seed, bots, kinds, args.record)


def _play(args: argparse.Namespace, out: TextIO) -> int:
    if not 0 <= args.seat < args.players:
        raise UsageError(f"--seat must be from 0 to {args.players - 1} in a {args.players}-player game")
    kinds = other_kinds(args.bots, args.players, args.seat)
    if args.record is not None:  # refused before the game, not after an hour of play
        check_writable(Path(args.record))
    # The person's seat gets a bot too, never asked: play.run puts the person there.
    bots = [make_bot(kind or "random", 10 * args.seed + seat) for seat, kind in enumerate(kinds)]
    try:
        return play.run(out, sys.stdin, config_of(args), args.seed, args.seat, bots, args.record)
    except play.PlayerLeft as left:
        raise CommandExit(shell.EXIT_OK if left.chosen else shell.EXIT_ERROR, f"Game abandoned: {left}.") from None


def _replay(args: argparse.Namespace, out: TextIO) -> int:
    return replay.run(out, args.file)


def _simulate(args: argparse.Namespace, out: TextIO) -> int:
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, not {args.games}")
    kinds = bot_kinds(args.bots, args.players)
    return simulate.run(out, config_of(args), kinds, args.games, args.seed, as_json=args.json)


#: The subcommands of ``revolution``, in the order its help lists them.
COMMANDS: Final[tuple[Command[TextIO], ...]] = (
    Command("demo", "watch bots play a whole game, round by round", _demo, _add_demo),
    Command("play", "play one seat against bots at the terminal", _play, _add_play),
    Command("replay", "replay a game record, check every choice and print the game", _replay, _add_replay),
    Command("simulate", "play many seeded bot games and sum up how they ended", _simulate, _add_simulate),
)

_RECORD_FORMAT: Final = re.compile(rb'"format"\s*:\s*"revolution/')
#: How much of a file :func:`recognizes` reads: a record's format comes first in what ``demo --record`` writes.
PEEK_BYTES: Final = 4096


def recognizes(arguments: Sequence[str]) -> bool:
    """Whether ``arguments`` are ``replay FILE ...`` with a *Revolution!* record in ``FILE`` (its ``format``
    field, ``"revolution/..."``, in the file's first :data:`PEEK_BYTES` bytes): so that a command hosting this
    one (``darkempire replay FILE``) hands it such a record without ``--game``. A file that cannot be read is
    not recognized (the hosting command reports it)."""
    files = [argument for argument in arguments[1:2] if not argument.startswith("-")]
    if arguments[:1] != ["replay"] or not files:
        return False
    try:
        path = Path(files[0])
        if not stat.S_ISREG(path.stat().st_mode):  # a FIFO would block the read
            return False
        with path.open("rb") as file:
            return _RECORD_FORMAT.search(file.read(PEEK_BYTES)) is not None
    except OSError:
        return False


def version() -> str:
    """The version that ``revolution --version`` prints: the installed distribution's (``darkempire``, which
    ships this package), or ``"unknown"`` for a source tree that is not installed."""
    try:
        return importlib.metadata.version("darkempire")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


#: The ``revolution`` command as a kit shell, for :func:`main` and for a command that hosts several games
#: (under :data:`GAME_NAME`; it :func:`recognizes` its records).
SHELL: Final[Shell[TextIO]] = Shell("revolution", DESCRIPTION, COMMANDS, plain, game=GAME_NAME,
                                    recognizes=recognizes, version=version())


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``revolution`` command with ``argv`` (default: the process arguments).

    :returns: the exit status: 0 when done (and when the player leaves ``play`` with ``q``), 1 when the input
        ends during ``play`` or the library refuses something (a record that does not replay, a file that cannot
        be read or written; one line on standard error), 130 after Ctrl-C. Bad arguments exit with status 2 and
        the subcommand's usage (:class:`SystemExit`, from :mod:`argparse`).
    """
    return SHELL.main(argv)
