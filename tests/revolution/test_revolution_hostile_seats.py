"""Hostile callers of Revolution!'s ``check`` and ``step``: seats that are not seats, choices that are no
mapping, objects whose ``repr`` or ``==`` raise. Each is refused with a :class:`WrongStepError` or
:class:`MalformedActionError` naming its rule, and the state is never touched (rule 9.1, 9.2)."""

from __future__ import annotations

from typing import Any

import pytest

from revolution.rules import engine
from revolution.rules.errors import MalformedActionError, RevolutionChoiceError, WrongStepError
from revolution.rules.game import GAME
from revolution.rules.state import RevolutionState
from revolution.rules.tokens import Tokens
from revolution_builders import bid, holding, play, start, with_cubes

G1 = Tokens(gold=1)
HELD = Tokens(1, 1, 3)


class _Hostile:
    """Raises from everything a refusal might call to describe it or compare it."""

    def __repr__(self) -> str:
        raise RuntimeError("boom")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("boom")

    __hash__ = object.__hash__


def _deep(depth: int = 100_000) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


def _at_spy() -> RevolutionState:
    state = with_cubes(holding(start(3), [G1] * 3), {"Cathedral": (1, 2, 1)})
    choosing, _ = play(state, {0: bid(Spy=G1), 1: bid(Printer=G1), 2: bid(Printer=G1)})
    assert choosing.chooser == 0
    return choosing


@pytest.mark.spec("revolution:9.1")
@pytest.mark.parametrize("seat", [-1, 3, 10**30, 1.0, True, "0", None])
def test_a_seat_that_is_not_a_seat_of_the_game_is_refused(seat: Any) -> None:
    state = start(3)
    with pytest.raises(WrongStepError, match=r"seat is a whole number from 0 to 2") as refused:
        GAME.check(state, seat, bid(Priest=HELD))
    assert refused.value.rule == "9.1"


@pytest.mark.spec("revolution:9.1")
@pytest.mark.parametrize("choices", [[bid(Priest=HELD)] * 3, None, "bids"])
def test_step_choices_that_are_no_mapping_are_refused(choices: Any) -> None:
    with pytest.raises(WrongStepError, match="mapping from seat to action"):
        engine.step(start(3), choices)


@pytest.mark.spec("revolution:9.1")
@pytest.mark.parametrize("odd", [1.0, True])
def test_step_keys_that_only_compare_equal_to_a_seat_are_refused(odd: Any) -> None:
    choices = {0: bid(Priest=HELD), odd: bid(Priest=HELD), 2: bid(Priest=HELD)}
    with pytest.raises(WrongStepError, match="seat is a whole number"):
        engine.step(start(3), choices)


@pytest.mark.spec("revolution:9.1", "revolution:9.2")
@pytest.mark.parametrize("hostile", [_Hostile(), _deep()], ids=["raising", "deep"])
def test_objects_that_cannot_be_shown_or_compared_get_a_typed_refusal(hostile: Any) -> None:
    bidding, spy = start(3), _at_spy()
    with pytest.raises(WrongStepError, match="not an object|not \\["):
        GAME.check(bidding, 0, hostile)
    with pytest.raises(MalformedActionError, match="no Replace, Swap or Decline"):
        GAME.check(spy, 0, hostile)
    assert spy == _at_spy() and bidding == start(3)


@pytest.mark.spec("revolution:9.1")
def test_every_refusal_here_is_a_choice_error() -> None:
    """The kit's drivers catch :class:`RevolutionChoiceError`; none of these may escape as a bare error."""
    seats: tuple[Any, ...] = (-1, 3, 1.0)
    for seat in seats:
        with pytest.raises(RevolutionChoiceError):
            GAME.check(start(3), seat, bid(Priest=HELD))
