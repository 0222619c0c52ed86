"""Many seeded bot games at once, for balance studies and bot testing (spec 8.1-8.5, 9.3).

:func:`simulate` plays ``games`` games between bots and sums up how they
ended: the verdict reasons, each seat's and each bot kind's win rate with a
95% Wilson confidence interval, the mean faction totals, the emperor's total
and the seats' tokens. ``darkempire simulate`` is its command line
(:func:`simulate_command`).

Seeds: game ``i`` (0-based) of a run with seed ``S`` has the seed
``game_seeds(S, G)[i]`` (:func:`game_seeds`), and seat ``s``'s bot in that
game is seeded with ``10 * game_seed + s``, as in ``darkempire demo``, so
``darkempire demo --seed <game seed> --bots <kinds>`` replays any single game.
The games are split into chunks that worker processes play
(:class:`concurrent.futures.ProcessPoolExecutor`), and the results are put
back in game order, so the summary is the same for every number of jobs.

Outcomes: a game with one winning seat counts under its verdict reason
(emperor victory, revolution, leader too powerful; rules 8.2-8.4); a game
with two or more winning seats counts as a shared win (rule 8.5) whatever its
reason, so the four outcome counts add up to the number of games. Every
winner of a shared win counts as winning for the seat and bot win rates.

>>> summary = simulate(players=3, games=4, seed=1, bots=["random"])
>>> summary.games, sum(summary.outcomes.values())
(4, 4)
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import partial
from typing import Any, Final

import attrs
from rich.console import Console
from rich.markup import escape

from tablekit.stats import Rate, wilson_interval

from darkempire.bots import BOT_KINDS, Bot, make_bot, run_game
from darkempire.execution import Backend, add_backend_arguments, backend_from_args, map_in_order
from darkempire.kernel import deal
from darkempire.kernel.greedy import GreedySeat
from darkempire.kernel.playout import play_bots
from darkempire.rules.cards import Faction, Theme, faction_name
from darkempire.rules.scoring import VerdictReason
from darkempire.rules.state import GameConfig

__all__ = [
    "ENGINES",
    "OUTCOMES",
    "PLAYER_COUNTS",
    "SHARED_WIN",
    "GameResult",
    "Rate",
    "Summary",
    "add_arguments",
    "add_bots_argument",
    "game_seeds",
    "play_game",
    "player_counts",
    "plot_summary",
    "simulate",
    "simulate_command",
    "summarize",
    "wilson_interval",
]

#: The outcome of a game won by two or more seats (rule 8.5), whatever its verdict reason.
SHARED_WIN = "shared win"
#: The four outcomes counted by :func:`summarize`, in report order; they add up to the games played.
OUTCOMES: tuple[str, ...] = (
    VerdictReason.EMPEROR_VICTORY.value,
    VerdictReason.REVOLUTION.value,
    VerdictReason.LEADER_TOO_POWERFUL.value,
    SHARED_WIN,
)


@attrs.frozen
class GameResult:
    """How one simulated game ended (rules 8.1-8.5).

    :ivar seed: the game's seed.
    :ivar reason: the verdict reason.
    :ivar winners: the winning seats, sorted.
    :ivar totals: final faction totals in points, indexed by faction (5 entries).
    :ivar emperor_total: points of the scored emperor cards.
    :ivar tokens: each seat's banked tokens at the end, in points.
    :ivar card_points: each faction's points from scored cards only, indexed by faction (5 entries; empty in
        a result built without them). A faction's total is its card points plus its holder's tokens.
    :ivar victors: each seat's victor faction (empty in a result built without them).
    :ivar too_powerful: the faction that dropped out under the 15-point rule (8.4), if any.
    """

    seed: int
    reason: VerdictReason
    winners: tuple[int, ...]
    totals: tuple[int, ...]
    emperor_total: int
    tokens: tuple[int, ...]
    # Defaults keep results built by hand with the first six fields valid; the balance report needs these.
    card_points: tuple[int, ...] = ()
    victors: tuple[Faction, ...] = ()
    too_powerful: Faction | None = None

    @property
    def outcome(self) -> str:
        """One of :data:`OUTCOMES`: :data:`SHARED_WIN` for two or more winners, else the reason's value."""
        return SHARED_WIN if len(self.winners) > 1 else self.reason.value


