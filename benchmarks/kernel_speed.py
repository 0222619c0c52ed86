"""How fast the playout kernel plays random games, against the reference engine in the same run.

The workload is random playouts from the deal: ``--games`` games of each player count (3, 4, 5), seeds
``0 .. games - 1``, every choice uniformly random among the deciding seat's legal actions. The kernel plays
them with :func:`darkempire.kernel.interface.deal` and :meth:`~darkempire.kernel.interface.Kernel.playout`; the reference with
:func:`darkempire.rules.engine.deal`, :func:`~darkempire.rules.engine.legal_actions` (lazy: one action built
per choice) and :func:`~darkempire.rules.engine.apply`, as a random bot driver does, without views. A
decision is one seat's choice (one ``apply``). Rounds alternate kernel and reference, the order flipped every
round, so that a busy machine slows both alike; CPU seconds (:func:`time.process_time`).

It reports decisions per second of each and the median CPU time of one whole 5-player kernel game (deal and
playout). Targets of the issue: 300,000 decisions/s on one core, a 5-player game under 1 ms. Not a test: it
asserts nothing. Run it with ``nox -s kernel_speed`` or directly::

    python benchmarks/kernel_speed.py --rounds 5 --games 200
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from darkempire.kernel import deal as kernel_deal
from darkempire.rules import engine
from darkempire.rules.state import GameConfig


def kernel_round(games: int, players: int) -> tuple[int, float, list[float]]:
    """Decisions, CPU seconds and each game's CPU seconds of ``games`` kernel playouts."""
    decisions = 0
    per_game = []
    start = time.process_time()
    for seed in range(games):
        begin = time.process_time()
        kernel = kernel_deal(players, seed)
        decisions += kernel.playout(random.Random(seed))
        per_game.append(time.process_time() - begin)
    return decisions, time.process_time() - start, per_game


def reference_round(games: int, players: int) -> tuple[int, float]:
    """Decisions and CPU seconds of ``games`` random games through the reference engine."""
    decisions = 0
    config = GameConfig(players=players)
    start = time.process_time()
    for seed in range(games):
        rng = random.Random(seed)
        state = engine.deal(config, seed)
        while not state.is_over:
            seat = min(engine.awaited_seats(state))
            legal = engine.legal_actions(state, seat)
            state = engine.apply(state, seat, legal[rng.randrange(len(legal))])
            decisions += 1
    return decisions, time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    parser.add_argument("--games", type=int, default=200, help="kernel games per round and player count (default 200)")
    parser.add_argument("--reference-games", type=int, default=20, help="reference games per round (default 20)")
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5], help="player counts (default 3 4 5)")
    args = parser.parse_args(argv)
    print(f"{args.games} kernel and {args.reference_games} reference random games per round and player count, "
          f"{args.rounds} interleaved rounds, CPU time")
    for players in args.players:
        rates: dict[str, list[float]] = {"kernel": [], "reference": []}
        games: list[float] = []
        for round_ in range(args.rounds):
            for name in ("kernel", "reference") if round_ % 2 == 0 else ("reference", "kernel"):
                if name == "kernel":
                    decisions, seconds, per_game = kernel_round(args.games, players)
                    games += per_game
                else:
                    decisions, seconds = reference_round(args.reference_games, players)
                rates[name].append(decisions / seconds)
        kernel, reference = statistics.median(rates["kernel"]), statistics.median(rates["reference"])
        print(
            f"{players} players: kernel {kernel:,.0f} decisions/s | reference {reference:,.0f} decisions/s | "
            f"{kernel / reference:.1f}x | median kernel game {statistics.median(games) * 1e3:.2f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
