"""Hopping between the reference engine and the kernel mid-game (issue: playout kernel, point 2).

Hypothesis draws a game (players, seed), the choices (each an index into the deciding seat's listing, taken
modulo its size) and the hop points. The game is played once through the reference alone, and once in legs
that alternate between the reference (:func:`~darkempire.rules.engine.apply`) and a kernel made with
:meth:`~darkempire.kernel.Kernel.from_state` of the state reached, whose :meth:`~darkempire.kernel.Kernel.snapshot`
hands the game back to the reference. A hop may fall anywhere: in the draft, between two seats' choices of
one step (pending choices carried across), at a placement, before a month reset. At every hop the state
carried across equals the reference's, and ``from_state`` followed by ``snapshot`` gives back the very state.
"""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from darkempire.kernel import Kernel
from darkempire.rules import engine
from darkempire.rules.state import GameConfig, GameState

#: The most decisions a game of 5 players takes is about 300: hop points are drawn in that range.
LONGEST = 320
#: Games of the round-trip test: each converts every state of a whole game, so a quarter of the profile's.
ROUND_TRIP_GAMES = max(10, settings().max_examples // 4)


def reference_step(state: GameState, choice: int) -> GameState:
    seat = min(engine.awaited_seats(state))
    legal = engine.legal_actions(state, seat)
    return engine.apply(state, seat, legal[choice % len(legal)])


def kernel_step(kernel: Kernel, choice: int) -> None:
    seat = min(kernel.awaited())
    kernel.apply_index(seat, choice % kernel.action_count(seat))


@pytest.mark.spec("9.2", "9.3")
@given(
    players=st.integers(3, 5),
    seed=st.integers(0, 2**32),
    choices=st.lists(st.integers(0, 2**16), min_size=LONGEST, max_size=LONGEST),
    hops=st.lists(st.integers(0, LONGEST), min_size=1, max_size=6).map(sorted),
)
def test_hops_between_reference_and_kernel(players: int, seed: int, choices: list[int], hops: list[int]) -> None:
    """Legs alternate reference, kernel, reference, ...; every hop hands over an equal state and the game
    ends as the reference alone ends it."""
    reference = engine.deal(GameConfig(players=players), seed)
    state = reference
    kernel: Kernel | None = None
    for decision, choice in enumerate(choices):
        if reference.is_over:
            break
        if decision in hops:  # hop (twice at one point: a hop there and back)
            for _ in range(hops.count(decision)):
                if kernel is None:
                    kernel = Kernel.from_state(state)
                    assert kernel.snapshot() == state == reference, decision
                else:
                    state = kernel.snapshot()
                    assert state == reference, decision
                    kernel = None
        reference = reference_step(reference, choice)
        if kernel is None:
            state = reference_step(state, choice)
        else:
            kernel_step(kernel, choice)
    final = kernel.snapshot() if kernel is not None else state
    assert final == reference


@pytest.mark.spec("9.3")
@settings(max_examples=ROUND_TRIP_GAMES)
@given(
    players=st.integers(3, 5),
    seed=st.integers(0, 2**32),
    choices=st.lists(st.integers(0, 2**16), min_size=LONGEST, max_size=LONGEST),
)
def test_a_kernel_of_any_reached_state_gives_it_back(players: int, seed: int, choices: list[int]) -> None:
    """``Kernel.from_state(s).snapshot() == s`` for every state reached on the way, pending choices,
    placements due and finished games included; and the kernel's listing there is the reference's size."""
    state = engine.deal(GameConfig(players=players), seed)
    for choice in choices:
        kernel = Kernel.from_state(state)
        assert kernel.snapshot() == state
        if state.is_over:
            return
        seat = min(engine.awaited_seats(state))
        assert kernel.awaited() == engine.awaited_seats(state)
        assert kernel.action_count(seat) == len(engine.legal_actions(state, seat))
        state = reference_step(state, choice)


@pytest.mark.spec("9.3")
def test_from_state_refuses_a_pending_choice_it_cannot_list() -> None:
    """A state whose pending choice is no legal action (built by hand) is refused by name, not stored."""
    from darkempire.rules.actions import ChooseSupport
    from darkempire.rules.cards import Faction
    from darkempire.rules.errors import InvalidArgumentError

    state = engine.deal(GameConfig(players=3), 5)
    forged = attrs.evolve(state, pending=(ChooseSupport(Faction.WORKERS), None, None))
    with pytest.raises(InvalidArgumentError, match="seat 0's pending choice"):
        Kernel.from_state(forged)
