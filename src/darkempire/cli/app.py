"""The ``darkempire`` command: Dark Empire's subcommands plugged into the kit's shell (spec 9.2-9.4).

The shell is :mod:`tablekit.cli`: it parses the arguments, runs the subcommand and turns what went wrong
into an exit status and one line on standard error. This module holds what is Dark Empire's: the
subcommands (:data:`COMMANDS`) with their options, the checks of options that depend on each other
(``--bots`` against ``--players``, ``--seat``, ``--games``, a record file that cannot be written, all
refused before the game is played), and the hand-over to each subcommand's module
(:mod:`~darkempire.cli.demo`, :mod:`~darkempire.cli.play`, :mod:`~darkempire.cli.replay`,
:mod:`~darkempire.cli.simulate`).

Output goes through ``rich`` (:func:`console`); when standard output is not a terminal (a pipe, a file, CI)
it is plain text without colours or wrapping; on a terminal it wraps at word boundaries.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from rich.console import Console

from darkempire import __version__
from darkempire.bots import BOT_KINDS
from darkempire.rules.cards import Theme
from darkempire.cli import demo, play, replay, serve, simulate, tourney
from darkempire.cli.record_files import check_writable
from darkempire.cli.terminal import wrap_for_terminal
from darkempire.execution import Backend, BackendError, backend_from_args
from darkempire.balance.policy import default_bots
from darkempire.balance.plots import has_matplotlib
from darkempire.simulation import MAX_GAMES, add_bots_argument
from tablekit import cli as shell
from tablekit.cli import Command, CommandExit, UsageError

__all__ = ["COMMANDS", "DESCRIPTION", "EXIT_INTERRUPTED", "EXIT_LEFT", "EXIT_OK", "console", "main"]

#: Exit status of a finished command.
EXIT_OK = shell.EXIT_OK
#: Exit status when the player leaves ``play`` (end of input or "q"), or the rules refuse a record.
EXIT_LEFT = shell.EXIT_ERROR
#: Exit status after Ctrl-C.
EXIT_INTERRUPTED = shell.EXIT_INTERRUPTED

#: The top-level help's paragraph.
DESCRIPTION = "Dark Empire: Revolution (Steam Noir: Revolution), the card game."

_THEMES = {theme.value: theme for theme in Theme}


def _add_theme(sub: argparse.ArgumentParser, default: str = "the first edition's") -> None:
    sub.add_argument(
        "--theme", choices=sorted(_THEMES), default=Theme.STEAM_NOIR.value,
        help=f"faction names to show (default {Theme.STEAM_NOIR.value}, {default})",
    )


def _add_game(sub: argparse.ArgumentParser, theme_default: str = "the first edition's") -> None:
    """The options that pick one game: its number of seats, its seed, and the faction names to show."""
    sub.add_argument("--players", type=int, choices=(3, 4, 5), default=4, help="number of seats (default 4)")
    sub.add_argument("--seed", type=int, default=1, help="the game's seed (default 1)")
    _add_theme(sub, theme_default)


def _add_demo(sub: argparse.ArgumentParser) -> None:
    _add_game(sub)
    add_bots_argument(sub, default="greedy")
    sub.add_argument("--record", metavar="FILE", help="also write the game record (JSON) to FILE")
    sub.add_argument(
        "--public-record",
        metavar="FILE",
        help="also write the public record (JSON: no seed, nothing hidden; safe to share) to FILE",
    )


def _add_play(sub: argparse.ArgumentParser) -> None:
    _add_game(sub, "or with --resume the saved game's")
    defaults = (sub.get_default("players"), sub.get_default("seed"))
    sub.add_argument("--seat", type=int, help="your seat, 0 to players-1 (default 0)")
    sub.add_argument(
        "--bots",
        help="bot kind of the other seats, or a comma-separated kind for each other seat in seat order: "
        + ", ".join(sorted(BOT_KINDS))
        + " (default greedy)",
    )
    sub.add_argument(
        "--record", metavar="FILE", help="write the finished game's record (JSON, as demo --record) to FILE"
    )
    sub.add_argument(
        "--save", metavar="FILE", help="save the game to FILE at every question (s saves at any time without it)"
    )
    sub.add_argument(
        "--resume",
        metavar="FILE",
        help="go on with the game saved in FILE (its players, seed, seat and bots); the file holds the seed, "
        "so reading it reveals every hand",
    )
    # With --resume the saved game sets these: None tells an option not given from one given as its default.
    sub.set_defaults(players=None, seed=None, theme=None, play_defaults=defaults)


def _add_replay(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("file", metavar="FILE", help="a game record (demo --record) or a public record (demo --public-record)")
    sub.add_argument("--seat", type=int, help="show what this seat saw (with --week)")
    sub.add_argument("--week", type=int, help="show week 1-12 as the seat (or a spectator) saw it")
    sub.add_argument(
        "--theme", choices=sorted(_THEMES), default=None,
        help="faction names to show (default the record's theme, which demo stored; "
        f"default {Theme.STEAM_NOIR.value} for a record that names none)",
    )


def _bot_kinds(spec: str, players: int) -> list[str]:
    """The bot kind of each seat that ``--bots`` names (:func:`tablekit.cli.seat_kinds`)."""
    return shell.seat_kinds(spec, BOT_KINDS, players)


def _demo(args: argparse.Namespace, out: Console) -> int:
    kinds = _bot_kinds(args.bots, args.players)
    for path in (args.record, args.public_record):
        if path is not None:  # refused now rather than after the whole game
            check_writable(Path(path))
    return demo.run(out, args.players, args.seed, _THEMES[args.theme], kinds, args.record, args.public_record)


def _play(args: argparse.Namespace, out: Console) -> int:
    try:
        return play.command(
            out,
            None if args.theme is None else _THEMES[args.theme],
            players=args.players,
            seed=args.seed,
            seat=args.seat,
            bots=args.bots,
            record=args.record,
            save=args.save,
            resume=args.resume,
            defaults=args.play_defaults,
        )
    except play.PlayerLeft as left:
        raise CommandExit(EXIT_OK if left.chosen else EXIT_LEFT, f"Game abandoned: {left}.") from None


def _simulate(args: argparse.Namespace, out: Console) -> int:
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, not {args.games}")
    if args.games > MAX_GAMES:
        raise UsageError(f"--games must be at most {MAX_GAMES:,} in one run, not {args.games:,}; run several seeds")
    backend = _check_backend(args)
    workers = 1 if backend.kind == "serial" else backend.worker_count  # what the run is spread over
    counts: tuple[int, ...] = args.players
    spec = args.bots if args.bots is not None else default_bots(max(counts), args.games, jobs=workers)
    if args.report is not None:
        return _simulate_report(args, out, counts, spec)
    if len(counts) > 1:
        raise UsageError("several player counts need --report DIR; without it give one (3, 4 or 5)")
    if args.plot is not None:  # refused now rather than after a thousand games
        check_writable(Path(args.plot))
    args.players = counts[0]  # what simulate_command reads: one count
    return simulate.run(out, args, _bot_kinds(spec, args.players), _THEMES[args.theme])


def _simulate_report(args: argparse.Namespace, out: Console, counts: tuple[int, ...], spec: str) -> int:
    from darkempire.balance.report import check_folder

    if args.json or args.plot is not None:
        raise UsageError("--report writes its own page and plots: give it without --json and --plot")
    if len(counts) > 1 and "," in spec:
        raise UsageError("--bots: give one kind for every seat when --players names several counts")
    kinds = {players: _bot_kinds(spec, players) for players in counts}
    if not has_matplotlib():
        raise CommandExit(shell.EXIT_USAGE, "darkempire simulate: --report needs matplotlib: pip install 'darkempire[plot]'")
    check_folder(Path(args.report))  # refused now rather than after a thousand games
    return simulate.report(out, args, kinds, _THEMES[args.theme])


def _check_backend(args: argparse.Namespace) -> Backend:
    """The backend the options name; options that do not fit together (``--address`` without
    ``--backend dask``) are refused now."""
    try:
        return backend_from_args(args)
    except BackendError as error:
        raise UsageError(str(error)) from None


def _replay(args: argparse.Namespace, out: Console) -> int:
    if args.seat is not None and args.week is None:  # refused before the record is read, as argparse would
        raise UsageError("--seat needs --week: give the week (1-12) to show")
    theme = None if args.theme is None else _THEMES[args.theme]
    return replay.replay_command(out, args.file, theme, seat=args.seat, week=args.week)


#: The subcommands of ``darkempire``, in the order its help lists them.
COMMANDS: tuple[Command[Console], ...] = (
    Command("demo", "watch bots play a whole game, week by week", _demo, _add_demo),
    Command("play", "play one seat against bots at the terminal (greedy unless --bots says)", _play, _add_play),
    Command("replay", "replay a game record, check its verdict and print it", _replay, _add_replay),
    Command("simulate", "play many seeded bot games and sum up how they ended", _simulate, simulate.add_arguments),
    Command(
        "tournament", "play bots against each other, seats rotated, and rate them (openskill)",
        tourney.command, tourney.add_arguments,
    ),
    Command("serve", "run the game server: a lobby over HTTP, the games over WebSockets", serve.command, serve.add_arguments),
)


class _Console(Console):
    """A ``rich`` console that lets a closed standard output reach the kit's shell as :class:`BrokenPipeError`
    (a normal end there) instead of exiting with status 1 itself, as ``rich`` does."""

    def on_broken_pipe(self) -> None:
        """Stop printing and hand the closed pipe to the shell."""
        self.quiet = True
        raise BrokenPipeError("standard output was closed")


def console(stream: TextIO) -> Console:
    """The ``rich`` console a subcommand prints to: on ``stream`` (standard output), plain text without
    colours and without wrapping when it is not a terminal (a long line stays one line for a script to read);
    on a terminal, wrapped at word boundaries, never inside a card label (:mod:`darkempire.cli.terminal`)."""
    return wrap_for_terminal(_Console(file=stream, highlight=False, soft_wrap=True, emoji=False))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``darkempire`` command with ``argv`` (default: the process arguments).

    :returns: the exit status: 0 when done, 1 when the player leaves ``play`` or the library refuses
        something (a record that does not replay, a file that cannot be read or written; one line on
        standard error), 130 after Ctrl-C. Bad arguments exit with status 2 and a message with the
        subcommand's usage (:class:`SystemExit`, from :mod:`argparse`). ``--game revolution`` before the
        subcommand runs *Revolution!*'s commands instead (:mod:`revolution.cli`), as does ``replay`` of a
        *Revolution!* record.
    """
    from revolution.cli.app import SHELL as revolution  # the second game, hosted as --game revolution

    return shell.main(
        "darkempire", DESCRIPTION, COMMANDS, argv, output=console, error_status=EXIT_LEFT, version=__version__,
        game="dark-empire", hosted={"revolution": revolution},
    )
