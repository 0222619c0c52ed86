"""darkempire.balance: the intervals, the figures of hand-built games, the default-bot policy (issue 15).

The figures are checked on games built by hand whose every count is known, so a game counted twice, a
shared win counted once, or tokens taken for cards would fail; the intervals on published values.
"""

from __future__ import annotations

import random

import pytest

from darkempire.balance.figures import ResultsError, figures, winner_points
from darkempire.balance.policy import FALLBACK, default_bots
from darkempire.balance.stats import Share, bootstrap_mean, wilson_interval
from darkempire.rules.cards import Faction
from darkempire.rules.scoring import VerdictReason
from darkempire.simulation import SHARED_WIN, GameResult, play_game

from balance_games import GAMES, C, M, S, ST, W, game


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [  # Wilson score intervals at 95% (z = 1.96), as published tables give them to four places
        (0, 10, 0.0, 0.2775),
        (5, 10, 0.2366, 0.7634),
        (13, 100, 0.0776, 0.2098),
        (50, 100, 0.4038, 0.5962),
        (10, 10, 0.7225, 1.0),
    ],
)
def test_wilson_intervals_match_published_values(successes: int, trials: int, low: float, high: float) -> None:
    assert wilson_interval(successes, trials) == pytest.approx((low, high), abs=5e-5)
    share = Share.of(successes, trials)
    assert (share.low, share.high) == pytest.approx((low, high), abs=5e-5)
    assert share.rate == successes / trials


def test_the_bootstrap_interval_is_seeded_and_as_wide_as_the_standard_error_says() -> None:
    rng = random.Random(5)
    values = [rng.randrange(100) for _ in range(1000)]
    mean = bootstrap_mean(values, seed=3)
    assert mean == bootstrap_mean(values, seed=3)
    assert mean.n == 1000 and mean.mean == sum(values) / 1000
    # Uniform 0-99: sd about 28.9, so the 95% half-width is about 1.96 * 28.9 / sqrt(1000) = 1.79.
    assert 1.4 < (mean.high - mean.low) / 2 < 2.2
    assert mean.low < mean.mean < mean.high
    constant = bootstrap_mean([7, 7, 7])
    assert (constant.mean, constant.low, constant.high, constant.n) == (7.0, 7.0, 7.0, 3)
    assert bootstrap_mean([]).n == 0
    with pytest.raises(ValueError, match="resamples"):
        bootstrap_mean(values, resamples=0)


def test_figures_count_each_outcome_seat_faction_and_winner_of_hand_built_games() -> None:
    f = figures(3, ["greedy"] * 3, GAMES)
    assert f.games == 4
    assert {name: s.count for name, s in f.outcomes.items()} == {
        "emperor victory": 1, "revolution": 1, "leader too powerful": 1, SHARED_WIN: 1,
    }
    assert all(s.total == 4 for s in f.outcomes.values())
    # Seat 0 won games 1 and 3, seat 1 game 4 (shared), seat 2 games 2 and 4 (shared).
    assert [s.count for s in f.seats] == [2, 1, 2]
    # Held: Workers in all four, Suffragettes and Students in three, the Calendrical Order and Mechandros in one.
    assert {x: (s.count, s.total) for x, s in f.factions.items()} == {
        W: (3, 4), C: (0, 1), S: (0, 3), M: (1, 1), ST: (1, 3),
    }
    assert (f.rule_15.count, f.rule_15.total) == (1, 4)
    assert (f.rule_15_held.count, f.rule_15_held.total) == (1, 1)
    # Winners: (cards, tokens) = W (2, 3), ST (20, 10), W (20, 8), M (20, 10), W (24, 6).
    assert f.winner_tokens.mean == pytest.approx((3 + 10 + 8 + 10 + 6) / 5)
    assert f.winner_cards.mean == pytest.approx((2 + 20 + 20 + 20 + 24) / 5)
    assert f.winner_total.mean == pytest.approx(f.winner_tokens.mean + f.winner_cards.mean)
    assert f.winner_token_share.mean == pytest.approx((3 / 5 + 10 / 30 + 8 / 28 + 10 / 30 + 6 / 30) / 5)
    assert f.emperor_total.mean == pytest.approx((40 + 12 + 9 + 11) / 4)
    assert f.faction_total.n == 20
    # Revolutions are games 2-4: leads 30-28, 60-28, 30-30.
    assert f.leads == (2, 32, 0)


def test_winner_points_split_the_total_into_cards_and_the_holders_tokens() -> None:
    (winner,) = winner_points(GAMES[2])
    assert (winner.seat, winner.faction, winner.cards, winner.tokens, winner.total) == (0, W, 20, 8, 28)
    assert winner.total == GAMES[2].totals[W]


def test_figures_of_played_games_agree_with_their_verdicts() -> None:
    results = [play_game(4, seed, ["greedy"] * 4) for seed in (3, 4)]
    f = figures(4, ["greedy"] * 4, results)
    for result in results:
        for w in winner_points(result):
            assert w.total == result.totals[w.faction]
    assert sum(s.count for s in f.outcomes.values()) == 2


def test_figures_refuse_results_they_cannot_split_or_of_another_count() -> None:
    bare = GameResult(1, VerdictReason.REVOLUTION, (0,), (1, 2, 3, 4, 5), 0, (1, 1, 1))
    with pytest.raises(ResultsError, match="no card points"):
        figures(3, ["greedy"] * 3, [bare])
    with pytest.raises(ResultsError, match="4-player"):
        figures(4, ["greedy"] * 4, GAMES)
    with pytest.raises(ResultsError, match="bot kinds"):
        figures(3, ["greedy"], GAMES)


def test_the_default_bots_are_the_strongest_registered_kind_that_fits_the_run_and_never_random() -> None:
    assert default_bots(4, 1000) == "greedy"
    with_search = {"ismcts", "greedy", "random"}
    assert default_bots(4, 20, kinds=with_search) == "ismcts"  # 20 games fit the search bot's budget
    assert default_bots(4, 1000, kinds=with_search) == "greedy"  # a thousand do not
    assert default_bots(4, 1000, jobs=100, kinds=with_search) == "ismcts"  # unless spread over workers
    assert default_bots(4, 20, kinds={"greedy", "random"}) == "greedy"  # a kind not registered is passed over
    assert default_bots(4, 20, kinds=with_search, order=("greedy",)) == "greedy"
    assert default_bots(4, 1, kinds={"random"}) == FALLBACK == "greedy"


def test_the_15_point_rule_tells_a_held_leader_from_an_unheld_one() -> None:
    # The unheld Calendrical Order 45 leads the Workers' 20+9=29 by 16 and drops out; nobody lost the win.
    unheld = game(5, VerdictReason.LEADER_TOO_POWERFUL, (0,), (W, S, ST), (20, 45, 10, 2, 12), (9, 5, 6), 10, C)
    f = figures(3, ["greedy"] * 3, [GAMES[2], unheld, GAMES[1]])
    assert (f.rule_15.count, f.rule_15.total) == (2, 3)
    assert (f.rule_15_held.count, f.rule_15_held.total) == (1, 2)
    assert f.leads == (32, 16, 2)
