"""A forged action without its fields is in no listing: ``in`` answers False, never ``AttributeError``.

``object.__new__(PlayCard)`` builds an action with no ``card`` and no ``side``. The lazy listings of the draft,
the play steps and the re-organize (:class:`tablekit.game.LazyActions`) answer ``in`` for it with False, and
:func:`~darkempire.rules.engine.apply` refuses it with a :class:`~darkempire.rules.errors.MalformedActionError` naming the
missing field (spec 9.1).
"""

from __future__ import annotations

import random

import pytest

from builders import random_choice
from darkempire.rules.actions import Action, DiscardCards, PassCards, PlayCard, Reinforce, Reorganize
from darkempire.rules.engine import apply, awaited_seats, deal, legal_actions
from darkempire.rules.errors import MalformedActionError, WrongSeatError
from darkempire.rules.state import GameConfig, GameState, Phase

FORGED_IN: dict[Phase, tuple[type[Action], ...]] = {
    Phase.DRAFT_PASS: (PassCards,),
    Phase.DRAFT_DISCARD: (DiscardCards,),
    Phase.PLAY_2: (PlayCard, Reinforce),
    Phase.REORGANIZE: (Reorganize,),
}


def _reach(phase: Phase, seed: int = 5) -> GameState:
    rng = random.Random(seed)
    state = deal(GameConfig(players=4), seed)
    while state.phase is not phase:
        seat = min(awaited_seats(state))
        state = apply(state, seat, random_choice(state, seat, rng))
    return state


@pytest.mark.spec("9.1")
@pytest.mark.parametrize("phase", list(FORGED_IN))
def test_a_forged_action_without_fields_is_in_no_listing_and_apply_names_the_field(phase: Phase) -> None:
    state = _reach(phase)
    seat = min(awaited_seats(state))
    listing = legal_actions(state, seat)
    assert listing[0] in listing  # the listing still finds its own actions
    for kind in FORGED_IN[phase]:
        forged = object.__new__(kind)
        assert forged not in listing
        with pytest.raises(MalformedActionError, match=rf"{kind.__name__} has no \w+"):
            apply(state, seat, forged)


@pytest.mark.spec("9.1")
def test_an_out_of_range_seat_gets_no_hint_to_convert_it_and_a_bool_does() -> None:
    state = deal(GameConfig(players=3), 1)
    with pytest.raises(WrongSeatError) as plain:
        legal_actions(state, 7)
    assert plain.value.message == "there is no seat 7 in a 3-player game"
    with pytest.raises(WrongSeatError, match=r"use int\(seat\) for a bool"):
        legal_actions(state, True)