@attrs.frozen
class Summary:
    """What :func:`simulate` found.

    :ivar players: seats per game, 3-5.
    :ivar games: games played.
    :ivar seed: the run's seed.
    :ivar bots: each seat's bot kind.
    :ivar outcomes: games per outcome, for each of :data:`OUTCOMES` (they add up to ``games``).
    :ivar shared_by_reason: shared wins per verdict reason (each of the three reasons).
    :ivar seats: each seat's win rate.
    :ivar bot_rates: each bot kind's win rate over all the seats it played, by kind.
    :ivar mean_totals: mean final total of each faction in points, indexed by faction.
    :ivar mean_emperor_total: mean points of the scored emperor cards.
    :ivar mean_tokens: each seat's mean banked tokens at the end, in points.
    :ivar results: every game's result, in game order.
    """

    players: int
    games: int
    seed: int
    bots: tuple[str, ...]
    outcomes: Mapping[str, int]
    shared_by_reason: Mapping[str, int]
    seats: tuple[Rate, ...]
    bot_rates: Mapping[str, Rate]
    mean_totals: tuple[float, ...]
    mean_emperor_total: float
    mean_tokens: tuple[float, ...]
    results: tuple[GameResult, ...] = attrs.field(repr=False)

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON-ready data (what ``darkempire simulate --json`` prints).

        Keys: ``players``, ``games``, ``seed``, ``bots``, ``outcomes`` (each of
        :data:`OUTCOMES` with ``count`` and ``percent``), ``shared_by_reason``,
        ``seats`` (``seat``, ``bot``, ``wins``, ``played``, ``rate``, ``ci95``),
        ``bot_rates`` (by kind: ``wins``, ``played``, ``rate``, ``ci95``),
        ``mean_faction_totals`` (by faction name), ``mean_emperor_total``,
        ``mean_tokens`` (``per_seat`` and ``all_seats``). No timings, so the
        output of a run does not depend on the machine or the number of jobs.
        """

        def rate(r: Rate) -> dict[str, Any]:
            return {"wins": r.wins, "played": r.played, "rate": r.rate, "ci95": [r.low, r.high]}

        return {
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "bots": list(self.bots),
            "outcomes": {
                name: {"count": count, "percent": _percent(count, self.games)} for name, count in self.outcomes.items()
            },
            "shared_by_reason": dict(self.shared_by_reason),
            "seats": [{"seat": s, "bot": self.bots[s], **rate(r)} for s, r in enumerate(self.seats)],
            "bot_rates": {kind: rate(r) for kind, r in self.bot_rates.items()},
            "mean_faction_totals": {f.name: self.mean_totals[f] for f in Faction},
            "mean_emperor_total": self.mean_emperor_total,
            "mean_tokens": {"per_seat": list(self.mean_tokens), "all_seats": _mean(self.mean_tokens)},
        }


def game_seeds(seed: int, games: int) -> list[int]:
    """The seeds of the ``games`` games of a run with ``seed``: 63-bit integers from a generator seeded
    with the string ``"darkempire-simulate:<seed>"`` (the same on every platform)."""
    rng = random.Random(f"darkempire-simulate:{seed}")
    return [rng.getrandbits(63) for _ in range(games)]


#: The most games one ``darkempire simulate`` or ``darkempire tournament`` run plays: every game's seed and
#: result is held in memory (a few hundred bytes each), so a typo such as ``--games 10000000000`` would fill
#: the machine's memory before the first game. A larger study is several runs with different ``--seed``.
MAX_GAMES: Final = 1_000_000

#: The engines :func:`simulate` and :func:`play_game` can play a game with (see :func:`play_game`).
ENGINES: tuple[str, ...] = ("auto", "kernel", "reference")


def play_game(players: int, seed: int, bots: Sequence[str], *, engine: str = "auto") -> GameResult:
    """Play one game between bots of the given kinds and return how it ended.

    Seat ``s``'s bot is seeded with ``10 * seed + s``. Every engine plays the same game and gives the same
    result; they differ in speed:

    * ``"reference"``: :func:`darkempire.bots.run_game` on the reference engine;
    * ``"kernel"``: the playout kernel (:func:`darkempire.kernel.playout.play_bots`). A random or greedy seat
      chooses on the kernel's integers with a generator seeded as its :class:`~darkempire.bots.RandomBot` or
      :class:`~darkempire.bots.GreedyBot` would be (:mod:`darkempire.kernel.greedy`); any other bot is asked
      with the reference's view, rebuilt from the kernel at its decisions;
    * ``"auto"`` (the default): the kernel when every seat is random or greedy, else the reference: a
      search bot spends its time searching, and rebuilding its view at each decision would cost more than
      the reference's own step.

    :raises ValueError: for an unknown bot kind or engine, or a wrong number of kinds.
    """
    if len(bots) != players:
        raise ValueError(f"{len(bots)} bot kinds for {players} seats")
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; choose from {', '.join(ENGINES)}")
    seeds = [10 * seed + s for s in range(players)]
    if engine == "reference" or (engine == "auto" and not set(bots) <= NATIVE_KINDS):
        state = run_game(GameConfig(players), seed, [make_bot(kind, s) for s, kind in zip(seeds, bots, strict=True)])
        verdict, tokens = state.verdict, state.banked_tokens
    else:
        kernel = deal(GameConfig(players), seed)
        play_bots(
            kernel,
            [_kernel_seat(kind, s) for s, kind in zip(seeds, bots, strict=True)],
        )
        verdict, tokens = kernel.verdict, tuple(kernel.banked)
    assert verdict is not None
    return GameResult(
        seed=seed,
        reason=verdict.reason,
        winners=tuple(sorted(verdict.winners)),
        totals=verdict.totals,
        emperor_total=verdict.emperor_total,
        tokens=tokens,
        card_points=verdict.card_points,
        victors=verdict.victors,
        too_powerful=verdict.too_powerful,
    )


#: The bot kinds the kernel plays on its own integers, without a view (:func:`play_game`).
NATIVE_KINDS: Final = frozenset({"greedy", "random"})


def _kernel_seat(kind: str, seed: int) -> random.Random | GreedySeat | Bot:
    """How the kernel plays a seat of ``kind`` whose bot is seeded with ``seed``."""
    if kind == "random":
        return random.Random(seed)
    if kind == "greedy":
        return GreedySeat(random.Random(seed))
    return make_bot(kind, seed)


def _play_chunk(players: int, bots: tuple[str, ...], seeds: Sequence[int], engine: str) -> list[GameResult]:
    """A worker's task: the games of ``seeds``, in order."""
    return [play_game(players, seed, bots, engine=engine) for seed in seeds]


