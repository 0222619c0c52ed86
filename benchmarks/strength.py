"""How strong the bots are: a share of games won, with a Wilson interval, and the search's time per decision.

Three line-ups, the tested bot's seat rotated (game ``g`` seats it at ``g % players``):

* ``search``: one :class:`~darkempire.search.bot.SearchBot` against GreedyBots in every other seat;
* ``mirror``: one GreedyBot against GreedyBots, the baseline the search must beat;
* ``greedy``: one GreedyBot against :class:`~darkempire.bots.RandomBot` seats.

**Shared wins.** The rules make every seat of a shared win a winner (rules 8.2-8.5), so a game counts as won
when the tested seat is among the verdict's winners, shared or not; the share with a shared win counted as
``1 / len(winners)`` is printed too.

**Time.** The search bot's CPU time (:func:`time.process_time`) per call of ``choose``: the mean, the largest,
and how many calls took more than 50 ms; the machine may be shared, so CPU time is the figure to read, and
the load average is printed beside it. Games are played on the kernel (the greedy and random seats on its
integers, the search bot asked with its view, the same games as on the reference engine), ``--jobs`` at once.

``python benchmarks/strength.py --games 400 --jobs 2`` or ``nox -s strength``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from tablekit.stats import wilson_interval

from darkempire.bots import Bot, GreedyBot, RandomBot, run_game
from darkempire.kernel import COMPILED
from darkempire.rules.actions import Action
from darkempire.rules.state import GameConfig
from darkempire.rules.views import PlayerView
from darkempire.search.bot import SearchBot

#: The 50 ms per decision the search must stay within.
SLOW = 0.050


class Timed:
    """A bot whose calls of ``choose`` are counted and timed in CPU time: the total, the largest, the slow ones."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.decisions = 0
        self.cpu = 0.0
        self.longest = 0.0
        self.slow = 0

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        started = time.process_time()
        action = self.bot.choose(view, legal)
        spent = time.process_time() - started
        self.cpu += spent
        self.longest = max(self.longest, spent)
        self.slow += spent > SLOW
        self.decisions += 1
        return action


def play(kind: str, players: int, game: int, options: dict[str, float]) -> tuple[float, float, float, float, int, int]:
    """One game of line-up ``kind``: (won, won split, CPU seconds, longest, slow decisions, decisions)."""
    seat = game % players
    tested: Bot
    others: list[Bot]
    if kind == "search":
        tested = SearchBot(game, **options)  # type: ignore[arg-type]
        others = [GreedyBot(1000 * game + s) for s in range(players)]
    elif kind == "mirror":
        tested, others = GreedyBot(game), [GreedyBot(1000 * game + s) for s in range(players)]
    else:
        tested, others = GreedyBot(game), [RandomBot(1000 * game + s) for s in range(players)]
    timed = Timed(tested)
    others[seat] = timed
    verdict = run_game(GameConfig(players=players), game, others, engine="kernel").verdict
    assert verdict is not None
    won = seat in verdict.winners
    return float(won), (1 / len(verdict.winners) if won else 0.0), timed.cpu, timed.longest, timed.slow, timed.decisions


def line_up(kind: str, players: int, games: int, first: int, jobs: int, options: dict[str, float]) -> dict[str, float]:
    """Play ``games`` games of line-up ``kind`` from game seed ``first``; the figures of the tested seat."""
    seeds = range(first, first + games)
    with ProcessPoolExecutor(jobs) as pool:
        results = list(pool.map(play, [kind] * games, [players] * games, seeds, [options] * games, chunksize=4))
    wins = sum(r[0] for r in results)
    decisions = max(sum(r[5] for r in results), 1)
    low, high = wilson_interval(int(wins), games)
    return {
        "games": games,
        "wins": wins,
        "rate": wins / games,
        "low": low,
        "high": high,
        "share": sum(r[1] for r in results) / games,
        "cpu_ms": 1000 * sum(r[2] for r in results) / decisions,
        "max_ms": 1000 * max(r[3] for r in results),
        "slow": sum(r[4] for r in results),
        "decisions": decisions,
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per line-up (default 400)")
    parser.add_argument("--first", type=int, default=0, help="first game seed (default 0)")
    parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5), help="seats (default 4)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="games played at once (default: the cores)")
    parser.add_argument("--worlds", type=int, help="SearchBot's most worlds per decision (default its own)")
    parser.add_argument("--playouts", type=int, help="SearchBot's week-long playouts per decision (default its own)")
    parser.add_argument("--milliseconds", type=float, help="SearchBot's CPU budget per decision instead")
    parser.add_argument("--only", choices=("search", "mirror", "greedy"), help="one line-up only")
    args = parser.parse_args(argv)
    options = {name: getattr(args, name) for name in ("worlds", "playouts", "milliseconds") if getattr(args, name) is not None}
    print(f"{args.players} players, game seeds {args.first}-{args.first + args.games - 1}, {args.jobs} at once, "
          f"compiled kernel: {COMPILED}, SearchBot options: {options or 'defaults'}", flush=True)
    print("| line-up | games | won (shared counted whole) | 95% Wilson | won (shared split) | "
          "CPU ms/decision: mean | max | over 50 ms |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    others = args.players - 1
    line_ups = (
        ("search", f"1 SearchBot vs {others} GreedyBot"),
        ("mirror", f"1 GreedyBot vs {others} GreedyBot"),
        ("greedy", f"1 GreedyBot vs {others} RandomBot"),
    )
    for kind, title in line_ups:
        if args.only not in (None, kind):
            continue
        r = line_up(kind, args.players, args.games, args.first, args.jobs, options)
        timing = (f"{r['cpu_ms']:.1f} | {r['max_ms']:.1f} | {r['slow']:.0f} of {r['decisions']:.0f}"
                  if kind == "search" else "- | - | -")
        print(
            f"| {title} | {r['games']:.0f} | {r['wins']:.0f} ({100 * r['rate']:.1f}%) | "
            f"{100 * r['low']:.1f}-{100 * r['high']:.1f}% | {100 * r['share']:.1f}% | {timing} |",
            flush=True,
        )
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", file=sys.stderr)


if __name__ == "__main__":
    main()
