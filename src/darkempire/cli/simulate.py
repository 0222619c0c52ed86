"""``darkempire simulate``: play many seeded bot games and sum up how they ended (spec 8.1-8.5).

``darkempire simulate [--players N] [--games G] [--seed S] [--bots ...] [--backend B] [--workers J] [--json] [--plot FILE.png] [--report DIR]``
plays ``G`` seeded bot games in ``J`` worker processes and prints the
outcomes, the win rates per seat and per bot kind with 95% intervals, and the
mean totals and tokens. The games, the statistics and the plot are
:mod:`darkempire.simulation`'s; this module plugs its command line
(:func:`~darkempire.simulation.add_arguments`,
:func:`~darkempire.simulation.simulate_command`) into ``darkempire``.

``--report DIR`` (with ``--players`` one count, several, or ``all``) writes the balance report instead
(:mod:`darkempire.balance`): plots, a Markdown page and the per-game CSV.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from pathlib import Path

from rich.console import Console

from darkempire.rules.cards import Theme
from darkempire.simulation import add_arguments as add_simulate_arguments
from darkempire.simulation import simulate_command

__all__ = ["add_arguments", "report", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``simulate`` subcommand's options to ``parser`` (see :func:`darkempire.simulation.add_arguments`)."""
    add_simulate_arguments(parser)
    parser.add_argument(
        "--report", metavar="DIR",
        help="write the balance report to DIR (created if needed): plots, index.md and games.csv (needs matplotlib)",
    )


def run(console: Console, args: argparse.Namespace, bots: Sequence[str], theme: Theme) -> int:
    """Run the simulation that the parsed ``args`` ask for, with the seats' bot kinds ``bots``.

    :returns: the exit status: 0 when done, 2 for bad arguments or a missing matplotlib.
    """
    return simulate_command(console, args, bots, theme=theme)


def report(console: Console, args: argparse.Namespace, kinds: Mapping[int, Sequence[str]], theme: Theme) -> int:
    """Write the balance report that ``--report`` asks for, with each player count's seat bot kinds ``kinds``.

    :returns: the exit status: 0 when done.
    """
    from darkempire.balance.command import run_report
    from darkempire.execution import backend_from_args

    run_report(
        console, Path(args.report), kinds, games=args.games, seed=args.seed, backend=backend_from_args(args),
        engine=getattr(args, "engine", "auto"), theme=theme,
    )
    return 0