def _chunks(seeds: list[int], jobs: int) -> Iterator[list[int]]:
    # Several chunks per worker keep both busy to the end and the progress bar moving; each chunk is
    # large enough that sending it and its results costs little next to playing it.
    size = max(1, min(200, math.ceil(len(seeds) / (jobs * 8))))
    for start in range(0, len(seeds), size):
        yield seeds[start : start + size]


def simulate(
    players: int,
    games: int,
    seed: int,
    bots: Sequence[str],
    *,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    engine: str = "auto",
    backend: Backend | None = None,
) -> Summary:
    """Play ``games`` seeded games between bots and summarize them (:func:`summarize`).

    :param players: seats per game, 3-5.
    :param games: games to play, 0 or more.
    :param seed: the run's seed; see :func:`game_seeds`.
    :param bots: one bot kind (a key of :data:`darkempire.bots.BOT_KINDS`)
        for every seat, or one per seat.
    :param jobs: worker processes; 1 plays in this process. The result does
        not depend on it.
    :param progress: called with the number of games just finished, as chunks finish.
    :param engine: one of :data:`ENGINES`, as :func:`play_game` takes it. The result does not depend on it.
    :param backend: where the games are played (:mod:`darkempire.execution`); ``None`` for a process pool of
        ``jobs`` workers, or this process when ``jobs`` is 1. The result does not depend on it.
    :raises ValueError: for a bad number of players, games or jobs, bad bot kinds or an unknown engine.
    :raises darkempire.execution.BackendError: when the backend cannot run (no Dask, no scheduler reached).
    """
    if players not in (3, 4, 5):
        raise ValueError(f"the game is for 3 to 5 players, not {players}")
    if games < 0 or jobs < 1:
        raise ValueError("games must be 0 or more and jobs 1 or more")
    kinds = tuple(bots) * players if len(bots) == 1 else tuple(bots)
    if len(kinds) != players:
        raise ValueError(f"give one bot kind, or one per seat ({players}), not {len(bots)}")
    unknown = [k for k in kinds if k not in BOT_KINDS]
    if unknown:
        raise ValueError(f"unknown bot kind {unknown[0]!r}; choose from {', '.join(sorted(BOT_KINDS))}")
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; choose from {', '.join(ENGINES)}")
    if backend is None:
        backend = Backend("process", jobs) if jobs > 1 else Backend("serial")
    chunks = list(_chunks(game_seeds(seed, games), backend.worker_count if backend.kind != "serial" else 1))
    done = None if progress is None else (lambda chunk: progress(len(chunk)))
    play = partial(_play_chunk, players, kinds, engine=engine)
    results = [result for chunk in map_in_order(play, chunks, backend, done) for result in chunk]
    return summarize(players, seed, kinds, results)


