"""How strong the bots are: a share of games won, with a Wilson interval (issue 15, part 2).

Two line-ups of 4-player games, the tested bot's seat rotated (game ``g`` seats it at ``g % 4``):

* ``ismcts``: one :class:`~darkempire.search.bot.SearchBot` against three :class:`~darkempire.bots.GreedyBot`;
* ``mirror``: one GreedyBot against three GreedyBots, the baseline the search must beat;
* ``greedy``: one GreedyBot against three :class:`~darkempire.bots.RandomBot`.

**Shared wins.** The rules make every seat of a shared win a winner (rules 8.2-8.5), so a game counts as won
when the tested seat is among the verdict's winners, shared or not; the share with a shared win counted as
``1 / len(winners)`` is printed too. A seat that wins alone a quarter of the games of four equal bots wins
25 %; with shared wins counted whole, equal bots win a little more than 25 %.

The time per decision is the search bot's CPU time (:func:`time.process_time`) per call of ``choose``,
and its wall time; the machine is shared, so the CPU figure is the one to compare with the 50 ms target.
Run it with ``nice``: ``nice python benchmarks/strength.py --games 100`` or ``nox -s strength``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Sequence

from darkempire.bots import Bot, GreedyBot, RandomBot, run_game
from darkempire.rules.actions import Action
from darkempire.rules.state import GameConfig
from darkempire.rules.views import PlayerView
from darkempire.search.bot import SearchBot

PLAYERS = 4


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / games`` (95 % for ``z = 1.96``)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


class Timed:
    """A bot whose calls of ``choose`` are counted and timed, in CPU and wall time."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.decisions = 0
        self.cpu = 0.0
        self.wall = 0.0

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        cpu, wall = time.process_time(), time.perf_counter()
        action = self.bot.choose(view, legal)
        self.cpu += time.process_time() - cpu
        self.wall += time.perf_counter() - wall
        self.decisions += 1
        return action


def line_up(kind: str, games: int, first: int, iterations: int, epsilon: float = 0.1) -> dict[str, float]:
    """Play ``games`` games of line-up ``kind`` from game seed ``first``; the figures of the tested seat."""
    wins = share = 0.0
    timed_total = Timed(RandomBot(0))
    for game in range(first, first + games):
        seat = game % PLAYERS
        tested: Bot
        if kind == "ismcts":
            tested = SearchBot(game, iterations=iterations, epsilon=epsilon)
            bots: list[Bot] = [GreedyBot(1000 * game + s) for s in range(PLAYERS)]
        elif kind == "mirror":
            tested = GreedyBot(game)
            bots = [GreedyBot(1000 * game + s) for s in range(PLAYERS)]
        else:
            tested = GreedyBot(game)
            bots = [RandomBot(1000 * game + s) for s in range(PLAYERS)]
        timed = Timed(tested)
        bots[seat] = timed
        verdict = run_game(GameConfig(players=PLAYERS), game, bots).verdict
        assert verdict is not None
        if seat in verdict.winners:
            wins += 1
            share += 1 / len(verdict.winners)
        timed_total.decisions += timed.decisions
        timed_total.cpu += timed.cpu
        timed_total.wall += timed.wall
        played = game - first + 1
        if played % 10 == 0:  # progress on stderr: a long run on a loaded machine can be read before it ends
            print(f"{kind}: {wins:.0f} won of {played}", file=sys.stderr, flush=True)
    low, high = wilson(wins, games)
    decisions = max(timed_total.decisions, 1)
    return {
        "games": games,
        "wins": wins,
        "rate": wins / games,
        "low": low,
        "high": high,
        "share": share / games,
        "cpu_ms": 1000 * timed_total.cpu / decisions,
        "wall_ms": 1000 * timed_total.wall / decisions,
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per line-up (default 100)")
    parser.add_argument("--first", type=int, default=0, help="first game seed (default 0)")
    parser.add_argument("--iterations", type=int, default=64, help="SearchBot playouts per decision (default 64)")
    parser.add_argument("--epsilon", type=float, default=0.1, help="SearchBot playouts' random share (default 0.1)")
    parser.add_argument("--only", choices=("ismcts", "mirror", "greedy"), help="one line-up only")
    args = parser.parse_args(argv)
    print("| line-up | games | won (shared counted whole) | 95% Wilson | share (shared split) | CPU ms/decision | wall ms/decision |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    line_ups = (
        ("ismcts", "1 SearchBot vs 3 GreedyBot"),
        ("mirror", "1 GreedyBot vs 3 GreedyBot"),
        ("greedy", "1 GreedyBot vs 3 RandomBot"),
    )
    for kind, title in line_ups:
        if args.only not in (None, kind):
            continue
        r = line_up(kind, args.games, args.first, args.iterations, args.epsilon)
        print(
            f"| {title} | {r['games']:.0f} | {r['wins']:.0f} ({100 * r['rate']:.1f}%) | "
            f"{100 * r['low']:.1f}-{100 * r['high']:.1f}% | {100 * r['share']:.1f}% | "
            f"{r['cpu_ms']:.1f} | {r['wall_ms']:.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
