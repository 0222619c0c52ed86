"""Actions changed or built around their class's checks are refused, never applied (rule 9.1; a hostile review).

A frozen attrs object can still be changed with ``object.__setattr__`` and built without its converters with
``__new__``. The engine trusts no object for where it came from: even one that :func:`legal_actions` listed is
checked, a set of cards must be a ``frozenset`` (a tuple could name a card twice, a ``set`` could change after
the check), and a missing field is a typed error.
"""

from __future__ import annotations

from typing import Any, cast

import pytest

from darkempire.rules import engine
from darkempire.rules.actions import DiscardCards, PassCards
from darkempire.rules.errors import CardNotInHandError, MalformedActionError
from darkempire.rules.state import GameConfig, GameState


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
    from darkempire.rules.events import PlaysRevealed
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


@pytest.mark.spec("9.1")
def test_a_mapping_that_reads_two_ways_is_checked_and_resolved_as_one() -> None:
    """``items()`` gives the legal choices, ``[]`` and ``get`` other ones: the step must act on what it checked."""
    from collections.abc import Iterator, Mapping

    state = _deal()
    legal = {s: PassCards(state.hands[s][:2]) for s in state.seats}
    other = {**legal, 0: PassCards(state.hands[1][2:4])}  # two cards seat 0 does not hold

    class TwoFaced(Mapping[int, PassCards]):
        def __getitem__(self, seat: int) -> PassCards:
            return other[seat]

        def __iter__(self) -> Iterator[int]:
            return iter(legal)

        def __len__(self) -> int:
            return len(legal)

        def items(self) -> Any:
            return legal.items()

    try:
        after = engine.pass_cards(state, TwoFaced())
    except CardNotInHandError:
        return  # checked and resolved as the same (other) reading: refused
    from darkempire.serialization import check_state

    check_state(after)
    assert after.hands == engine.pass_cards(state, legal).hands


@pytest.mark.spec("1.2", "9.1")
def test_a_card_built_around_its_checks_is_refused_and_never_stored() -> None:
    """A HandCard made with ``object.__new__`` can carry a value that equals everything; the engine refuses
    it, and stores the game's own card objects for the equal copies a caller passes."""
    import copy

    from darkempire.rules.cards import HAND_CARDS, FactionCard

    class Everything(int):
        def __eq__(self, other: object) -> bool:
            return True

        __hash__ = int.__hash__

    state = _deal()
    real = next(c for c in state.hands[0] if isinstance(c, FactionCard))
    forged = object.__new__(FactionCard)
    for name, value in (("id", real.id), ("faction", real.faction), ("value", Everything(50))):
        object.__setattr__(forged, name, value)
    with pytest.raises(MalformedActionError, match="none of the 75 real cards"):
        engine.apply(state, 0, _forged(PassCards(state.hands[0][:2]), cards=frozenset([forged, state.hands[0][1]])))
    copies = frozenset(copy.copy(c) for c in state.hands[0][:2])
    assert all(c is not HAND_CARDS[c.id] for c in copies)
    pending = engine.apply(state, 0, PassCards(copies)).pending[0]
    assert isinstance(pending, PassCards) and all(c is HAND_CARDS[c.id] for c in pending.cards)


@pytest.mark.spec("9.4")
def test_a_history_refuses_reported_events_that_are_no_events() -> None:
    from darkempire.rules.errors import InvalidArgumentError
    from darkempire.history import History

    history = History.start(GameConfig(players=3), 1)
    state = history.current
    history = history.apply(0, engine.legal_actions(state, 0)[0])
    with pytest.raises(InvalidArgumentError, match="reported events"):
        History(history.states, history.choices, reported=cast(Any, (("x",),)))
    assert History(history.states, history.choices, reported=history.reported).events() == history.events()
