"""tablekit.stats: the Wilson interval, rates, means, winners and per-game seeds."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tablekit.stats import Rate, StatsError, game_seeds, mean, seat_win_rates, wilson_interval, winners


def test_the_wilson_interval_of_known_cases() -> None:
    low, high = wilson_interval(50, 100)
    assert (round(low, 3), round(high, 3)) == (0.404, 0.596)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == 1.0
    assert round(wilson_interval(0, 10)[1], 3) == 0.278


@given(st.integers(0, 500).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_the_interval_holds_the_rate_within_zero_and_one(counts: tuple[int, int]) -> None:
    wins, played = counts
    rate = Rate.of(wins, played)
    assert 0.0 <= rate.low <= rate.rate <= rate.high <= 1.0 or played == 0
    if played:
        assert rate.high - rate.low < 1.0 and rate.low < rate.high


@pytest.mark.parametrize(("wins", "played"), [(-1, 5), (6, 5), (1, 0)])
def test_counts_that_are_not_a_sample_are_refused(wins: int, played: int) -> None:
    with pytest.raises(StatsError):
        wilson_interval(wins, played)


def test_winners_share_the_highest_return_and_each_counts_a_win() -> None:
    assert winners((1.0, 3.0, 3.0)) == {1, 2} and winners(()) == frozenset()
    rates = seat_win_rates([(1.0, 3.0, 3.0), (5.0, 0.0, 1.0)], 3)
    assert [r.wins for r in rates] == [1, 1, 1] and all(r.played == 2 for r in rates)
    assert mean([]) == 0.0 and mean([1.0, 2.0]) == 1.5


def test_game_seeds_are_a_fixed_sequence_per_namespace_and_seed() -> None:
    assert game_seeds("toy", 1, 10)[:3] == game_seeds("toy", 1, 3)
    assert game_seeds("toy", 1, 3) != game_seeds("toy", 2, 3) != game_seeds("other", 1, 3)
    assert all(0 <= s < 2**63 for s in game_seeds("toy", 1, 50))
