"""A hand-built state that lacks a field its phase needs gets a typed error, never an assertion or ``None`` deref.

The rules reach a week's phases only with a table, card placement only with a week score, and monthly scoring
only once every seat chose a support card. A state built by hand (``attrs.evolve``) can break that; the engine's
public functions then raise :class:`~darkempire.rules.errors.InvalidArgumentError` naming the missing field, as
they do for any other bad argument (spec 9.1), and the same under ``python -O``, where an ``assert`` would
vanish and leave an ``AttributeError`` deep inside.
"""

from __future__ import annotations

import random

import attrs
import pytest

from darkempire.rules.engine import apply, awaited_seats, deal, legal_actions, step
from darkempire.rules.errors import InvalidArgumentError
from darkempire.rules.state import GameConfig, GameState, Phase
from builders import random_choice


def _reach(players: int, phase: Phase, seed: int = 3) -> GameState:
    """The first state of ``phase`` in a seeded random game."""
    rng = random.Random(seed)
    state = deal(GameConfig(players=players), seed)
    while state.phase is not phase:
        assert not state.is_over, f"no {phase} in this game"
        seat = min(awaited_seats(state))
        state = apply(state, seat, random_choice(state, seat, rng))
    return state


@pytest.mark.spec("9.1")
@pytest.mark.parametrize("phase", [Phase.PLAY_1, Phase.PLAY_2, Phase.REORGANIZE])
def test_a_week_phase_without_its_table_is_refused_by_name(phase: Phase) -> None:
    state = _reach(4, phase)
    seat = min(awaited_seats(state))
    action = legal_actions(state, seat)[0]
    broken = attrs.evolve(state, table=None)
    for call in (lambda: legal_actions(broken, seat), lambda: apply(broken, seat, action)):
        with pytest.raises(InvalidArgumentError, match=rf"{phase.value} phase has a table; this one has none"):
            call()


@pytest.mark.spec("9.1")
def test_placement_without_its_week_score_is_refused_by_name() -> None:
    for seed in range(40):  # a seeded game with a placement to choose
        try:
            state = _reach(3, Phase.PLACEMENT, seed)
        except AssertionError:
            continue
        break
    else:
        pytest.fail("no placement step in 40 seeded games")
    broken = attrs.evolve(state, week_score=None)
    with pytest.raises(InvalidArgumentError, match="placement phase has a week_score; this one has none"):
        awaited_seats(broken)
    seat = min(awaited_seats(state))
    with pytest.raises(InvalidArgumentError, match="week_score"):
        legal_actions(broken, seat)


@pytest.mark.spec("9.1", "7.1")
def test_monthly_scoring_without_every_support_card_is_refused_by_name() -> None:
    # Monthly scoring is automatic, so no game rests there: a week's start, with every support card
    # chosen, is moved to it by hand (as step's docstring allows), once whole and once without a card.
    state = attrs.evolve(_reach(5, Phase.PLAY_1), phase=Phase.MONTH_SCORING, table=None)
    broken = attrs.evolve(state, support=(None,) + state.support[1:])
    with pytest.raises(InvalidArgumentError, match="holds 4 of 5"):
        step(broken, {})
    assert step(state, {}).state.phase is not Phase.MONTH_SCORING  # the whole state scores its month
