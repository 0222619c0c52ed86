"""Confidence intervals for the balance figures: Wilson intervals for shares, a bootstrap for means.

Shares (how often an outcome happens, how often a seat wins) take the Wilson score interval, which stays
inside 0-1 and is not empty at 0% or 100% (:func:`tablekit.stats.wilson_interval`, re-exported here).
Means of points have no such closed form for their skewed, bounded distributions: :func:`bootstrap_mean`
takes the percentile bootstrap, seeded so that a report is the same on every run.

>>> share = Share.of(13, 100)
>>> share.count, share.total, round(share.low, 3), round(share.high, 3)
(13, 100, 0.078, 0.21)
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import attrs

from tablekit.stats import Rate, wilson_interval

__all__ = ["BOOTSTRAP_RESAMPLES", "Mean", "Share", "bootstrap_mean", "wilson_interval"]

#: Resamples of :func:`bootstrap_mean`: enough for the 2.5% and 97.5% percentiles to settle to a tenth of a point.
BOOTSTRAP_RESAMPLES = 1000


@attrs.frozen
class Share:
    """A proportion ``count / total`` with its 95% Wilson interval ``(low, high)``, all within 0-1.

    :ivar count: the games (or seat-games) that have the property.
    :ivar total: the games (or seat-games) counted.
    :ivar rate: ``count / total``; 0.0 when nothing was counted.
    :ivar low: the interval's lower end.
    :ivar high: the interval's upper end.
    """

    count: int
    total: int
    rate: float
    low: float
    high: float

    @classmethod
    def of(cls, count: int, total: int) -> Share:
        """The share of ``count`` in ``total``.

        :raises tablekit.stats.StatsError: ``count`` is not within ``0 .. total``.
        """
        rate = Rate.of(count, total)
        return cls(count, total, rate.rate, rate.low, rate.high)


@attrs.frozen
class Mean:
    """A sample mean with its 95% percentile-bootstrap interval.

    :ivar mean: the arithmetic mean; 0.0 for no values.
    :ivar low: the interval's lower end (the mean itself for fewer than two values).
    :ivar high: the interval's upper end.
    :ivar n: the number of values.
    """

    mean: float
    low: float
    high: float
    n: int


def bootstrap_mean(values: Sequence[float], *, seed: int = 0, resamples: int = BOOTSTRAP_RESAMPLES) -> Mean:
    """The mean of ``values`` with its 95% percentile-bootstrap interval.

    Deterministic for a given ``seed``: the resamples come from :class:`random.Random` seeded with it.
    With fewer than two values (or all equal) the interval is the mean itself: there is no spread to
    resample.

    :raises ValueError: ``resamples`` is less than 1.
    """
    if resamples < 1:
        raise ValueError(f"resamples must be at least 1, not {resamples}")
    n = len(values)
    if n == 0:
        return Mean(0.0, 0.0, 0.0, 0)
    centre = math.fsum(values) / n
    if n == 1 or min(values) == max(values):
        return Mean(centre, centre, centre, n)
    rng = random.Random(seed)
    means = sorted(math.fsum(rng.choices(values, k=n)) / n for _ in range(resamples))
    low = means[int(0.025 * (resamples - 1))]
    high = means[math.ceil(0.975 * (resamples - 1))]
    # The percentile interval of a discrete resample can miss the sample mean by a rounding hair.
    return Mean(centre, min(low, centre), max(high, centre), n)