def summarize(players: int, seed: int, bots: Sequence[str], results: Sequence[GameResult]) -> Summary:
    """Sum up game results: outcomes, win rates with 95% Wilson intervals, mean totals and tokens.

    :param players: seats per game.
    :param seed: the run's seed (recorded only).
    :param bots: each seat's bot kind.
    :param results: the games, in order.
    """
    games = len(results)
    outcomes = dict.fromkeys(OUTCOMES, 0)
    shared = dict.fromkeys((r.value for r in VerdictReason), 0)
    seat_wins = [0] * players
    totals = [0] * len(Faction)
    emperor = 0
    tokens = [0] * players
    for result in results:
        outcomes[result.outcome] += 1
        if len(result.winners) > 1:
            shared[result.reason.value] += 1
        for seat in result.winners:
            seat_wins[seat] += 1
        for faction, total in enumerate(result.totals):
            totals[faction] += total
        emperor += result.emperor_total
        for seat, banked in enumerate(result.tokens):
            tokens[seat] += banked
    kinds = list(dict.fromkeys(bots))
    bot_rates = {
        kind: Rate.of(
            sum(seat_wins[s] for s in range(players) if bots[s] == kind),
            games * sum(1 for s in range(players) if bots[s] == kind),
        )
        for kind in kinds
    }
    return Summary(
        players=players,
        games=games,
        seed=seed,
        bots=tuple(bots),
        outcomes=outcomes,
        shared_by_reason=shared,
        seats=tuple(Rate.of(wins, games) for wins in seat_wins),
        bot_rates=bot_rates,
        mean_totals=tuple(t / games if games else 0.0 for t in totals),
        mean_emperor_total=emperor / games if games else 0.0,
        mean_tokens=tuple(t / games if games else 0.0 for t in tokens),
        results=tuple(results),
    )


def _percent(count: int, games: int) -> float:
    return 100.0 * count / games if games else 0.0


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


# --------------------------------------------------------------------------- the command line


#: The player counts of the game (rule 1.1), what ``--players all`` means.
PLAYER_COUNTS: tuple[int, ...] = (3, 4, 5)


def player_counts(text: str) -> tuple[int, ...]:
    """The player counts that ``--players`` names: ``4``, ``3,5`` or ``all``, sorted, each once.

    :raises argparse.ArgumentTypeError: a count that is not 3, 4 or 5, or not a number.
    """
    if text.strip().lower() == "all":
        return PLAYER_COUNTS
    counts = set()
    for part in text.split(","):
        try:
            count = int(part)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{part.strip()!r} is not a player count: give 3, 4, 5, a list "
                                             "such as 3,4,5, or all") from None
        if count not in PLAYER_COUNTS:
            raise argparse.ArgumentTypeError(f"the game is for 3 to 5 players, not {count}")
        counts.add(count)
    return tuple(sorted(counts))


