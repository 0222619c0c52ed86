"""Simulation statistics: win rates with confidence intervals, means, winners, and per-game seeds.

A balance study plays many seeded games (``tablekit.bots.run_game``) and sums them up. The helpers here
know nothing of any game: they take returns, winners and counts.

>>> Rate.of(50, 100).rate, [round(x, 3) for x in wilson_interval(50, 100)]
(0.5, [0.404, 0.596])
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from typing import Final

import attrs

from tablekit.errors import KitError

__all__ = ["Z95", "Rate", "StatsError", "game_seeds", "mean", "seat_win_rates", "wilson_interval", "winners"]

#: The normal quantile of a two-sided 95% interval.
Z95: Final = 1.959963984540054


class StatsError(KitError, ValueError):
    """Counts that cannot be a sample: negative, or more successes than trials."""


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (95% by default): ``(low, high)`` within 0-1.

    Unlike the normal approximation it stays inside 0-1 and is not empty at 0 or all successes; with no
    trials it is the whole ``(0.0, 1.0)``.

    :raises StatsError: ``successes`` is not within ``0 .. trials``.
    """
    if not 0 <= successes <= max(trials, 0):
        raise StatsError(f"{successes} successes in {trials} trials")
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    # At 0 or all successes an end is exactly 0 or 1; the arithmetic would leave it a hair off.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


@attrs.frozen
class Rate:
    """A proportion with its 95% Wilson interval.

    :ivar wins: successes.
    :ivar played: trials.
    :ivar rate: ``wins / played``, 0.0 when nothing was played.
    :ivar low: the interval's lower end.
    :ivar high: the interval's upper end.
    """

    wins: int
    played: int
    rate: float
    low: float
    high: float

    @classmethod
    def of(cls, wins: int, played: int) -> Rate:
        """The rate of ``wins`` in ``played`` (see :func:`wilson_interval` for the errors)."""
        low, high = wilson_interval(wins, played)
        return cls(wins, played, wins / played if played else 0.0, low, high)


def mean(values: Iterable[float]) -> float:
    """The arithmetic mean; 0.0 for no values (a summary of zero games shows zeros, not an error)."""
    items = list(values)
    return math.fsum(items) / len(items) if items else 0.0


def winners(returns: Sequence[float]) -> frozenset[int]:
    """The seats with the highest return: one seat, or several sharing the win."""
    if not returns:
        return frozenset()
    best = max(returns)
    return frozenset(seat for seat, value in enumerate(returns) if value == best)


def seat_win_rates(games: Iterable[Sequence[float]], players: int) -> tuple[Rate, ...]:
    """Each seat's win rate over games given by their returns; a shared win counts for every winner."""
    wins = [0] * players
    played = 0
    for returns in games:
        played += 1
        for seat in winners(returns):
            wins[seat] += 1
    return tuple(Rate.of(count, played) for count in wins)


def game_seeds(namespace: str, seed: int, games: int) -> tuple[int, ...]:
    """The seeds of the ``games`` games of a run: 63-bit integers from a generator seeded with the string
    ``"<namespace>:<seed>"`` (the same on every platform), so a run of 10 games starts like one of 1000."""
    rng = random.Random(f"{namespace}:{seed}")
    return tuple(rng.getrandbits(63) for _ in range(games))
