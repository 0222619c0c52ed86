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

The kernel is measured twice: the pure modules in this process (the script sets ``DARKEMPIRE_PURE_KERNEL``),
and the compiled build (``python -m darkempire.kernel.build``, which ``nox -s kernel_speed`` runs) in a
subprocess per round, which times itself the same way; without a build its row says why
(:data:`darkempire.kernel.BUILD_REASON`).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

# This process measures the pure kernel, whatever is built; the compiled one runs in compiled_worker's subprocess,
# which this variable marks (peers.py, which imports this module, runs its worker the same way).
WORKER_ENV = "DARKEMPIRE_BENCH_WORKER"
if os.environ.get(WORKER_ENV) != "compiled":
    os.environ["DARKEMPIRE_PURE_KERNEL"] = "1"

from darkempire.kernel import deal as kernel_deal  # noqa: E402
from darkempire.rules import engine  # noqa: E402
from darkempire.rules.state import GameConfig  # noqa: E402


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


def compiled_worker(*arguments: str) -> dict[str, Any]:
    """Run ``arguments`` of a benchmark script (``sys.argv[0]``-style: the script's path first) in a fresh
    interpreter allowed to load the compiled kernel; its one line of JSON output."""
    env = {name: value for name, value in os.environ.items() if name != "DARKEMPIRE_PURE_KERNEL"}
    env[WORKER_ENV] = "compiled"
    result = subprocess.run([sys.executable, *arguments], env=env, capture_output=True, text=True, check=True)
    answer = json.loads(result.stdout.splitlines()[-1])
    assert isinstance(answer, dict)
    return answer


def compiled_round(games: int, players: int) -> dict[str, Any]:
    """:func:`kernel_round` in a subprocess that may load the compiled kernel: ``compiled`` (whether it did),
    ``reason`` (:data:`darkempire.kernel.BUILD_REASON`), and ``decisions``, ``seconds``, ``per_game``."""
    return compiled_worker(str(Path(__file__).resolve()), "--worker", "--games", str(games), "--players", str(players))


def _worker(games: int, players: int) -> int:
    import darkempire.kernel

    answer: dict[str, Any] = {"compiled": darkempire.kernel.COMPILED, "reason": darkempire.kernel.BUILD_REASON}
    if darkempire.kernel.COMPILED:
        kernel_round(1, players)  # untimed, as the pure kernel's first round in this process is not alone
        decisions, seconds, per_game = kernel_round(games, players)
        answer.update(decisions=decisions, seconds=seconds, per_game=per_game)
    print(json.dumps(answer))
    return 0


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
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)  # compiled_round's subprocess
    args = parser.parse_args(argv)
    if args.worker:
        return _worker(args.games, args.players[0])
    print(f"{args.games} kernel and {args.reference_games} reference random games per round and player count, "
          f"{args.rounds} interleaved rounds, CPU time")
    missing = ""
    for players in args.players:
        rates: dict[str, list[float]] = {"kernel": [], "compiled": [], "reference": []}
        games: dict[str, list[float]] = {"kernel": [], "compiled": []}
        for round_ in range(args.rounds):
            order = ("kernel", "compiled", "reference")
            for name in order if round_ % 2 == 0 else order[::-1]:
                if name == "kernel":
                    decisions, seconds, per_game = kernel_round(args.games, players)
                    games[name] += per_game
                elif name == "compiled":
                    if missing:
                        continue
                    answer = compiled_round(args.games, players)
                    if not answer["compiled"]:
                        missing = answer["reason"]
                        continue
                    decisions, seconds = answer["decisions"], answer["seconds"]
                    games[name] += answer["per_game"]
                else:
                    decisions, seconds = reference_round(args.reference_games, players)
                rates[name].append(decisions / seconds)
        kernel, reference = statistics.median(rates["kernel"]), statistics.median(rates["reference"])
        print(
            f"{players} players: pure kernel {kernel:,.0f} decisions/s | reference {reference:,.0f} decisions/s | "
            f"{kernel / reference:.1f}x | median pure kernel game {statistics.median(games['kernel']) * 1e3:.2f} ms"
        )
        if rates["compiled"]:
            compiled = statistics.median(rates["compiled"])
            print(
                f"{players} players: compiled kernel {compiled:,.0f} decisions/s | {compiled / kernel:.1f}x the pure "
                f"kernel | {compiled / reference:.1f}x the reference | median compiled kernel game "
                f"{statistics.median(games['compiled']) * 1e3:.2f} ms"
            )
    if missing:
        print(f"compiled kernel: not measured, {missing}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
