"""The collector's refusal says whether a seat does not exist or is only not awaited now."""

from __future__ import annotations

from typing import Any

import pytest

from kit.toy import GAME, Bid, Keep, ToyConfig
from tablekit.chance import SeededChance
from tablekit.errors import NotAwaitedError
from tablekit.simultaneous import choose, start, withdraw


@pytest.mark.parametrize("seat", [3, 7, -1, True, "0", 2**80])
def test_a_seat_that_does_not_exist_is_named_as_such(seat: Any) -> None:
    round = start(GAME, ToyConfig(3, 4), SeededChance(1))[0]
    with pytest.raises(NotAwaitedError, match="is not a seat of this 3-seat game") as chose:
        choose(GAME, round, seat, Bid(1))
    with pytest.raises(NotAwaitedError, match="is not a seat of this 3-seat game") as withdrew:
        withdraw(GAME, round, seat)
    assert len(str(chose.value)) < 120 and len(str(withdrew.value)) < 120  # a huge seat is quoted cut short


def test_an_existing_seat_out_of_turn_is_not_awaited() -> None:
    round = start(GAME, ToyConfig(3, 4), SeededChance(1))[0]
    for seat, card in ((0, 1), (1, 2), (2, 4)):
        round = choose(GAME, round, seat, Bid(card)).round
    idle = next(seat for seat in range(3) if seat not in GAME.awaited(round.state))  # the claim awaits the winner
    with pytest.raises(NotAwaitedError, match=f"seat {idle} is not awaited in this step"):
        choose(GAME, round, idle, Keep())
