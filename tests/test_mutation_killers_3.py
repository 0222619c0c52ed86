"""Tests that kill mutants mutmut found alive on 2026-12-02 (see tests/mutation.md): what the engine's
refusals say, for values that are no game card at all.

Each names the rule and the value it refuses (spec 9.1), so a front end can show it; a mutant that drops the
value from the message, or that crashes on a card without fields, fails here.
"""

from __future__ import annotations

from typing import Any, cast

import pytest

from darkempire.rules import engine
from darkempire.rules.actions import PassCards, PlaceCards, PlayCard, Side
from darkempire.rules.cards import FactionCard
from darkempire.rules.errors import InvalidArgumentError, InvalidPlacementError, MalformedActionError
from darkempire.rules.state import Phase
from test_mutation_killers import play_random


@pytest.mark.spec("9.1")
def test_check_choice_names_itself_when_given_no_state() -> None:
    with pytest.raises(InvalidArgumentError, match=r"^check_choice takes a GameState, not str$"):
        engine.check_choice(cast(Any, "state"), 0, PlayCard(cast(Any, None), Side.REVOLUTION))


@pytest.mark.spec("R-E")
def test_a_placement_of_a_value_that_is_no_card_names_the_value_and_the_seat() -> None:
    for seed in range(60):
        state = play_random(3, seed, until=lambda s: s.phase is Phase.PLACEMENT)[-1]
        if state.phase is Phase.PLACEMENT:
            break
    else:
        pytest.fail("no placement in 60 seeded games")
    seat = min(engine.awaited_seats(state))
    with pytest.raises(InvalidPlacementError) as refused:
        engine.apply(state, seat, PlaceCards(frozenset({cast(Any, "#12")})))
    assert refused.value.message == f"'#12' is not a card seat {seat} may place"
    assert refused.value.rule == "R-E"


@pytest.mark.spec("1.2", "9.1")
def test_a_faction_card_built_without_fields_is_a_malformed_action_not_an_attribute_error() -> None:
    state = play_random(4, 2, until=lambda s: s.phase is Phase.PLAY_1)[-1]
    seat = min(engine.awaited_seats(state))
    hollow = object.__new__(FactionCard)  # no id, faction or value
    with pytest.raises(MalformedActionError, match=r"PlayCard\.card holds a HandCard that is none of the 75 real"):
        engine.apply(state, seat, PlayCard(hollow, Side.REVOLUTION))


@pytest.mark.spec("1.2", "2.5")
def test_a_card_copy_with_another_value_in_a_card_set_is_named_with_its_action_and_field() -> None:
    state = play_random(3, 4)[0]
    seat = min(engine.awaited_seats(state))
    real = state.hands[seat][0]
    fake = object.__new__(FactionCard)  # the real card's id and faction, another value: none of the 75
    for name, value in (("id", real.id), ("faction", real.faction), ("value", real.value + 20)):
        object.__setattr__(fake, name, value)
    with pytest.raises(MalformedActionError) as refused:
        engine.apply(state, seat, PassCards(frozenset({fake, state.hands[seat][1]})))
    assert refused.value.message == "PassCards.cards holds a HandCard that is none of the 75 real cards"
