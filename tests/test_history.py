"""History: the states of a game, undo before a step resolves, rewind, events and records (spec 9.2, 9.3)."""

from __future__ import annotations

import pytest

from darkempire.rules import engine
from darkempire.rules.errors import IllegalActionError, InvalidArgumentError, WrongSeatError
from darkempire.rules.events import ChoiceMade, ChoiceWithdrawn, Event, EventDerivationError
from darkempire.history import History, UndoError
from darkempire.records import DivergentChoiceError, RecordError, replay_record
from darkempire.rules.state import GameConfig, Phase
from embedding_games import finished_game, random_history


def _first_choices(history: History, seats: list[int]) -> History:
    for seat in seats:
        history = history.apply(seat, engine.legal_actions(history.current, seat)[0])
    return history


@pytest.mark.spec("9.2")
def test_undo_takes_back_a_pending_choice_and_keeps_the_others() -> None:
    start = History.start(GameConfig(players=4), 3)
    history = _first_choices(start, [2, 0, 3])
    undone = history.undo(0)
    assert undone.current.pending[0] is None
    assert (
        undone.current.pending[2] == history.current.pending[2]
        and undone.current.pending[3] == history.current.pending[3]
    )
    assert [c.seat for c in undone.choices] == [2, 3]
    # The same state as if seat 0 had never chosen.
    assert undone.current == _first_choices(start, [2, 3]).current
    assert engine.awaited_seats(undone.current) == frozenset({0, 1})
    assert undone.states[:2] == history.states[:2]


@pytest.mark.spec("9.2")
def test_no_undo_once_the_step_has_resolved() -> None:
    history = _first_choices(History.start(GameConfig(players=3), 4), [0, 1, 2])
    assert history.current.phase is Phase.DRAFT_DISCARD  # the pass resolved: every card moved
    for seat in range(3):
        assert not history.can_undo(seat)
        with pytest.raises(UndoError, match="resolved"):
            history.undo(seat)
    assert not history.can_undo(7)


@pytest.mark.spec("9.2")
def test_rewind_goes_back_to_before_the_seats_last_decision() -> None:
    history = _first_choices(History.start(GameConfig(players=3), 4), [0, 1, 2, 1])
    rewound = history.rewind(1)
    assert rewound.current == history.states[3]  # before seat 1's discard, after the resolved pass
    assert len(rewound.choices) == 3 and rewound.current.phase is Phase.DRAFT_DISCARD
    twice = rewound.rewind(1)
    assert twice.current == history.states[1] and [c.seat for c in twice.choices] == [0]
    with pytest.raises(UndoError):
        History.start(GameConfig(players=3), 4).rewind(0)


@pytest.mark.spec("9.2", "9.3")
def test_events_of_a_history_are_the_events_its_choices_reported() -> None:
    game = finished_game(3, 2)
    expected: list[Event] = []
    for index, choice in enumerate(game.choices):
        step = engine.apply_reporting(game.states[index], choice.seat, choice.action)
        assert step.state == game.states[index + 1] and game.events(index, index + 1) == step.events
        expected += step.events
    made = [e for e in game.events() if isinstance(e, ChoiceMade)]
    assert [(e.seat, e.action) for e in made] == [(c.seat, c.action) for c in game.choices]
    assert game.events() == tuple(expected)
    assert game.events(len(game.choices) - 1) == step.events
    # A history made from its states and choices alone replays the choices for the same events.
    bare = History(game.states, game.choices)
    assert bare == game and bare.events(7) == game.events(7)
    assert bare.rewind(0).events() == game.rewind(0).events()


@pytest.mark.spec("9.2")
def test_a_made_history_whose_choices_do_not_lead_to_its_states_has_no_events() -> None:
    game = finished_game(3, 2)
    shuffled = History(game.states[:1] + game.states[2:4], game.choices[:1] + game.choices[2:3])
    with pytest.raises(EventDerivationError):
        shuffled.events()
    with pytest.raises(InvalidArgumentError):
        game.events(3, 2)
    with pytest.raises(InvalidArgumentError):
        History(game.states[:2], game.choices[:1], reported=())


@pytest.mark.spec("9.2")
def test_an_undo_is_a_public_withdrawal() -> None:
    history = _first_choices(History.start(GameConfig(players=5), 6), [4])
    withdrawn = engine.withdraw_reporting(history.current, 4)
    assert withdrawn == engine.Transition(history.undo(4).current, (ChoiceWithdrawn(4, Phase.DRAFT_PASS),))
    with pytest.raises(WrongSeatError):
        engine.withdraw(withdrawn.state, 4)


@pytest.mark.spec("9.3")
def test_a_history_records_and_replays() -> None:
    game = finished_game(4, 3)
    record = game.record()
    assert record.verdict == game.current.verdict and len(record.digests) == len(record.choices)
    assert replay_record(record).states == game.states
    assert History.from_record(record) == game


@pytest.mark.spec("9.3")
def test_a_resumed_history_cannot_be_recorded() -> None:
    game = finished_game(3, 1)
    resumed = History.from_state(game.states[40])
    assert resumed.current == game.states[40] and resumed.choices == ()
    with pytest.raises(RecordError):
        resumed.record()


@pytest.mark.spec("9.1", "9.3")
def test_illegal_choices_leave_the_history_unchanged() -> None:
    history = random_history(3, 8, choices=5)
    seat = min(engine.awaited_seats(history.current))
    wrong = next(a for a in engine.legal_actions(history.states[0], 0))
    with pytest.raises(IllegalActionError):
        history.apply(seat, wrong)
    with pytest.raises(DivergentChoiceError) as caught:
        history.extend([(seat, engine.legal_actions(history.current, seat)[0]), (seat, wrong)])
    assert caught.value.index == 1 and caught.value.seat == seat
    with pytest.raises(ValueError):
        History(history.states, ())


@pytest.mark.spec("9.1", "9.2")
@pytest.mark.parametrize("seat", [True, 1.0, "1"])
def test_a_value_that_is_no_seat_number_undoes_nothing(seat: object) -> None:
    # True == 1: such a "seat" used to take back seat 1's pending choice.
    history = _first_choices(History.start(GameConfig(players=3), 4), [1])
    assert history.can_undo(1)
    assert not history.can_undo(seat)  # type: ignore[arg-type]
    with pytest.raises(UndoError):
        history.undo(seat)  # type: ignore[arg-type]
    with pytest.raises(UndoError):
        history.rewind(seat)  # type: ignore[arg-type]
