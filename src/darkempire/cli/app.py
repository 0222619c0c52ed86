"""The ``darkempire`` command's shell: its arguments, which subcommand runs, and the exit status (spec 9.2-9.4).

:func:`main` parses the arguments, checks those that depend on each other
(``--bots`` against ``--players``, ``--seat``), hands the rest to the
subcommand's module (:mod:`~darkempire.cli.demo`, :mod:`~darkempire.cli.play`,
:mod:`~darkempire.cli.replay`, :mod:`~darkempire.cli.simulate`) and turns
what went wrong into an exit status and one line on standard error.

Output goes through ``rich``; when standard output is not a terminal (a
pipe, a file, CI) it is plain text without colours or wrapping.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape

from darkempire.bots import BOT_KINDS
from darkempire.cards import Theme
from darkempire.cli import demo, play, replay, simulate
from darkempire.errors import DarkEmpireError
from darkempire.simulation import add_bots_argument

__all__ = ["EXIT_INTERRUPTED", "EXIT_LEFT", "EXIT_OK", "main"]

#: Exit status of a finished command.
EXIT_OK = 0
#: Exit status when the player leaves ``play`` (end of input or "q"), or the rules refuse a record.
EXIT_LEFT = 1
#: Exit status after Ctrl-C.
EXIT_INTERRUPTED = 130

_THEMES = {theme.value: theme for theme in Theme}


def _add_theme(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("--theme", choices=sorted(_THEMES), default=Theme.STEAM_NOIR.value, help="faction names to show")


def _add_game(sub: argparse.ArgumentParser) -> None:
    """The options that pick one game: its number of seats, its seed, and the faction names to show."""
    sub.add_argument("--players", type=int, choices=(3, 4, 5), default=4, help="number of seats (default 4)")
    sub.add_argument("--seed", type=int, default=1, help="the game's seed (default 1)")
    _add_theme(sub)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="darkempire", description="Dark Empire: Revolution (Steam Noir: Revolution), the card game."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="{demo,play,replay,simulate}")
    demo_parser = commands.add_parser("demo", help="watch bots play a whole game, week by week")
    _add_game(demo_parser)
    add_bots_argument(demo_parser, default="greedy")
    demo_parser.add_argument("--record", metavar="FILE", help="also write the game record (JSON) to FILE")
    demo_parser.add_argument(
        "--public-record",
        metavar="FILE",
        help="also write the public record (JSON: no seed, nothing hidden; safe to share) to FILE",
    )
    play_parser = commands.add_parser("play", help="play one seat against greedy bots at the terminal")
    _add_game(play_parser)
    play_parser.add_argument("--seat", type=int, default=0, help="your seat, 0 to players-1 (default 0)")
    simulate.add_arguments(commands.add_parser("simulate", help="play many seeded bot games and sum up how they ended"))
    replay_parser = commands.add_parser("replay", help="replay a game record, check its verdict and print it")
    replay_parser.add_argument("file", metavar="FILE", help="a game record (demo --record) or a public record (demo --public-record)")
    replay_parser.add_argument("--seat", type=int, help="show what this seat saw (with --week)")
    replay_parser.add_argument("--week", type=int, help="show week 1-12 as the seat (or a spectator) saw it")
    _add_theme(replay_parser)
    return parser


def _bot_kinds(parser: argparse.ArgumentParser, spec: str, players: int) -> list[str]:
    kinds = [k.strip() for k in spec.split(",")]
    unknown = [k for k in kinds if k not in BOT_KINDS]
    if unknown:
        parser.error(f"--bots: unknown bot kind {unknown[0]!r}; choose from {', '.join(sorted(BOT_KINDS))}")
    if len(kinds) == 1:
        return kinds * players
    if len(kinds) != players:
        parser.error(f"--bots: give one kind, or one per seat ({players}), not {len(kinds)}")
    return kinds


def _dispatch(parser: argparse.ArgumentParser, args: argparse.Namespace, console: Console) -> int:
    """Run the subcommand that ``args`` name; bad combinations of arguments exit through ``parser``."""
    theme = _THEMES[args.theme]
    if args.command == "demo":
        kinds = _bot_kinds(parser, args.bots, args.players)
        return demo.run(console, args.players, args.seed, theme, kinds, args.record, args.public_record)
    if args.command == "simulate":
        return simulate.run(console, args, _bot_kinds(parser, args.bots, args.players), theme)
    if args.command == "replay":
        return replay.replay_command(console, args.file, theme, seat=args.seat, week=args.week)
    if not 0 <= args.seat < args.players:
        parser.error(f"--seat must be from 0 to {args.players - 1} in a {args.players}-player game")
    return play.run(console, args.players, args.seed, theme, args.seat)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``darkempire`` command with ``argv`` (default: the process arguments).

    :returns: the exit status: 0 when done, 1 when the player leaves ``play``,
        130 after Ctrl-C. Bad arguments exit with status 2 and a message
        (:class:`SystemExit`, from :mod:`argparse`).
    """
    parser = _parser()
    args = parser.parse_args(argv)
    console = Console(file=sys.stdout, highlight=False, soft_wrap=True, emoji=False)
    try:
        return _dispatch(parser, args, console)
    except play.PlayerLeft as left:
        Console(file=sys.stderr, highlight=False).print(f"Game abandoned: {left}.")
        return EXIT_LEFT
    except KeyboardInterrupt:
        Console(file=sys.stderr, highlight=False).print("Interrupted.")
        return EXIT_INTERRUPTED
    except DarkEmpireError as error:  # an engine refusal is a bug, but report it as one line
        # soft_wrap: one line however narrow the terminal, so a script can read the error from it
        Console(file=sys.stderr, highlight=False, soft_wrap=True).print(f"darkempire: {escape(str(error))}")
        return EXIT_LEFT
