"""``revolution simulate``: play many seeded bot games and sum up how they ended (issue 18).

``revolution simulate [--players N] [--games G] [--seed S] [--bots greedy,random,...] [--bid-refunds]
[--area-control-bonus] [--json]`` plays ``G`` games with the kit's driver, each with its own seed drawn from
``S`` (:func:`tablekit.stats.game_seeds`, so a run of 10 games starts like one of 1000), seat ``s``'s bot seeded
with ``10 * seed + s`` for each game's seed. It prints each seat's win rate with its 95% interval (a shared win
counts for every winner, R-O), each bot kind's, the mean final support of each seat, and the rounds a game
lasted. ``--json`` prints the same as one JSON object, for scripts.

>>> summary = simulate(RevolutionConfig(players=3), ("greedy", "random", "random"), 3, seed=1)
>>> summary.games, len(summary.seat_rates)
(3, 3)
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Final, TextIO

import attrs

from revolution.cli.options import make_bot
from revolution.rules.game import GAME
from revolution.rules.state import RevolutionConfig
from tablekit.bots import run_game
from tablekit.stats import Rate, game_seeds, mean, seat_win_rates, winners

__all__ = ["SEED_NAMESPACE", "Summary", "run", "simulate"]

#: The namespace of the games' seeds: ``revolution simulate --seed S`` plays the games of ``game_seeds(it, S, G)``.
SEED_NAMESPACE: Final = "revolution-simulate"


@attrs.frozen
class Summary:
    """How a run of games ended.

    :ivar games: the games played.
    :ivar kinds: each seat's bot kind.
    :ivar seat_rates: each seat's win rate.
    :ivar kind_rates: each bot kind's win rate over the seats it played, by kind.
    :ivar mean_support: each seat's mean final support (rule 7.4).
    :ivar mean_rounds: the mean number of rounds a game lasted.
    :ivar longest: the most rounds a game lasted.
    """

    games: int
    kinds: tuple[str, ...]
    seat_rates: tuple[Rate, ...]
    kind_rates: tuple[tuple[str, Rate], ...]
    mean_support: tuple[float, ...]
    mean_rounds: float
    longest: int


def simulate(config: RevolutionConfig, kinds: Sequence[str], games: int, *, seed: int) -> Summary:
    """Play ``games`` games of ``config`` between bots of ``kinds`` (one per seat, names of
    :data:`~revolution.cli.options.BOT_KINDS`) and sum them up."""
    results = []
    for game_seed in game_seeds(SEED_NAMESPACE, seed, games):
        bots = [make_bot(kind, 10 * game_seed + seat) for seat, kind in enumerate(kinds)]
        played = run_game(GAME, config, game_seed, bots)
        results.append((played.returns, tuple(score.total for score in played.state.final), played.state.round))
    seat_rates = seat_win_rates((returns for returns, _, _ in results), config.players)
    return Summary(
        games=games,
        kinds=tuple(kinds),
        seat_rates=seat_rates,
        kind_rates=_kind_rates(kinds, [returns for returns, _, _ in results]),
        mean_support=tuple(mean(totals[seat] for _, totals, _ in results) for seat in range(config.players)),
        mean_rounds=mean(rounds for _, _, rounds in results),
        longest=max((rounds for _, _, rounds in results), default=0),
    )


def _kind_rates(kinds: Sequence[str], games: Sequence[Sequence[float]]) -> tuple[tuple[str, Rate], ...]:
    """Each kind's wins over the seat-games it played (a shared win counts for every winner)."""
    rates = []
    for kind in sorted(set(kinds)):
        seats = [seat for seat, k in enumerate(kinds) if k == kind]
        wins = sum(1 for returns in games for seat in winners(returns) if seat in seats)
        rates.append((kind, Rate.of(wins, len(seats) * len(games))))
    return tuple(rates)


def _rate(rate: Rate) -> str:
    return f"{rate.rate:6.1%} (95% interval {rate.low:.1%} to {rate.high:.1%}, {rate.wins} of {rate.played})"


def _as_json(summary: Summary) -> dict[str, Any]:
    def rate(value: Rate) -> Mapping[str, float | int]:
        return {"wins": value.wins, "played": value.played, "rate": value.rate, "low": value.low, "high": value.high}

    return {
        "games": summary.games,
        "bots": list(summary.kinds),
        "seats": [rate(r) for r in summary.seat_rates],
        "kinds": {kind: rate(r) for kind, r in summary.kind_rates},
        "mean_support": list(summary.mean_support),
        "mean_rounds": summary.mean_rounds,
        "longest": summary.longest,
    }


def run(out: TextIO, config: RevolutionConfig, kinds: Sequence[str], games: int, seed: int, *,
        as_json: bool = False) -> int:
    """Play the games and print the summary (as JSON with ``as_json``).

    :returns: 0 when done.
    """
    summary = simulate(config, kinds, games, seed=seed)
    if as_json:
        print(json.dumps(_as_json(summary), sort_keys=True), file=out)
        return 0
    print(f"Revolution!: {games} games, {config.players} players, seed {seed}", file=out)
    print("Win rate by seat (a shared win counts for every winner):", file=out)
    for seat, (kind, rate, support) in enumerate(zip(summary.kinds, summary.seat_rates, summary.mean_support)):
        print(f"  seat {seat} ({kind}): {_rate(rate)}; mean final support {support:.1f}", file=out)
    print("Win rate by bot kind:", file=out)
    for kind, rate in summary.kind_rates:
        print(f"  {kind}: {_rate(rate)}", file=out)
    print(f"Rounds a game lasted: {summary.mean_rounds:.1f} on average, {summary.longest} at most", file=out)
    return 0