def add_bots_argument(parser: argparse.ArgumentParser, *, default: str) -> None:
    """Add the ``--bots`` option to ``parser``: the bot kind of every seat, or one kind per seat separated by
    commas (:data:`~darkempire.bots.BOT_KINDS`). ``darkempire simulate`` and ``darkempire demo`` share it."""
    parser.add_argument(
        "--bots",
        default=default,
        help="bot kind of every seat, or a comma-separated kind per seat: "
        + ", ".join(sorted(BOT_KINDS))
        + f" (default {default})",
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``simulate`` subcommand's arguments to ``parser``."""
    parser.add_argument(
        "--players", type=player_counts, default=(4,),
        help="number of seats: 3, 4 or 5 (default 4); several (3,4,5 or all) with --report",
    )
    parser.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="the run's seed; each game's seed derives from it")
    parser.add_argument(  # the default is the strongest kind that fits the run: darkempire.balance.policy
        "--bots",
        default=None,
        help="bot kind of every seat, or a comma-separated kind per seat: " + ", ".join(sorted(BOT_KINDS))
        + " (default: the strongest that fits the run's size: ismcts for a small run, else greedy; random only"
        " when asked)",
    )
    add_backend_arguments(parser)
    parser.add_argument(
        "--theme", choices=sorted(t.value for t in Theme), default=Theme.STEAM_NOIR.value, help="faction names to show"
    )
    parser.add_argument(
        "--engine",
        choices=ENGINES,
        default="auto",
        help="play on the playout kernel, the reference engine, or auto: the kernel when every seat is random or"
        " greedy (default auto); results do not depend on it",
    )
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--plot", metavar="FILE.png", help="draw the distributions to FILE.png (needs matplotlib)")


def simulate_command(
    console: Console,
    args: argparse.Namespace,
    bots: Sequence[str],
    *,
    theme: Theme = Theme.STEAM_NOIR,
    progress_file: Any = None,
) -> int:
    """Run ``darkempire simulate`` with parsed ``args`` and the seats' bot kinds; print to ``console``.

    A progress bar goes to ``progress_file`` (default standard error) when it
    is a terminal. Faction names are those of ``theme`` (the JSON output uses
    the :class:`~darkempire.rules.cards.Faction` member names).

    :returns: the exit status: 0 when done, 2 for bad arguments or a missing matplotlib.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    workers = getattr(args, "workers", getattr(args, "jobs", None))
    if args.games < 0 or (workers is not None and workers < 1):
        Console(file=sys.stderr, highlight=False).print("darkempire simulate: --games must be >= 0, --workers >= 1")
        return 2
    backend = backend_from_args(args)
    if args.plot is not None and not _has_matplotlib():
        Console(file=sys.stderr, highlight=False).print(  # no markup: "[plot]" is text, not a style
            "darkempire simulate: --plot needs matplotlib: pip install 'darkempire[plot]'", markup=False
        )
        return 2
    stream = progress_file if progress_file is not None else sys.stderr
    bar_console = Console(file=stream)
    started = time.perf_counter()
    columns = (TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=bar_console, disable=not bar_console.is_terminal, transient=True) as bar:
        task = bar.add_task("games", total=args.games)
        summary = simulate(
            args.players, args.games, args.seed, bots, progress=lambda n: bar.advance(task, n),
            engine=getattr(args, "engine", "auto"),  # a namespace built by hand may lack it
            backend=backend,
        )
    elapsed = time.perf_counter() - started
    if args.json:
        # Plain text, never wrapped or coloured, so that the output is valid JSON on a terminal too.
        console.print(json.dumps(summary.to_json(), indent=2), markup=False, highlight=False, soft_wrap=True)
    else:
        _print_summary(console, summary, elapsed, backend, theme)
    if args.plot is not None:
        plot_summary(summary, args.plot, theme)
        if not args.json:
            console.print(f"Plot written to {escape(args.plot)}.")  # a path is text, not markup: out[1].png
    return 0


def _has_matplotlib() -> bool:
    try:
        import matplotlib  # type: ignore[import-not-found,unused-ignore]  # noqa: F401  # the optional plot extra
    except ImportError:
        return False
    return True


def _rate(games: int, elapsed: float) -> str:
    """How fast the games went, in words that stay readable from greedy bots' thousands of games a second down
    to search bots' seconds a game (a rate below one would print as "0 games/s")."""
    per_second = games / elapsed
    if round(per_second, 1) >= 10:  # 9.996 would read "10.0" beside a run's "10"
        return f"{per_second:,.0f} games/s"
    return f"{per_second:.1f} games/s" if per_second >= 1 else f"{elapsed / games:,.1f} s a game"


