"""tablekit.simultaneous: hidden pending choices, refusals, withdrawal, resolution, and no leak through errors."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kit.toy import GAME, Bid, BidsRevealed, CardNotHeldError, Keep, Peek, Phase, ToyAction, ToyConfig, ToyEvent, ToyState
from kit.toy import Toyspiel, WrongPhaseError
from tablekit.chance import ChanceSource, SeededChance
from tablekit.errors import AlreadyChoseError, GameContractError, NotAwaitedError, NothingToWithdrawError
from tablekit.events import events_for
from tablekit.game import Transition
from tablekit.simultaneous import ChoiceMade, ChoiceWithdrawn, Round, choose, start, withdraw


def _first_round(players: int = 3, seed: int = 1) -> Round[ToyState, ToyAction]:
    return start(GAME, ToyConfig(players, 4), SeededChance(seed))[0]


def test_a_choice_is_pending_and_hidden_until_every_awaited_seat_chose() -> None:
    round = _first_round()
    collected = choose(GAME, round, 1, Bid(3))
    assert collected.transition is None
    assert collected.round.chosen == {1} and collected.round.pending_of(1) == Bid(3)
    assert collected.round.state == round.state  # the pending choice is not in the state, so no view shows it
    assert events_for(collected.events, 1) == (ChoiceMade(1, Bid(3)),)
    assert events_for(collected.events, 0) == events_for(collected.events, None) == (ChoiceMade(1, None),)


def test_the_last_choice_resolves_the_step_with_all_of_them() -> None:
    round = choose(GAME, choose(GAME, _first_round(), 0, Bid(1)).round, 2, Bid(4)).round
    collected = choose(GAME, round, 1, Bid(2))
    assert collected.transition is not None
    assert [e.payload for e in collected.transition.events] == [BidsRevealed((1, 2, 4), 2)]
    assert collected.round.pending == () and collected.round.state.phase is Phase.CLAIM
    # the claim is a one-seat step: the winner's choice resolves it at once
    claimed = choose(GAME, collected.round, 2, Keep())
    assert claimed.transition is not None and claimed.round.state.scores[2] > 0


def test_a_second_choice_is_refused_until_the_first_is_withdrawn() -> None:
    round = choose(GAME, _first_round(), 0, Bid(1)).round
    with pytest.raises(AlreadyChoseError):
        choose(GAME, round, 0, Bid(2))
    withdrawn = withdraw(GAME, round, 0)
    assert withdrawn.round.chosen == frozenset() and [e.payload for e in withdrawn.events] == [ChoiceWithdrawn(0)]
    assert choose(GAME, withdrawn.round, 0, Bid(2)).round.pending_of(0) == Bid(2)
    with pytest.raises(NothingToWithdrawError):
        withdraw(GAME, withdrawn.round, 1)


@pytest.mark.parametrize("seat", [3, -1, True, "0"])
def test_a_seat_the_step_does_not_await_is_refused(seat: Any) -> None:
    with pytest.raises(NotAwaitedError):
        choose(GAME, _first_round(), seat, Bid(1))
    with pytest.raises(NotAwaitedError):
        withdraw(GAME, _first_round(), seat)


def test_the_games_own_errors_come_through_check() -> None:
    with pytest.raises(CardNotHeldError) as error:
        choose(GAME, _first_round(), 0, Bid(9))
    assert error.value.rule == "T1" and error.value.seat == 0
    with pytest.raises(WrongPhaseError):
        choose(GAME, _first_round(), 0, Peek())


ACTIONS = st.one_of(st.builds(Bid, st.integers(-1, 6)), st.just(Keep()), st.just(Peek()))


def _outcome(round: Round[ToyState, ToyAction], seat: Any, action: ToyAction) -> object:
    """What ``seat`` learns by choosing ``action``: the error's type and message, or what it sees of the result."""
    try:
        collected = choose(GAME, round, seat, action)
    except Exception as error:  # every error, typed or not: none may depend on others' pending choices
        return type(error), str(error)
    resolved = collected.transition is not None
    return events_for(collected.events, seat), resolved


@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 50),
    others=st.dictionaries(st.integers(0, 3), st.integers(1, 4), max_size=3),
    seat=st.integers(-1, 4),
    action=ACTIONS,
)
def test_no_error_depends_on_another_seats_pending_choice(
    players: int, seed: int, others: dict[int, int], seat: int, action: ToyAction
) -> None:
    """Choosing gives a seat the same answer whatever the other seats have pending (unless it resolves the step)."""
    empty = _first_round(players, seed)
    round = empty
    for other, card in others.items():
        if other < players and other != seat and len(round.pending) < players - 1:
            round = choose(GAME, round, other, Bid(card)).round
    with_others, alone = _outcome(round, seat, action), _outcome(empty, seat, action)
    if isinstance(with_others, tuple) and with_others[-1] is True:
        return  # the last choice resolved the step: then all choices are revealed anyway
    assert with_others == alone


@attrs.frozen
class _RefusingStep(Toyspiel):
    """A broken game: its step refuses a bid of 1 that its check accepted."""

    def step(self, state: ToyState, choices: Mapping[int, ToyAction], chance: ChanceSource) -> Transition[ToyState, ToyEvent]:
        if Bid(1) in choices.values():
            raise CardNotHeldError("a combination the check never saw", seat=0, rule="T1")
        return super().step(state, choices, chance)


@attrs.frozen
class _Stuck(Toyspiel):
    """A broken game: after the first bid it awaits no one and is not over."""

    def awaited(self, state: ToyState) -> frozenset[int]:
        return super().awaited(state) if state.phase is Phase.BID else frozenset()


def test_a_step_refusing_checked_choices_is_the_games_fault_not_the_last_seats() -> None:
    game = _RefusingStep()
    round = choose(game, start(game, ToyConfig(2, 4), SeededChance(1))[0], 0, Bid(1)).round
    with pytest.raises(GameContractError):
        choose(game, round, 1, Bid(2))


def test_a_step_that_leaves_no_one_awaited_before_the_end_is_refused() -> None:
    game = _Stuck()
    round = choose(game, start(game, ToyConfig(2, 4), SeededChance(1))[0], 0, Bid(1)).round
    with pytest.raises(GameContractError):
        choose(game, round, 1, Bid(2))
