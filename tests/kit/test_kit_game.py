"""tablekit.game: LazyActions as a sequence, and the toy's legal actions through it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kit.toy import GAME, Bid, Keep, Peek, ToyConfig
from tablekit.chance import SeededChance
from tablekit.game import LazyActions, Transition
from tablekit.simultaneous import choose, start


@given(st.integers(0, 30), st.integers(-40, 40), st.integers(-40, 40), st.integers(-3, 3).filter(bool))
def test_lazy_actions_behave_as_the_tuple_they_stand_for(size: int, index: int, stop: int, step: int) -> None:
    lazy = LazyActions(size, lambda i: i * 10)
    eager = tuple(i * 10 for i in range(size))
    assert len(lazy) == len(eager) and tuple(lazy) == eager
    assert tuple(lazy[index:stop:step]) == eager[index:stop:step]
    if -size <= index < size:
        assert lazy[index] == eager[index]
    else:
        with pytest.raises(IndexError):
            lazy[index]
    assert (index * 10 in lazy) == (index * 10 in eager)
    assert lazy.index(eager[-1]) == size - 1 if size else True


def test_the_toys_legal_actions_are_lazy_at_a_bid_and_a_tuple_at_a_claim() -> None:
    round, opening = start(GAME, ToyConfig(2, 3), SeededChance(2))
    assert isinstance(opening, Transition)
    bids = GAME.legal_actions(round.state, 0)
    assert isinstance(bids, LazyActions) and list(bids) == [Bid(1), Bid(2), Bid(3)]
    assert Bid(2) in bids and Bid(7) not in bids and Keep() not in bids
    round = choose(GAME, choose(GAME, round, 0, Bid(3)).round, 1, Bid(1)).round
    assert GAME.awaited(round.state) == {0} and tuple(GAME.legal_actions(round.state, 0)) == (Keep(), Peek())
