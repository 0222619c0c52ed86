"""How much slower the pure reference engine is than the old engine of ae1403c (issue 13), in CPU seconds.

Issue 13 made the reference engine pure (no module state, caches, memos, identity tables or slot writers) and
allowed it to be at most 1.5 times slower than the old one. This script measures that ratio on one workload:
``--games`` four-player (and three- and five-player) games of RandomBot seats, played with
:func:`darkempire.bots.run_game`, seeds ``0 .. games - 1``, the bots of game ``g`` seeded ``10 * g + seat``.

The old engine's ``src/`` is taken from git (``git archive REV src``) into a temporary directory. Each
measurement is a fresh subprocess that imports one engine (``PYTHONPATH``) and prints the CPU seconds
(:func:`time.process_time`) of the games alone, so start-up and imports do not count. The rounds are
interleaved, old and new in turns with the order flipped every round, so that a busy machine slows both
alike; the ratio reported is the median of the rounds' ratios.

With ``--instructions`` it counts instructions instead of seconds: each engine runs the games under
valgrind's callgrind (``valgrind`` must be on the path), once with ``--games`` games and once with none, and
the difference divided by the games is its instructions per game. That figure does not depend on what else
the machine runs, so it compares the engines even on a busy machine; the old engine's caches fill as games go
on, so use the same ``--games`` for both (the default in this mode is 20: a game runs about 50 times slower
under callgrind).

Not a test: it asserts nothing. Run it with ``nox -s reference_speed`` or directly::

    python benchmarks/reference_speed.py --rounds 5 --players 4
    python benchmarks/reference_speed.py --instructions
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The workload, run in each subprocess: ``python -c WORKLOAD games players`` prints CPU seconds.
WORKLOAD = """
import sys, time
from darkempire import GameConfig
from darkempire.bots import RandomBot, run_game
games, players = int(sys.argv[1]), int(sys.argv[2])
config = GameConfig(players=players)
start = time.process_time()
for seed in range(games):
    run_game(config, seed, [RandomBot(seed * 10 + s) for s in range(players)])
print(time.process_time() - start)
"""


def extract(rev: str, into: Path) -> Path:
    """The ``src/`` directory of ``rev``, extracted from this repository's git history into ``into``."""
    archive = subprocess.run(["git", "archive", rev, "src"], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into / "src"


def measure(src: Path, games: int, players: int) -> float:
    """CPU seconds of the workload with the engine of ``src``, in a fresh interpreter."""
    env = {**os.environ, "PYTHONPATH": str(src), "PYTHONHASHSEED": "0"}
    run = subprocess.run(
        [sys.executable, "-c", WORKLOAD, str(games), str(players)], env=env, capture_output=True, text=True, check=True
    )
    return float(run.stdout.split()[-1])


def instructions(src: Path, games: int, players: int) -> float:
    """Instructions per game of the workload with the engine of ``src``, counted by callgrind (start-up and
    imports subtracted: the same run with no game)."""

    def total(count: int) -> int:
        with tempfile.TemporaryDirectory(prefix="reference-callgrind-") as tmp:
            out = Path(tmp) / "callgrind.out"
            env = {**os.environ, "PYTHONPATH": str(src), "PYTHONHASHSEED": "0"}
            subprocess.run(
                ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c", WORKLOAD,
                 str(count), str(players)],
                env=env, capture_output=True, check=True,
            )  # fmt: skip
            for line in out.read_text().splitlines():
                if line.startswith(("summary:", "totals:")):
                    return int(line.split()[1])
        raise RuntimeError(f"callgrind wrote no total for {src}")

    return (total(games) - total(0)) / games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", default="ae1403c", help="the old engine's revision (default ae1403c)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds per player count (default 3)")
    parser.add_argument("--games", type=int, help="games per measurement (default 100; 20 with --instructions)")
    parser.add_argument("--instructions", action="store_true", help="count instructions with callgrind instead")
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5], help="player counts (default 3 4 5)")
    args = parser.parse_args(argv)
    if args.games is None:
        args.games = 20 if args.instructions else 100
    with tempfile.TemporaryDirectory(prefix="reference-speed-") as tmp:
        engines = {"old": extract(args.rev, Path(tmp)), "new": ROOT / "src"}
        if args.instructions:
            print(f"old: {args.rev}; new: the working tree; instructions per game over {args.games} games (callgrind)")
            for players in args.players:
                old, new = (instructions(engines[name], args.games, players) for name in ("old", "new"))
                print(f"{players} players: old {old / 1e6:.1f} M | new {new / 1e6:.1f} M | ratio {new / old:.2f}")
            return 0
        print(f"old: {args.rev}; new: the working tree; {args.games} games of RandomBots per measurement")
        for players in args.players:
            seconds: dict[str, list[float]] = {"old": [], "new": []}
            for round_ in range(args.rounds):
                for name in ("old", "new") if round_ % 2 == 0 else ("new", "old"):
                    seconds[name].append(measure(engines[name], args.games, players))
            ratios = [new / old for old, new in zip(seconds["old"], seconds["new"], strict=True)]
            old_text = " ".join(f"{s:.2f}" for s in seconds["old"])
            new_text = " ".join(f"{s:.2f}" for s in seconds["new"])
            print(
                f"{players} players: old {old_text} s | new {new_text} s | "
                f"ratios {' '.join(f'{r:.2f}' for r in ratios)} | median ratio {statistics.median(ratios):.2f}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
