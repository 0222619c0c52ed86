"""Actions changed or built around their class's checks are refused, never applied (rule 9.1; a hostile review).

A frozen attrs object can still be changed with ``object.__setattr__`` and built without its converters with
``__new__``. The engine trusts no object for where it came from: even one that :func:`legal_actions` listed is
checked, a set of cards must be a ``frozenset`` (a tuple could name a card twice, a ``set`` could change after
the check), and a missing field is a typed error.
"""

from __future__ import annotations

from typing import Any

import pytest

from darkempire import engine
from darkempire.actions import DiscardCards, PassCards
from darkempire.errors import CardNotInHandError, MalformedActionError
from darkempire.state import GameConfig, GameState


def _deal() -> GameState:
    return engine.deal(GameConfig(players=3), 1)


def _forged(action: Any, **fields: object) -> Any:
    for name, value in fields.items():
        object.__setattr__(action, name, value)
    return action


@pytest.mark.spec("9.1", "2.5")
def test_a_listed_action_changed_afterwards_is_checked_again() -> None:
    state = _deal()
    listed = engine.legal_actions(state, 0)[0]
    _forged(listed, cards=frozenset(state.hands[1][:2]))  # two of seat 1's cards
    with pytest.raises(CardNotInHandError):
        engine.apply(state, 0, listed)


@pytest.mark.spec("9.1")
@pytest.mark.parametrize("container", [tuple, list, set])
def test_cards_that_are_no_frozenset_are_refused(container: type) -> None:
    state = _deal()
    card = state.hands[0][0]
    twice = _forged(PassCards(state.hands[0][:2]), cards=container([card, card]))
    with pytest.raises(MalformedActionError, match="PassCards.cards is a frozenset"):
        engine.apply(state, 0, twice)
    with pytest.raises(MalformedActionError):
        engine.pass_cards(state, {s: twice if s == 0 else PassCards(state.hands[s][:2]) for s in state.seats})


@pytest.mark.spec("9.1")
def test_a_set_changed_after_the_check_cannot_reach_the_state() -> None:
    state = _deal()
    cards = set(state.hands[0][:2])
    with pytest.raises(MalformedActionError):
        engine.apply(state, 0, _forged(PassCards(state.hands[0][:2]), cards=cards))


@pytest.mark.spec("9.1")
def test_an_action_without_its_fields_is_a_typed_error() -> None:
    state = _deal()
    with pytest.raises(MalformedActionError, match="PassCards has no cards"):
        engine.apply(state, 0, PassCards.__new__(PassCards))
    passed = engine.pass_cards(state, {s: PassCards(state.hands[s][:2]) for s in state.seats})
    with pytest.raises(MalformedActionError, match="DiscardCards has no cards"):
        engine.apply(passed, 0, DiscardCards.__new__(DiscardCards))


@pytest.mark.spec("9.1")
def test_non_container_fields_are_typed_errors() -> None:
    state = _deal()
    with pytest.raises(MalformedActionError, match="not int"):
        engine.apply(state, 0, _forged(PassCards(state.hands[0][:2]), cards=5))


@pytest.mark.spec("9.3")
@pytest.mark.parametrize("where", ["a step", "a play", "the config"])
def test_a_public_record_built_around_its_checks_is_a_typed_error(where: str) -> None:
    """The JSON loader checks every type; a record built in Python may hold anything, and the spectator
    replay then refuses it as malformed instead of crashing (a hostile review)."""
    import attrs

    from darkempire.bots import RandomBot
    from darkempire.events import PlaysRevealed
    from darkempire.public_record import PublicRecordError, public_record, spectator_replay
    from darkempire.records import record_game

    record = public_record(record_game(GameConfig(players=3), 1, [RandomBot(s) for s in range(3)]))
    steps: list[Any] = list(record.steps)
    if where == "a step":
        steps[5] = "x"
    elif where == "a play":
        at, step = next((i, s) for i, s in enumerate(steps) if any(isinstance(e, PlaysRevealed) for e in s.events))
        revealed = next(e for e in step.events if isinstance(e, PlaysRevealed))
        object.__setattr__(revealed.plays[0], "action", None)
    forged = attrs.evolve(record)
    object.__setattr__(forged, "steps", tuple(steps))
    if where == "the config":
        object.__setattr__(forged, "config", GameConfig.__new__(GameConfig))
    with pytest.raises(PublicRecordError, match="malformed"):
        spectator_replay(forged)
