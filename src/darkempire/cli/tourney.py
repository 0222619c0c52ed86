"""``darkempire tournament``: bots against bots over many games, seats rotated, rated with openskill.

``darkempire tournament --bots greedy,random,random,greedy [--players N] [--games G] [--seed S]
[--backend serial|process|dask] [--address tcp://...] [--workers W] [--json]`` plays the entrants that
``--bots`` lists (:mod:`darkempire.tournament`) and prints their ratings and head-to-head win rates.
"""

from __future__ import annotations

import argparse
import time

from rich.console import Console

from tablekit.cli import UsageError

from darkempire.bots import BOT_KINDS
from darkempire.execution import BackendError, add_backend_arguments, backend_from_args
from darkempire.simulation import ENGINES, MAX_GAMES
from darkempire.tournament import print_json, print_result, progress_bar, round_length, tournament

__all__ = ["DEFAULT_GAMES", "add_arguments", "command"]

#: Games played without ``--games``: rounded up to a whole number of rounds.
DEFAULT_GAMES = 400


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``tournament`` subcommand's options to ``parser``."""
    parser.add_argument(
        "--bots",
        default="greedy,random,random,greedy",
        help="the entrants, comma-separated bot kinds (a kind twice is two entrants): "
        + ", ".join(sorted(BOT_KINDS)),
    )
    parser.add_argument(
        "--players", type=int, choices=(3, 4, 5), default=None,
        help="seats per game (default one per entrant); with more entrants, every set of that many plays",
    )
    parser.add_argument(
        "--games", type=int, default=None,
        help=f"games to play, a whole number of rounds (default the first whole number of rounds from {DEFAULT_GAMES})",
    )
    parser.add_argument("--seed", type=int, default=1, help="the run's seed; each deal's seed derives from it")
    parser.add_argument("--engine", choices=ENGINES, default="auto", help="engine to play on; results do not depend on it")
    add_backend_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")


def command(args: argparse.Namespace, out: Console) -> int:
    """Run ``darkempire tournament`` with parsed ``args``, printing to ``out``.

    :raises UsageError: for an unknown bot kind, too few entrants, a number of games that is not whole rounds,
        or backend options that do not fit together.
    """
    kinds = [kind.strip() for kind in args.bots.split(",")]
    unknown = [k for k in kinds if k not in BOT_KINDS]
    if unknown:
        raise UsageError(f"--bots: unknown bot kind {unknown[0]!r}; choose from {', '.join(sorted(BOT_KINDS))}")
    players = len(kinds) if args.players is None else args.players
    if players not in (3, 4, 5):
        raise UsageError(f"--bots: {len(kinds)} entrants; give 3 to 5, or more with --players")
    if len(kinds) < players:
        raise UsageError(f"--players {players} needs at least {players} entrants in --bots, not {len(kinds)}")
    length = round_length(len(kinds), players)
    games = args.games if args.games is not None else length * -(-DEFAULT_GAMES // length)
    if games > MAX_GAMES:
        raise UsageError(f"--games must be at most {MAX_GAMES:,} in one run, not {games:,}; run several seeds")
    if games < 1 or games % length:
        lower = max(length, games - games % length)
        raise UsageError(
            f"--games must be a whole number of rounds of {length} games (every entrant in every seat), "
            f"such as {lower} or {lower + length}, not {games}"
        )
    try:
        backend = backend_from_args(args)
    except BackendError as error:
        raise UsageError(str(error)) from None
    started = time.perf_counter()
    with progress_bar(games) as bar:
        task = bar.add_task("games", total=games)
        result = tournament(
            kinds, games, args.seed, players=players, backend=backend, engine=args.engine,
            progress=lambda n: bar.advance(task, n),
        )
    elapsed = time.perf_counter() - started
    if args.json:
        print_json(out, result)
    else:
        heading = (
            f"[bold]{games} games[/bold], {players} players, seed {args.seed}, entrants {','.join(kinds)}: "
            f"{elapsed:.1f} s on the {backend.describe()}"
        )
        print_result(out, result, heading)
    return 0