def _print_summary(console: Console, summary: Summary, elapsed: float, backend: Backend, theme: Theme) -> None:
    from rich.table import Table

    games = summary.games
    kinds = ",".join(summary.bots)
    rate = f", {_rate(games, elapsed)}" if elapsed > 0 and games else ""
    console.print(
        f"[bold]{games} games[/bold], {summary.players} players, seed {summary.seed}, bots {kinds}: "
        f"{elapsed:.1f} s on the {backend.describe()}{rate}"
    )
    outcomes = Table(title="Outcomes", title_justify="left")
    outcomes.add_column("outcome")
    outcomes.add_column("games", justify="right")
    outcomes.add_column("%", justify="right")
    for name, count in summary.outcomes.items():
        outcomes.add_row(name, str(count), f"{_percent(count, games):.1f}")
    console.print(outcomes)
    shared = ", ".join(f"{reason} {count}" for reason, count in summary.shared_by_reason.items() if count)
    if shared:
        console.print(f"Shared wins by reason: {shared}")
    wins = Table(title="Win rates (95% Wilson interval; a shared win counts for each winner)", title_justify="left")
    for column in ("seat", "bot", "wins", "rate %", "95% interval"):
        wins.add_column(column, justify="left" if column in ("seat", "bot") else "right")
    for seat, r in enumerate(summary.seats):
        wins.add_row(str(seat), summary.bots[seat], str(r.wins), f"{100 * r.rate:.1f}", _interval(r))
    for kind, r in summary.bot_rates.items():
        wins.add_row("all", kind, f"{r.wins}/{r.played}", f"{100 * r.rate:.1f}", _interval(r))
    console.print(wins)
    means = Table(title="Means per game (points)", title_justify="left")
    means.add_column("")
    means.add_column("mean", justify="right")
    for faction in Faction:
        means.add_row(f"{faction_name(faction, theme)} total", f"{summary.mean_totals[faction]:.1f}")
    means.add_row("emperor total", f"{summary.mean_emperor_total:.1f}")
    for seat, tokens in enumerate(summary.mean_tokens):
        means.add_row(f"seat {seat} tokens", f"{tokens:.1f}")
    console.print(means)


def _interval(r: Rate) -> str:
    return f"{100 * r.low:.1f}-{100 * r.high:.1f}"


def plot_summary(summary: Summary, path: str | os.PathLike[str], theme: Theme = Theme.STEAM_NOIR) -> None:
    """Draw the run's distributions to a PNG file with matplotlib (the ``plot`` extra).

    Four panels: outcomes, seat win rates with their 95% intervals, the
    histogram of the final totals (each faction's, and the emperor's), and
    the histogram of the seats' banked tokens.

    :raises ImportError: without matplotlib.
    """
    import matplotlib  # type: ignore[import-not-found,unused-ignore]  # the optional plot extra

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # type: ignore[import-not-found,unused-ignore]

    results = summary.results
    figure, axes = plt.subplots(2, 2, figsize=(12, 8))
    figure.suptitle(
        f"{summary.games} games, {summary.players} players, seed {summary.seed}, bots {','.join(summary.bots)}"
    )
    ax = axes[0][0]
    ax.bar(list(summary.outcomes), [_percent(c, summary.games) for c in summary.outcomes.values()])
    ax.set_ylabel("% of games")
    ax.set_title("Outcomes")
    ax.tick_params(axis="x", labelrotation=15)
    ax = axes[0][1]
    seats = range(summary.players)
    rates = [100 * r.rate for r in summary.seats]
    errors = [
        [100 * (r.rate - r.low) for r in summary.seats],
        [100 * (r.high - r.rate) for r in summary.seats],
    ]
    ax.bar(seats, rates, yerr=errors, capsize=4)
    ax.set_xticks(list(seats), [f"seat {s}\n{summary.bots[s]}" for s in seats])
    ax.set_ylabel("win rate % (95% interval)")
    ax.set_title("Win rate per seat")
    ax = axes[1][0]
    for faction in Faction:
        ax.hist([r.totals[faction] for r in results], bins=30, histtype="step", label=faction_name(faction, theme))
    ax.hist([r.emperor_total for r in results], bins=30, histtype="step", color="black", label="emperor")
    ax.set_xlabel("final total (points)")
    ax.set_ylabel("games")
    ax.set_title("Final totals")
    ax.legend(fontsize="small")
    ax = axes[1][1]
    ax.hist([t for r in results for t in r.tokens], bins=30)
    ax.set_xlabel("banked tokens per seat (points)")
    ax.set_ylabel("seat-games")
    ax.set_title("Tokens")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
