"""A month in which every total is 0 (ruling R-L; issue 13, item A).

No card was placed to the score track this month and no seat won a token, so every month total ``Q(f)`` is 0.
Then all five factions tie as the strongest of the month: the rulebook gives ties to "all tied parties", and it
withholds the six points only when "no player supported the strongest faction". Every support card names one of
the five, so every seat shares the six points as ruling R-L splits them: 3 seats 2 each, 4 or 5 seats 1 each.
(The withdrawn ruling R-P gave nobody the points in such a month.)
"""

from __future__ import annotations

import pytest
from builders import CO, ME, ST, SU, W, build

from darkempire.rules import engine
from darkempire.rules.cards import Faction
from darkempire.rules.scoring import month_strongest, score_month_tally
from darkempire.rules.state import Phase

#: By number of seats: each seat's support card and the share of the six points every seat gets (rule 7.2).
#: Seats 0 and 1 support the same faction in the 4- and 5-seat months, so not every faction has a supporter.
CASES = {
    3: ((W, CO, SU), 2),  # 6 // 3
    4: ((W, W, ST, ME), 1),  # four seats receive 1 point each
    5: ((SU, SU, W, CO, ST), 1),  # five seats receive 1 point each, 5 of the 6 points are given out
}


@pytest.mark.spec("7.1", "7.2", "R-L")
@pytest.mark.parametrize("players", sorted(CASES))
def test_a_month_with_every_total_at_0_ties_all_five_factions_and_every_seat_shares_the_6_points(
    players: int,
) -> None:
    support, share = CASES[players]
    score = score_month_tally([], [0] * players, support)
    assert score.totals == (0,) * 5
    assert score.strongest == frozenset(Faction)
    assert score.bonus == (share,) * players


@pytest.mark.spec("7.1", "7.2", "7.3", "R-L")
@pytest.mark.parametrize("players", sorted(CASES))
def test_the_engine_banks_the_shares_of_a_month_with_every_total_at_0(players: int) -> None:
    support, share = CASES[players]
    banked = tuple(range(1, players + 1))
    state = build(players, Phase.MONTH_SCORING, week=4, support=support, banked_tokens=banked)
    assert state.month_tokens == (0,) * players and not state.score_track.placed_in_month(state.month)
    after = engine.score_month(state)
    assert after.banked_tokens == tuple(b + share for b in banked)
    assert after.month_scores[-1].strongest == frozenset(Faction)


@pytest.mark.spec("7.1", "R-L")
def test_the_month_strongest_of_all_zero_totals_is_every_faction() -> None:
    assert month_strongest([0, 0, 0, 0, 0]) == frozenset(range(5))
    assert month_strongest([0, 3, 0, 3, 1]) == frozenset({1, 3})
