"""A game's list of states, for undo in front ends (spec 9.2, 9.3).

States are values, so keeping every state of a game costs little (they share
their tuples) and stepping back is just taking an earlier one.
:class:`History` keeps the states and the choices between them, itself an
immutable value:

>>> from darkempire.rules.engine import legal_actions
>>> from darkempire.rules.state import GameConfig
>>> history = History.start(GameConfig(players=3), seed=7)
>>> history = history.apply(0, legal_actions(history.current, 0)[0])
>>> history.can_undo(0), history.can_undo(1)
(True, False)
>>> history.undo(0).current == history.states[0]
True

**Caveat: every decision in this game is simultaneous.** A seat's choice is
a hidden pending choice until every awaited seat has chosen; then the step
resolves and all choices are revealed at once. :meth:`History.undo` takes
back a seat's choice only *before its step resolves*: afterwards the other
seats have seen it, and a different choice would be a different game.
:meth:`History.rewind` goes back further, to just before a seat's last
decision, dropping every later choice of every seat: use it only where one
person makes all the decisions that matter (solo play against bots, analysis,
hot-seat teaching), never to let one player of a real game take back a
revealed move.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from tablekit import records as kit
from tablekit.wire import quote
from darkempire.rules import engine
from darkempire.rules.actions import Action
from darkempire.rules.errors import DarkEmpireError, IllegalActionError, InvalidArgumentError
from darkempire.rules.events import EVENT_TYPES, Event, EventDerivationError
from darkempire.public_record import PublicRecord, public_record
from darkempire.records import Choice, DivergentChoiceError, GameRecord, RecordError, state_digest
from darkempire.rules.state import GameConfig, GameState

__all__ = ["History", "UndoError"]


class UndoError(DarkEmpireError, ValueError):
    """There is nothing to undo: the seat has no choice to take back (or its step has resolved)."""


@attrs.frozen
class History:
    """The states of one game and the choices between them.

    :ivar states: the first state, then the state after each choice
        (``len(states) == len(choices) + 1``).
    :ivar choices: the choices, in the order applied.
    :ivar reported: the events each choice caused, as the engine reported them when it applied the choice
        (:func:`~darkempire.rules.engine.apply_reporting`), one tuple per choice; ``None`` for a history made
        from states and choices alone, whose :meth:`events` replays the choices instead. Not compared:
        two histories of the same states and choices are equal. Its structure is checked, not its agreement
        with the states (that would replay every choice at every :meth:`apply`): pass only events the
        engine reported, and on a server build histories with :meth:`start`, :meth:`apply` and
        :meth:`extend`, never from what a client sent.
    """

    states: tuple[GameState, ...] = attrs.field()
    choices: tuple[Choice, ...] = ()
    reported: tuple[tuple[Event, ...], ...] | None = attrs.field(default=None, kw_only=True, eq=False, repr=False)

    @states.validator
    def _one_state_per_choice(self, _attribute: object, states: tuple[GameState, ...]) -> None:
        if not isinstance(states, tuple) or not all(isinstance(s, GameState) for s in states):
            raise InvalidArgumentError("a History's states are a tuple of GameState values")
        if not isinstance(self.choices, tuple) or not all(isinstance(c, Choice) for c in self.choices):
            raise InvalidArgumentError("a History's choices are a tuple of Choice values")
        if len(states) != len(self.choices) + 1:
            raise InvalidArgumentError(
                f"{len(states)} states for {len(self.choices)} choices; need one more state than choices"
            )
        reported = self.reported
        if reported is not None and (
            not isinstance(reported, tuple)
            or len(reported) != len(self.choices)
            or not all(isinstance(r, tuple) and all(type(e) in EVENT_TYPES for e in r) for r in reported)
        ):
            raise InvalidArgumentError("a History's reported events are a tuple of one tuple of events per choice")

    @classmethod
    def start(cls, config: GameConfig, seed: int) -> History:
        """A new game: the history holding only the deal (rules 2.1-2.4)."""
        return cls((engine.deal(config, seed),))

    @classmethod
    def from_state(cls, state: GameState) -> History:
        """A history starting at ``state``, e.g. a game resumed from a save."""
        return cls((state,))

    @classmethod
    def from_record(cls, record: GameRecord) -> History:
        """The history of a recorded game, replayed through the rules.

        :raises DivergentChoiceError: at the record's first illegal choice.
        """
        history = cls.start(record.config, record.seed)
        return history.extend((c.seat, c.action) for c in record.choices)

    @property
    def current(self) -> GameState:
        """The latest state."""
        return self.states[-1]

    def apply(self, seat: int, action: Action) -> History:
        """The history after ``seat`` chooses ``action`` (see :func:`darkempire.rules.engine.apply`).

        :raises IllegalActionError: if the choice is illegal; the history is unchanged.
        """
        after = engine.apply_reporting(self.current, seat, action)
        return History(
            self.states + (after.state,), self.choices + (Choice(seat, action),), reported=self._reported() + (after.events,)
        )

    def extend(self, choices: Iterable[tuple[int, Action] | Choice]) -> History:
        """The history after applying ``choices`` in order.

        The choices are re-run by the kit's one replay loop, :func:`tablekit.records.replay_choices`, with
        :func:`~darkempire.rules.engine.apply_reporting` as its step.

        :param choices: ``(seat, action)`` pairs, or :class:`~darkempire.records.Choice` values.
        :raises DivergentChoiceError: naming the first illegal choice (its index counts from this history's end).
        :raises InvalidArgumentError: if ``choices`` is not an iterable of such pairs; the history is unchanged.
        """
        states = list(self.states)
        made = list(self.choices)
        reported = list(self._reported())
        start = engine.Transition(self.current, ())
        for _, choice, after in kit.replay_choices(start, _pairs(choices), _apply, divergence=DivergentChoiceError):
            states.append(after.state)
            made.append(Choice(choice.seat, choice.action))
            reported.append(after.events)
        return History(tuple(states), tuple(made), reported=tuple(reported))

    def _reported(self) -> tuple[tuple[Event, ...], ...]:
        """The events of every choice: those recorded as the choices were applied, or else replayed."""
        if self.reported is not None:
            return self.reported
        return tuple(self._replayed(index) for index in range(len(self.choices)))

    def _replayed(self, index: int) -> tuple[Event, ...]:
        """The events of choice ``index``, replayed from the state before it and checked to reach the next."""
        choice = self.choices[index]
        try:
            after = engine.apply_reporting(self.states[index], choice.seat, choice.action)
        except IllegalActionError as error:
            raise EventDerivationError(f"choice {index} (seat {choice.seat}) does not follow: {error.message}") from error
        if after.state != self.states[index + 1]:
            raise EventDerivationError(f"choice {index} does not lead from state {index} to state {index + 1}")
        return after.events

    def can_undo(self, seat: int) -> bool:
        """Whether ``seat`` has a pending choice it may take back: its step has not resolved yet (rule 9.2)."""
        # type(seat) is int: True or 1.0 would index seat 1's choice (True == 1), and a wrong seat is no seat.
        return type(seat) is int and 0 <= seat < self.current.players and self.current.pending[seat] is not None

    def undo(self, seat: int) -> History:
        """Take back ``seat``'s pending choice; its step waits for it again (rule 9.2).

        The choices other seats made after it in the same step are kept: they
        are re-applied in order, and stay hidden pending choices.

        :raises UndoError: if the seat has no pending choice (it has not chosen
            in this step, or the step already resolved and revealed it).
        """
        if not self.can_undo(seat):
            raise UndoError(f"seat {seat} has no pending choice to take back; a resolved step cannot be undone")
        index = self._last_choice(seat)
        return self._cut(index).extend((c.seat, c.action) for c in self.choices[index + 1 :])

    def rewind(self, seat: int) -> History:
        """Go back to just before ``seat``'s last decision, dropping every later choice of every seat.

        Unlike :meth:`undo`, this also crosses resolved steps: see the caveat
        in the module docstring before offering it to players.

        :raises UndoError: if the seat has made no choice in this history.
        """
        return self._cut(self._last_choice(seat))

    def _cut(self, index: int) -> History:
        """The history before choice ``index``."""
        reported = None if self.reported is None else self.reported[:index]
        return History(self.states[: index + 1], self.choices[:index], reported=reported)

    def _last_choice(self, seat: int) -> int:
        if type(seat) is not int:  # True == 1: a wrong seat must not match seat 1's choices
            raise UndoError(f"{seat!r} is not a seat")
        for index in range(len(self.choices) - 1, -1, -1):
            if self.choices[index].seat == seat:
                return index
        raise UndoError(f"seat {seat} has made no choice in this history")

    def events(self, start: int = 0, stop: int | None = None) -> tuple[Event, ...]:
        """The events from ``states[start]`` to ``states[stop]`` (the current state if ``stop`` is ``None``).

        The events the engine reported as it applied each choice (:func:`~darkempire.rules.engine.apply_reporting`):
        exact, nothing is recovered from the states. The deal's events are
        :func:`~darkempire.rules.events.opening_events` of ``states[0]``.

        :raises InvalidArgumentError: if ``start`` or ``stop`` is no state index, or ``stop < start``.
        :raises EventDerivationError: for a history made from states and choices alone (no
            ``reported`` events) whose choices do not lead from one state to the next.
        """
        last = len(self.choices)
        if type(start) is not int or not 0 <= start <= last:
            raise InvalidArgumentError(f"start is a state index from 0 to {last}, not {quote(start)}")
        if stop is None:
            stop = last
        if type(stop) is not int or not start <= stop <= last:
            raise InvalidArgumentError(f"stop is a state index from {start} to {last}, not {quote(stop)}")
        if self.reported is not None:
            per_choice = self.reported[start:stop]
        else:
            per_choice = tuple(self._replayed(index) for index in range(start, stop))
        return tuple(event for events in per_choice for event in events)

    def record(self) -> GameRecord:
        """This game as a :class:`~darkempire.records.GameRecord` (with state digests).

        The record carries the seed, so it reveals every hidden card: keep it on
        the server while the game is on, and share :meth:`public_record` instead.

        :raises RecordError: if the history does not start at a deal (it was
            resumed from a later state), so it cannot be replayed from its seed.
        """
        first = self.states[0]
        if first != engine.deal(first.config, first.chance.seed):
            raise RecordError("a record replays from the deal, and this history starts later in the game")
        digests = tuple(state_digest(s) for s in self.states[1:])
        return GameRecord(first.config, first.chance.seed, self.choices, self.current.verdict, digests)

    def public_record(self) -> PublicRecord:
        """This game as a spectator saw it: a :class:`~darkempire.public_record.PublicRecord`, with no seed
        and nothing hidden, safe to send to players and spectators while the game is on (unlike :meth:`record`).

        :raises RecordError: if the history does not start at a deal.
        """
        return public_record(self)


def _apply(before: engine.Transition, seat: int, action: Action) -> engine.Transition:
    """One choice of :meth:`History.extend`: :func:`~darkempire.rules.engine.apply_reporting` after ``before``."""
    return engine.apply_reporting(before.state, seat, action)


def _pairs(choices: object) -> Iterable[tuple[int, Action]]:
    """``choices`` as ``(seat, action)`` pairs, each checked to be a pair (the action is checked by the engine)."""
    if isinstance(choices, (str, bytes)) or not isinstance(choices, Iterable):
        raise InvalidArgumentError(f"choices are an iterable of (seat, action) pairs, not {type(choices).__name__}")
    for index, choice in enumerate(choices):
        if isinstance(choice, Choice):
            yield choice.seat, choice.action
        elif isinstance(choice, (tuple, list)) and len(choice) == 2:
            yield choice[0], choice[1]
        else:
            raise InvalidArgumentError(f"choice {index} is not a (seat, action) pair: {quote(choice)}")
